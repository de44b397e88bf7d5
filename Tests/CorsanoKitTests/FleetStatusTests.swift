@testable import CorsanoKit
import Foundation
import TestSupport
import Testing

/// `fleet status` in the core (docs/design.md "Fleet status"): each bracelet judged from the audit
/// log, the open calibrations and the journal; the journal's owners by the data (this boot's by
/// their process, others by their lease); what needs a person; the metrics equal the counts; and
/// `fleet release` ends leases without deleting a row, on both engines.
@Suite struct FleetStatusTests {
    static let now = RFC3339.parseInstant("2026-12-01T12:00:00Z")!
    static let thisBoot = "boot-here"

    /// A probe of a machine booted as `thisBoot` on which only `running` pids run, each started at tick 100.
    static func probe(running: Set<Int32>) -> OwnerProbe {
        OwnerProbe(bootID: { thisBoot }, startTime: { running.contains($0) ? 100 : nil }, exists: { running.contains($0) })
    }

    static func run(_ serial: String, ended: String?, kind: String?, gateway: String? = "gw-1", flow: String = "bp-init",
                    config: String = "{}", started: String? = nil) -> AuditRun {
        AuditRun(run: "\(serial)-\(ended ?? "killed")-\(kind ?? "none")", flow: flow,
                 bracelet: BraceletIdentity(model: "287-2", firmware: "7.4", serial: serial),
                 startedAt: started ?? ended ?? "2026-12-01T11:00:00Z", endedAt: ended, configJSON: config,
                 resultJSON: kind.map { #"{"kind":"\#($0)"}"# }, readings: [], gateway: gateway)
    }

    static func entry(_ serial: String, gateway: String, pid: Int32, boot: String?, lease: Double) -> PlanJournal.Entry {
        PlanJournal.Entry(serial: serial, previousPlan: BraceletPlan("monitoring"), flow: "bp-init",
                          owner: PlanJournal.Owner(gateway: gateway, pid: pid, startTime: 100, bootID: boot),
                          openedAt: now, leaseRemaining: lease)
    }

    static func calibration(_ serial: String, lastSetEnded: String) -> MultiSetCalibration {
        let ended = RFC3339.parseInstant(lastSetEnded)!
        return MultiSetCalibration(id: "cal-\(serial)", serial: serial, parameters: .corsano(), startedAt: ended,
                                   sets: [CalibrationSetRecord(set: 1, run: "r1", endedAt: ended, cuff: nil, readings: [])])
    }

    /// Each case: the journal entry, the pids running here, what it is judged.
    static let journalCases: [(String, PlanJournal.Entry, Set<Int32>, String)] = [
        ("this boot, process runs", entry("A", gateway: "gw-1", pid: 10, boot: thisBoot, lease: -50), [10], "held"),
        ("this boot, process ended, lease left", entry("A", gateway: "gw-1", pid: 10, boot: thisBoot, lease: 50), [], "stuck"),
        ("this boot, pid reused", entry("A", gateway: "gw-1", pid: 11, boot: thisBoot, lease: 50), [], "stuck"),
        ("other boot, lease left", entry("A", gateway: "gw-2", pid: 10, boot: "boot-elsewhere", lease: 30), [10], "held"),
        ("other boot, lease ran out", entry("A", gateway: "gw-2", pid: 10, boot: "boot-elsewhere", lease: -5), [10], "stuck"),
        ("no boot id, lease left", entry("A", gateway: "gw-2", pid: 10, boot: nil, lease: 30), [], "held"),
    ]

    @Test(arguments: journalCases.indices)
    func theJournalIsJudgedByTheData(_ i: Int) {
        let (name, entry, running, expected) = Self.journalCases[i]
        let fleet = FleetBracelet.check(runs: [], open: [], journal: [entry], days: 28, now: Self.now, probe: Self.probe(running: running))
        let judged: String
        switch fleet.first?.journal {
        case .held?: judged = "held"
        case .stuck?: judged = "stuck"
        case nil: judged = "none"
        }
        #expect(judged == expected, "\(name)")
        #expect(fleet.first?.needsPerson == (expected == "stuck" ? [.stuck] : []), "\(name)")
    }

    @Test func dueOverdueAndFailedAreTold() {
        let runs = [
            Self.run("OK", ended: "2026-11-30T10:00:00Z", kind: "success"),
            Self.run("OLD", ended: "2026-10-01T10:00:00Z", kind: "success", gateway: "gw-2"),
            Self.run("FAIL", ended: "2026-11-30T10:00:00Z", kind: "success"),
            Self.run("FAIL", ended: "2026-11-30T11:00:00Z", kind: "failedAfterRetries"),
            Self.run("SET", ended: "2026-12-01T10:00:00Z", kind: "setRecorded", config: #"{"protocol":{"kind":"corsano"}}"#),
            Self.run("LATE", ended: "2026-11-29T10:00:00Z", kind: "setRecorded"),
            // A signature is no run of the bracelet's: it names no gateway's work.
            Self.run("OK", ended: "2026-12-01T11:00:00Z", kind: "signature", gateway: "gw-9", flow: "signature"),
        ]
        let open = [Self.calibration("SET", lastSetEnded: "2026-12-01T10:00:00Z"), Self.calibration("LATE", lastSetEnded: "2026-11-29T10:00:00Z")]
        let fleet = FleetBracelet.check(runs: runs, open: open, journal: [], days: 28, now: Self.now, probe: Self.probe(running: []))
        let by = Dictionary(uniqueKeysWithValues: fleet.map { ($0.bracelet.serial, $0) })
        #expect(fleet.map(\.bracelet.serial) == ["FAIL", "LATE", "OK", "OLD", "SET"])
        #expect(by["OK"]!.due == false && by["OK"]!.needsPerson.isEmpty && by["OK"]!.lastGateway == "gw-1")
        #expect(by["OLD"]!.due == true && by["OLD"]!.needsPerson.isEmpty, "a recalibration due is work, not a person's")
        #expect(by["FAIL"]!.needsPerson == [.failed] && by["FAIL"]!.lastRun?.result == "failedAfterRetries")
        // Set 2 of 3 is due one hour after set 1 ended, and expires 24 h after that.
        #expect(by["SET"]!.calibration == FleetBracelet.OpenCalibration(id: "cal-SET", protocolKind: "corsano", set: 2, of: 3,
                                                                     dueAt: RFC3339.parseInstant("2026-12-01T11:00:00Z"),
                                                                     expiresAt: RFC3339.parseInstant("2026-12-02T11:00:00Z")))
        #expect(by["SET"]!.due == true && by["SET"]!.needsPerson.isEmpty)
        #expect(by["LATE"]!.due == false && by["LATE"]!.needsPerson == [.overdue], "its set missed the window")
        let counts = FleetCounts(fleet)
        #expect(counts == {
            var c = FleetCounts([])
            (c.bracelets, c.due, c.overdue, c.stuck, c.held, c.failed, c.needPerson) = (5, 2, 1, 0, 0, 1, 2)
            return c
        }())
        // Judged an hour earlier, set 2 is not due yet.
        let earlier = FleetBracelet.check(runs: runs, open: open, journal: [], days: 28, now: RFC3339.parseInstant("2026-12-01T10:30:00Z")!,
                                          probe: Self.probe(running: []))
        #expect(earlier.first { $0.bracelet.serial == "SET" }?.due == false)
    }

    @Test func aBraceletOnlyTheJournalKnowsIsListed() {
        let fleet = FleetBracelet.check(runs: [], open: [], journal: [Self.entry("NEW", gateway: "gw-3", pid: 5, boot: "x", lease: -1)],
                                        days: 28, now: Self.now, probe: Self.probe(running: []))
        #expect(fleet.map(\.bracelet.serial) == ["NEW"])
        #expect(fleet[0].recalibration.due && fleet[0].needsPerson == [.stuck])
        let line = fleet[0].json(readAt: Self.now).serialized
        #expect(line.contains(#""stuck":{"gateway":"gw-3","pid":5,"flow":"bp-init","openedAt":"2026-12-01T12:00:00Z","previousPlan":"monitoring","why":"its lease ran out 1 s ago and was not renewed"}"#), "\(line)")
        #expect(line.contains(#""holder":null"#))
    }

    /// The metrics' gauges summed over `gateway` equal the counts; runs are counted by gateway,
    /// protocol and result; no serial is in the text; label values are escaped.
    @Test func metricsSumToTheCounts() throws {
        let runs = [
            Self.run("A", ended: "2026-11-30T10:00:00Z", kind: "success", started: "2026-11-30T09:58:00Z"),
            Self.run("B", ended: "2026-11-30T10:00:00Z", kind: "failedAfterRetries", gateway: "gw \"2\""),
            Self.run("C", ended: "2026-12-01T10:00:00Z", kind: "setRecorded", gateway: "gw-1", config: #"{"protocol":{"kind":"corsano"}}"#),
            Self.run("C", ended: nil, kind: nil, gateway: "gw-1"),  // killed: not a finished run
        ]
        let journal = [Self.entry("C", gateway: "gw-1", pid: 10, boot: Self.thisBoot, lease: 10),
                       Self.entry("D", gateway: "gw-3", pid: 11, boot: "other", lease: 10)]
        let fleet = FleetBracelet.check(runs: runs, open: [Self.calibration("C", lastSetEnded: "2026-12-01T10:00:00Z")], journal: journal,
                                        days: 28, now: Self.now, probe: Self.probe(running: []))
        let text = FleetMetrics.render(fleet: fleet, runs: runs)
        let counts = FleetCounts(fleet)
        func sum(_ name: String) -> Int {
            text.split(separator: "\n").filter { $0.hasPrefix(name + "{") }.map { Int($0.split(separator: " ").last!)! }.reduce(0, +)
        }
        #expect(sum("corsano_bracelets") == counts.bracelets)
        #expect(sum("corsano_bracelets_due") == counts.due)
        #expect(sum("corsano_bracelets_stuck") == counts.stuck && counts.stuck == 1)
        #expect(sum("corsano_leases_held") == counts.held && counts.held == 1)
        #expect(sum("corsano_bracelets_failed") == counts.failed && counts.failed == 1)
        #expect(text.contains(#"corsano_calibration_runs_total{gateway="gw \"2\"",protocol="sdk",result="failedAfterRetries"} 1"#), "\(text)")
        #expect(text.contains(#"corsano_calibration_runs_total{gateway="gw-1",protocol="corsano",result="setRecorded"} 1"#))
        #expect(text.contains(#"corsano_calibration_run_duration_seconds_bucket{gateway="gw-1",protocol="sdk",le="120"} 1"#))
        #expect(text.contains(#"corsano_calibration_run_duration_seconds_bucket{gateway="gw-1",protocol="sdk",le="60"} 0"#))
        #expect(text.contains(#"corsano_calibration_run_duration_seconds_sum{gateway="gw-1",protocol="sdk"} 120"#))
        for serial in ["\"A\"", "\"B\"", "\"C\"", "\"D\""] { #expect(!text.contains(serial)) }
        // promtool (Debian's prometheus package) takes it as it is.
        let (status, said) = try Self.promtool(text)
        #expect(status == 0, "\(said)")
    }

    /// `promtool check metrics` on `text`: its status and what it said (it lints on stdout or stderr).
    static func promtool(_ text: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/promtool")
        process.arguments = ["check", "metrics"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let said = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: said, as: UTF8.self))
    }

    @Test(arguments: ["sqlite", "postgres"])
    func releaseEndsLeasesAndKeepsTheRows(engine: String) throws {
        let location: String
        if engine == "postgres" {
            location = try ThrowawayPostgres.shared().createDatabase().uri
        } else {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-release-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            location = dir.appendingPathComponent("state.sqlite3").path
        }
        let store: any StateStore = engine == "postgres" ? try PostgresStore(uri: location) : try SQLiteStore(path: location)
        let journal = PlanJournal(store: store, leaseSeconds: 3600)
        for (serial, gateway, pid) in [("A", "gw-dead", Int32(10)), ("B", "gw-dead", 11), ("C", "gw-live", 12)] {
            try journal.open(PlanJournal.Entry(serial: serial, previousPlan: BraceletPlan("monitoring"), flow: "bp-init",
                                               owner: PlanJournal.Owner(gateway: gateway, pid: pid, startTime: 100, bootID: "elsewhere"),
                                               openedAt: Self.now))
        }
        // An owner of gw-live runs here: refused unless forced, nothing changed.
        let here = OwnerProbe(bootID: { "elsewhere" }, startTime: { _ in 100 }, exists: { $0 == 12 })
        #expect(try journal.release(gateway: "gw-live", force: false, probe: here) == .ownersRun(running: try journal.openEntries().filter { $0.serial == "C" }))
        #expect(try journal.entry(serial: "C")!.leaseRemaining! > 3000)
        guard case .released(let entries, let expired) = try journal.release(gateway: "gw-dead", force: false, probe: here) else {
            Issue.record("gw-dead was not released")
            return
        }
        #expect(entries.map(\.serial) == ["A", "B"] && expired == 2)
        let after = try journal.openEntries()
        #expect(after.map(\.serial) == ["A", "B", "C"], "no row is deleted")
        #expect(after.filter { $0.owner.gateway == "gw-dead" }.allSatisfy { ($0.leaseRemaining ?? 1) <= 0 })
        #expect(after.first { $0.serial == "C" }!.leaseRemaining! > 3000)
        // Released again: the rows are there, no lease still ran.
        #expect(try journal.release(gateway: "gw-dead", force: false, probe: here) == .released(entries: entries, expired: 0))
        // Another gateway now takes the owner for gone.
        let other = PlanJournal.Owner(gateway: "gw-1", pid: 99, startTime: 1, bootID: "mine")
        #expect(PlanJournal.ownerState(after[0], me: other, probe: here) == .gone)
        // Forced, the live one is released too.
        guard case .released(_, 1) = try journal.release(gateway: "gw-live", force: true, probe: here) else {
            Issue.record("gw-live was not released with force")
            return
        }
    }
}

/// The work a fleet worker would claim for one bracelet (`FleetWork.decide`): each case a
/// bracelet's history and what is due at `FleetStatusTests.now`.
@Suite struct FleetWorkTests {
    typealias T = FleetStatusTests

    static let cases: [(String, [AuditRun], MultiSetCalibration?, FleetWork)] = [
        ("never calibrated", [], nil, .newCalibration(.never)),
        ("calibrated yesterday", [T.run("A", ended: "2026-11-30T12:00:00Z", kind: "success")], nil,
         .notYet(until: RFC3339.parseInstant("2026-12-28T12:00:00Z")!)),
        ("calibrated 29 days ago", [T.run("A", ended: "2026-11-02T12:00:00Z", kind: "success")], nil, .newCalibration(.recalibration)),
        ("one failure: retried", [T.run("A", ended: "2026-11-02T12:00:00Z", kind: "success"),
                                  T.run("A", ended: "2026-11-30T12:00:00Z", kind: "failedAfterRetries")], nil, .newCalibration(.retry)),
        ("two failures in a row: a person", [T.run("A", ended: "2026-11-30T10:00:00Z", kind: "cuffError"),
                                             T.run("A", ended: "2026-11-30T12:00:00Z", kind: "failedAfterRetries")], nil,
         .needsPerson(consecutiveFailures: 2)),
        ("a success ends the failures", [T.run("A", ended: "2026-11-29T10:00:00Z", kind: "cuffError"),
                                         T.run("A", ended: "2026-11-29T11:00:00Z", kind: "cuffError"),
                                         T.run("A", ended: "2026-11-30T12:00:00Z", kind: "success")], nil,
         .notYet(until: RFC3339.parseInstant("2026-12-28T12:00:00Z")!)),
        ("a recorded set is no outcome", [T.run("A", ended: "2026-11-30T12:00:00Z", kind: "failedAfterRetries"),
                                          T.run("A", ended: "2026-12-01T09:00:00Z", kind: "setRecorded")], nil, .newCalibration(.retry)),
        ("another bracelet's failures are not its", [T.run("B", ended: "2026-11-30T10:00:00Z", kind: "cuffError"),
                                                     T.run("B", ended: "2026-11-30T11:00:00Z", kind: "cuffError")], nil,
         .newCalibration(.never)),
        ("set 2 due", [], T.calibration("A", lastSetEnded: "2026-12-01T10:00:00Z"), .nextSet(calibration: "cal-A", set: 2, of: 3)),
        ("set 2 not yet", [], T.calibration("A", lastSetEnded: "2026-12-01T11:30:00Z"),
         .notYet(until: RFC3339.parseInstant("2026-12-01T12:30:00Z")!)),
        ("set 2 missed its window", [], T.calibration("A", lastSetEnded: "2026-11-29T10:00:00Z"), .newCalibration(.expired)),
    ]

    @Test(arguments: cases.indices)
    func theWorkDueIsDecidedByTheData(_ i: Int) {
        let (name, runs, open, expected) = Self.cases[i]
        let work = FleetWork.decide(serial: "A", runs: runs, open: open, days: 28, retryFailed: FleetWork.defaultRetryFailed, now: T.now)
        #expect(work == expected, "\(name)")
    }

    @Test func retryFailedCountsFailuresInARow() {
        let runs = (0..<3).map { T.run("A", ended: "2026-11-30T1\($0):00:00Z", kind: "failedAfterRetries") }
        #expect(FleetWork.decide(serial: "A", runs: runs, open: nil, days: 28, retryFailed: 3, now: T.now) == .newCalibration(.retry))
        #expect(FleetWork.decide(serial: "A", runs: runs, open: nil, days: 28, retryFailed: 2, now: T.now) == .needsPerson(consecutiveFailures: 3))
        #expect(FleetWork.decide(serial: "A", runs: runs, open: nil, days: 28, retryFailed: 0, now: T.now) == .needsPerson(consecutiveFailures: 3))
    }
}
