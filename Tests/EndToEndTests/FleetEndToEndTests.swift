import CorsanoKit
import Foundation
import Testing
import TestSupport

/// `fleet status` and `fleet release` through the built binary, on a SQLite file and on a database of
/// the test's PostgreSQL server (docs/design.md "Fleet status"): what needs a person (a failed run, a
/// run killed on this machine, a dead gateway elsewhere), exit 0/1/66, the metrics file that
/// `promtool` accepts and whose gauges equal the JSON summary, a store the user may only read left
/// unchanged, and a release refused (75) while the gateway's run lives here.
@Suite struct FleetEndToEndTests {
    typealias E = BPInitE2E

    enum Engine: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    static func location(_ engine: Engine) throws -> String {
        switch engine {
        case .sqlite: return try E.directory().appendingPathComponent("lab.sqlite3").path
        case .postgres: return try ThrowawayPostgres.shared().createDatabase().uri
        }
    }

    static let lab = Corsano.packageRoot.appendingPathComponent("examples/lab")

    /// One bp-init of the example lab's bracelet NN on the in-process simulator, under `gateway`.
    static func calibrate(_ state: String, _ nn: String, gateway: String, extra: [String] = []) throws -> Corsano.Outcome {
        try Corsano.run(["bp-init", "--json", "--no-preparation", "--state", state, "--gateway", gateway,
                         "--bracelet", "sim:" + lab.appendingPathComponent("bracelet-\(nn).json").path,
                         "--cuff", lab.appendingPathComponent("cuff-\(nn).jsonl").path] + extra)
    }

    static func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    /// `fleet status --json` on `state`: its status, bracelet lines by serial and summary.
    static func status(_ state: String, _ extra: [String] = []) throws -> (Int32, [String: [String: Any]], [String: Int], Corsano.Outcome) {
        let r = try Corsano.run(["fleet", "status", "--json", "--state", state] + extra)
        var bracelets: [String: [String: Any]] = [:], summary: [String: Int] = [:]
        for object in r.lines.map(json) {
            if object["kind"] as? String == "summary" {
                for (k, v) in object where k != "kind" { summary[k] = v as? Int }
            } else if let serial = (object["bracelet"] as? [String: Any])?["serial"] as? String {
                bracelets[serial] = object
            }
        }
        return (r.status, bracelets, summary, r)
    }

    static func open(_ state: String) throws -> any StateStore {
        PostgresURI.isPostgres(state) ? try PostgresStore(uri: state) : try SQLiteStore(path: state)
    }

    @Test(arguments: Engine.allCases)
    func statusTellsWhatNeedsAPersonAndReleaseFreesADeadGateway(engine: Engine) throws {
        let state = try Self.location(engine)
        let ok = try Self.calibrate(state, "01", gateway: "gw-1")
        #expect(ok.status == 0, "\(ok.stderr)")
        var (status, bracelets, summary, r) = try Self.status(state)
        #expect(status == 0, "\(r.stderr)")
        #expect(summary == ["bracelets": 1, "due": 0, "overdue": 0, "stuck": 0, "held": 0, "failed": 0, "needPerson": 0], "\(r.stdout)")
        #expect(bracelets["SIM-LAB-01"]?["lastGateway"] as? String == "gw-1")
        #expect(((bracelets["SIM-LAB-01"]?["lastRun"] as? [String: Any])?["result"] as? String) == "success")

        // A failed calibration needs a person.
        let failed = try Self.calibrate(state, "03", gateway: "gw-2", extra: ["--max-attempts", "1"])
        #expect(failed.status == 1, "\(failed.stderr)")
        (status, bracelets, summary, r) = try Self.status(state)
        #expect(status == 1)
        #expect(summary["failed"] == 1 && summary["needPerson"] == 1, "\(r.stdout)")
        #expect(bracelets["SIM-LAB-03"]?["needsPerson"] as? [String] == ["failed"])
        #expect(try Self.status(state, ["--bracelet", "SIM-LAB-01"]).0 == 0, "one bracelet's view")
        let unknown = try Corsano.run(["fleet", "status", "--state", state, "--bracelet", "SIM-NOPE"])
        #expect(unknown.status == 66 && unknown.stderr.contains("no bracelet SIM-NOPE in the state store"), "\(unknown.stderr)")
        // Rehearsed 60 days on, both are due for recalibration (wall-time stamps, as history --due).
        (status, _, summary, r) = try Self.status(state, ["--now", "2099-01-01T00:00:00Z", "--due", "28"])
        #expect(summary["due"] == 2, "\(r.stdout)")

        // A run killed on this machine mid-set: its entry is stuck at once (its process is gone).
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let live = try LiveCorsano(["bp-init", "--json", "--no-preparation", "--bracelet", server.listening, "--state", state,
                                    "--gateway", "gw-3", "--lease", "3600"] + E.now, env: [:])
        #expect(live.waitForLine(containing: #""step":"measuring""#))
        (status, bracelets, summary, r) = try Self.status(state)
        #expect(summary["held"] == 1 && status == 1, "\(r.stdout)")
        let holder = bracelets["SIM-287-0001"]?["holder"] as? [String: Any]
        #expect(holder?["gateway"] as? String == "gw-3" && holder?["flow"] as? String == "bp-init", "\(r.stdout)")
        live.signal(SIGKILL)
        _ = live.finish(closingInput: true)
        (status, bracelets, summary, r) = try Self.status(state)
        #expect(status == 1 && summary["stuck"] == 1 && summary["held"] == 0, "\(r.stdout)")
        let stuck = bracelets["SIM-287-0001"]?["stuck"] as? [String: Any]
        #expect((stuck?["why"] as? String)?.contains("on this machine has ended") == true, "\(r.stdout)")
        #expect((bracelets["SIM-287-0001"]?["lastRun"] as? [String: Any])?["planRestoredAt"] is NSNull, "not restored yet")
        // The next command of its gateway that reaches it restores the plan at once (another gateway
        // waits out the lease, or `fleet release`): no longer stuck; its last run shows when.
        let repair = try Corsano.run(["bracelet", "repair", "--bracelet", server.listening, "--state", state, "--gateway", "gw-3", "--json"])
        #expect(repair.status == 0, "\(repair.stderr)")
        (status, bracelets, summary, r) = try Self.status(state)
        #expect(summary["stuck"] == 0, "\(r.stdout)")
        #expect((bracelets["SIM-287-0001"]?["lastRun"] as? [String: Any])?["planRestoredAt"] is String, "\(r.stdout)")
        let repaired = try Corsano.run(["fleet", "status", "--text", "--state", state, "--bracelet", "SIM-287-0001"])
        #expect(repaired.stdout.contains("last bp-init: killed (plan restored at "), "\(repaired.stdout)")

        // A gateway on another machine (another boot) that died: held until its lease ends, or
        // until `fleet release` ends it now; the row stays.
        let journal = PlanJournal(store: try Self.open(state), leaseSeconds: 3600)
        try journal.open(PlanJournal.Entry(serial: "SIM-FAR-01", previousPlan: BraceletPlan("monitoring"), flow: "bp-init",
                                           owner: PlanJournal.Owner(gateway: "gw-far", pid: 4242, startTime: 7, bootID: "another-boot"),
                                           openedAt: RFC3339.parseInstant("2026-11-29T10:00:00Z")!))
        (status, bracelets, summary, r) = try Self.status(state)
        #expect(summary["held"] == 1 && summary["stuck"] == 0, "\(r.stdout)")
        let release = try Corsano.run(["fleet", "release", "--gateway", "gw-far", "--state", state, "--json"])
        #expect(release.status == 0, "\(release.stderr)")
        #expect(release.lines.map(Self.json).map { $0["released"] as? String } == ["SIM-FAR-01"], "\(release.stdout)")
        #expect(release.stderr.contains("gateway gw-far: 1 journal entry released (1 with a lease still running), none deleted"), "\(release.stderr)")
        (status, bracelets, summary, r) = try Self.status(state)
        #expect(status == 1 && summary["stuck"] == 1 && summary["held"] == 0, "\(r.stdout)")
        #expect(try journal.openEntries().map(\.serial).contains("SIM-FAR-01"), "released, never deleted")

        // The metrics: promtool accepts them, each gauge summed over gateway is the summary's count.
        let dir = try E.directory()
        let prom = dir.appendingPathComponent("corsano-fleet.prom").path
        let withMetrics = try Corsano.run(["fleet", "status", "--json", "--state", state, "--metrics", prom])
        #expect(withMetrics.status == 1)
        let text = try String(contentsOfFile: prom, encoding: .utf8)
        let check = try Shell.run("promtool", ["check", "metrics"], stdin: text)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        var mode = stat()
        stat(prom, &mode)
        #expect(mode.st_mode & 0o777 == 0o644)
        func sum(_ name: String) -> Int {
            text.split(separator: "\n").filter { $0.hasPrefix(name + "{") }.compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
        }
        for (metric, key) in [("corsano_bracelets", "bracelets"), ("corsano_bracelets_due", "due"), ("corsano_bracelets_overdue", "overdue"),
                              ("corsano_bracelets_stuck", "stuck"), ("corsano_leases_held", "held"), ("corsano_bracelets_failed", "failed")] {
            #expect(sum(metric) == summary[key], "\(metric): \(text)")
        }
        #expect(text.contains(#"corsano_calibration_runs_total{gateway="gw-1",protocol="sdk",result="success"} 1"#), "\(text)")
        #expect(text.contains(#"corsano_calibration_runs_total{gateway="gw-2",protocol="sdk",result="failedAfterRetries"} 1"#))
        // Counted from the store: another run adds to the counter, none decreases.
        #expect(try Self.calibrate(state, "01", gateway: "gw-1").status == 0)
        _ = try Corsano.run(["fleet", "status", "--json", "--state", state, "--metrics", prom])
        let again = try String(contentsOfFile: prom, encoding: .utf8)
        #expect(again.contains(#"corsano_calibration_runs_total{gateway="gw-1",protocol="sdk",result="success"} 2"#), "\(again)")
        for serial in ["SIM-LAB-01", "SIM-LAB-03", "SIM-287-0001"] { #expect(!again.contains(serial), "no serial in metrics") }
    }

    @Test func noStoreIs66NamingIt() throws {
        let state = try E.directory().appendingPathComponent("typo.sqlite3").path
        for args in [["fleet", "status"], ["fleet", "release", "--gateway", "gw-1"]] {
            let r = try Corsano.run(args + ["--state", state])
            #expect(r.status == 66, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("\(state): no state store there"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: state), "a read never creates a store")
        }
        let database = try ThrowawayPostgres.shared().createDatabase()
        let pg = try Corsano.run(["fleet", "status", "--state", database.uri])
        #expect(pg.status == 66 && pg.stderr.contains("the database has no corsano tables"), "\(pg.stderr)")
    }

    static func digest(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Run as `nobody` on a store it may only read: 0 or 1 as for anyone, the store unchanged;
    /// and run as the store's writer, it writes nothing either (opened read-only).
    @Test func aStoreTheUserCannotWriteIsReadAndLeftUnchanged() throws {
        let (dir, state) = try HistoryFailsClosedTests.store()
        chmod(dir.path, 0o777)
        chmod(state, 0o444)
        let before = try Self.digest(state), listing = try HistoryFailsClosedTests.listing(dir)
        let clean = try HistoryFailsClosedTests.asNobody(["fleet", "status", "--state", state, "--json"])
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stdout.contains(#"{"kind":"summary","bracelets":1,"due":0,"overdue":0,"stuck":0,"held":0,"failed":0,"needPerson":0}"#),
                "\(clean.stdout)")
        #expect(try Self.digest(state) == before && HistoryFailsClosedTests.listing(dir) == listing, "nothing written")

        // A store with a failed run, in a directory nobody may write (immutable=1): 1.
        let live = try E.directory().appendingPathComponent("live.sqlite3").path
        #expect(try Self.calibrate(live, "03", gateway: "gw-2", extra: ["--max-attempts", "1"]).status == 1)
        let snapshotDir = try E.directory()
        let snapshot = snapshotDir.appendingPathComponent("snapshot.sqlite3").path
        try SQLiteStore(path: live).execute("VACUUM INTO '\(snapshot)'")
        chmod(snapshot, 0o644)
        chmod(snapshotDir.path, 0o555)
        defer { chmod(snapshotDir.path, 0o755) }
        let snapshotBefore = try Self.digest(snapshot)
        let failing = try HistoryFailsClosedTests.asNobody(["fleet", "status", "--state", snapshot, "--json"])
        #expect(failing.status == 1, "\(failing.stderr)")
        #expect(failing.stdout.contains(#""needsPerson":["failed"]"#), "\(failing.stdout)")
        #expect(try Self.digest(snapshot) == snapshotBefore)

        // Its writer runs it on the live store: opened read-only all the same.
        let liveBefore = try Self.digest(live)
        let writer = try Corsano.run(["fleet", "status", "--state", live, "--json", "-v"])
        #expect(writer.status == 1)
        #expect(writer.stderr.contains("for reading only (mode=ro"), "\(writer.stderr)")
        #expect(try Self.digest(live) == liveBefore)
    }

    /// A gateway whose run still lives on this machine is not dead: 75, nothing changed; --force releases it.
    @Test func releaseRefusesAGatewayWhoseRunLivesHere() throws {
        let state = try E.directory().appendingPathComponent("lab.sqlite3").path
        #expect(try Self.calibrate(state, "01", gateway: "gw-1").status == 0)
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        // SIGKILL: a signal mask the test process blocks is inherited, SIGTERM would wait out the sleep.
        defer { kill(sleeper.processIdentifier, SIGKILL); sleeper.waitUntilExit() }
        let pid = sleeper.processIdentifier
        let journal = PlanJournal(store: try Self.open(state), leaseSeconds: 3600)
        try journal.open(PlanJournal.Entry(serial: "SIM-LIVE-01", previousPlan: BraceletPlan("monitoring"), flow: "bp-init",
                                           owner: PlanJournal.Owner(gateway: "gw-live", pid: pid, startTime: ProcessIdentity.startTime(of: pid),
                                                                    bootID: ProcessIdentity.bootID()),
                                           openedAt: RFC3339.parseInstant("2026-11-29T10:00:00Z")!))
        let refused = try Corsano.run(["fleet", "release", "--gateway", "gw-live", "--state", state])
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(refused.stderr.contains("bracelet SIM-LIVE-01 is held by bp-init pid \(pid) of gateway gw-live, which runs on this machine; "
                                        + "left alone (stop it, or release with --force)"), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        #expect((try journal.entry(serial: "SIM-LIVE-01")?.leaseRemaining ?? 0) > 3000, "nothing changed")
        let forced = try Corsano.run(["fleet", "release", "--gateway", "gw-live", "--state", state, "--force", "--text"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.contains("bracelet SIM-LIVE-01: lease of bp-init pid \(pid) ended; plan monitoring is restored by the next command"),
                "\(forced.stdout)")
        #expect((try journal.entry(serial: "SIM-LIVE-01")?.leaseRemaining ?? 1) <= 0)
    }
}
