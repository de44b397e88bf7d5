import CorsanoKit
import Foundation
import Testing
import TestSupport

/// Issue 25: a bracelet is never left unmonitored — with or without a state store, with one run
/// or ten. Each test runs the real binary against a served simulator over a real unix socket
/// (or a raw bridge script), as a user would.
@Suite(.serialized) struct BraceletHolderTests {
    typealias E = BPInitE2E

    /// The served bracelet's plan and holder, asked over a fresh connection.
    static func status(of server: ServedSimulator) async throws -> PlanStatus {
        let client = try await server.client(clock: VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000)))
        defer { client.shutdown() }
        return try await client.planStatus()
    }

    /// Waits until the served bracelet has no holder (the server saw a killed client's
    /// connection close); true when it had none within 20 s.
    static func holdEnds(_ server: ServedSimulator) async throws -> Bool {
        for _ in 0..<200 {
            if try await status(of: server).holder == nil { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return false
    }

    /// A `--no-state` bp-init killed with SIGKILL in the calibration plan: the next run refuses
    /// (69) and says how to restore; `bracelet repair` without `--plan` says the same; `bracelet
    /// repair --plan monitoring` restores it; nothing claims a restore that did not happen.
    @Test func aKilledRunWithoutAStoreIsNeverTakenForThePreviousPlan() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let killed = try LiveCorsano(["bp-init", "--bracelet", server.listening, "--no-state", "--no-preparation",
                                      "--cuff", "-"] + E.now, env: [:])
        #expect(killed.waitForLine(containing: #""step":"measuring""#))
        killed.signal(SIGKILL)
        _ = killed.finish()
        #expect(try await Self.holdEnds(server))
        #expect(try await Self.status(of: server).plan == .nibpCalibration)

        let next = try Corsano.run(["bp-init", "--bracelet", server.listening, "--no-state", "--text"] + E.now,
                                   stdin: E.sixReadings)
        #expect(next.status == 69, "\(next.stderr)")
        #expect(next.stderr.contains("is in nibpCalibration and nothing records what it ran before"), "\(next.stderr)")
        #expect(next.stderr.contains("corsano bracelet repair --plan PLAN"), "\(next.stderr)")
        #expect(!next.stdout.contains("restored"), "\(next.stdout)")
        #expect(try await Self.status(of: server).plan == .nibpCalibration)

        let repair = try Corsano.run(["bracelet", "repair", "--bracelet", server.listening, "--no-state", "--force"])
        #expect(repair.status == 69, "\(repair.stderr)")
        #expect(repair.stderr.contains("corsano bracelet repair --plan PLAN"), "\(repair.stderr)")
        #expect(!repair.stderr.contains("nothing to repair"), "\(repair.stderr)")

        let restore = try Corsano.run(["bracelet", "repair", "--plan", "monitoring", "--bracelet", server.listening,
                                       "--no-state", "--json"])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.contains(#""event":"planRestored""#) && restore.stdout.contains(#""why":"operator""#),
                "\(restore.stdout)")
        #expect(try await Self.status(of: server).plan == BraceletPlan("monitoring"))

        let after = try Corsano.run(["bp-init", "--bracelet", server.listening, "--no-state"] + E.now, stdin: E.sixReadings)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.contains(#""previousPlan":"monitoring""#), "\(after.stdout)")
    }

    /// `--plan nibpCalibration` is not a plan to give back (64), a table rule: before the store (74).
    @Test func repairRefusesTheCalibrationPlanAsAPlan() throws {
        let r = try Corsano.run(["bracelet", "repair", "--plan", "nibpCalibration", "--no-state"])
        #expect(r.status == 64, "\(r.stderr)")
        let unopenable = try Corsano.run(["bracelet", "repair", "--plan", "nibpCalibration", "--state", "/proc/corsano-x/y.db"])
        #expect(unopenable.status == 64, "\(unopenable.stderr)")
        #expect(unopenable.stderr.contains("--plan"), "\(unopenable.stderr)")
    }

    /// Two `--no-state` runs on one served bracelet: while the first holds the calibration plan
    /// (held at measuring), the second exits 75 (busy: waiting fixes it) naming the live holder,
    /// with its JSON error line (`held`: the bridge does not know when its holder ends), and
    /// changes nothing.
    @Test func aSecondRunWithoutAStoreIsToldALiveRunHoldsTheBracelet() async throws {
        let server = try ServedSimulator(.unix, scenario: Scenario(faults: FaultScenario(
            holdAtStep: HoldPoint(flow: "bp-init", step: "measuring"))))
        defer { server.stop() }
        let first = try LiveCorsano(["bp-init", "--bracelet", server.listening, "--no-state", "--cuff", "-"] + E.now, env: [:])
        #expect(try await server.waitUntilHeld())
        let second = try Corsano.run(["bp-init", "--bracelet", server.listening, "--no-state"] + E.now, stdin: E.sixReadings)
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr.contains("held by a live run") && second.stderr.contains("pid \(first.pid)"), "\(second.stderr)")
        #expect(!second.stderr.contains("disconnected"), "\(second.stderr)")
        #expect(E.names(second.lines).isEmpty, "\(second.lines)")
        let error = try #require(E.events(second.lines).first { $0["error"] != nil })
        #expect(error["error"] as? String == "held" && error["status"] as? Int == 75 && error["retryAfter"] == nil, "\(error)")
        #expect(try await Self.status(of: server).plan == .nibpCalibration)
        first.signal(SIGTERM)
        let (status, lines, stderr) = first.finish()
        #expect(status == 143, "\(stderr)")
        #expect(lines.contains { $0.contains(#""event":"planRestored""#) && $0.contains(#""previousPlan":"monitoring""#) })
        #expect(try await Self.status(of: server) == PlanStatus(plan: BraceletPlan("monitoring"), holder: nil))
    }

    /// Two runs on a shared store with a 2 s hold at the instructions step (before any switch):
    /// the second is refused at once (75, retry after the first's lease), the first runs to the end (0).
    @Test func aSecondRunOnASharedStoreIsRefusedBeforeTheSwitch() async throws {
        let server = try ServedSimulator(.unix, scenario: Scenario(faults: FaultScenario(
            holdAtStep: HoldPoint(flow: "bp-init", step: "instructions", seconds: 2))))
        defer { server.stop() }
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let first = try LiveCorsano(["bp-init", "--bracelet", server.listening, "--state", state, "--cuff", "-"] + E.now,
                                    env: [:])
        first.write(E.sixReadings)
        #expect(try await server.waitUntilHeld())
        let second = try Corsano.run(["bp-init", "--bracelet", server.listening, "--state", state] + E.now, stdin: E.sixReadings)
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr.contains("held by a live run of bp-init") && second.stderr.contains("pid \(first.pid)"),
                "\(second.stderr)")
        let error = try #require(E.events(second.lines).first { $0["error"] != nil })
        let retryAfter = try #require((error["retryAfter"] as? String).flatMap(RFC3339.parseInstant), "\(error)")
        #expect(error["error"] as? String == "busy" && error["status"] as? Int == 75)
        #expect(second.stderr.contains("try again after " + RFC3339.format(retryAfter)), "\(second.stderr)")
        let (status, lines, stderr) = first.finish(closingInput: true)
        #expect(status == 0, "\(stderr)")
        #expect(E.result(lines) == #"{"kind":"success","measurementCount":2}"#)
        #expect(try PlanJournal(store: SQLiteStore(path: state)).openEntries().isEmpty)
    }

    /// A lab's gateway killed mid-set: its journal entry holds the bracelet until its lease runs
    /// out. Another gateway is told 75 with `retryAfter` (the lease's end on the store's clock) in
    /// its message and its JSON error line; once that time has passed, the same command repairs
    /// the plan and calibrates (docs/design.md "Plan safety").
    @Test func aBraceletHeldByALiveRunIs75UntilItsLeaseEnds() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let state = try ThrowawayPostgres.shared().createDatabase().uri
        let killed = try LiveCorsano(["bp-init", "--bracelet", server.listening, "--state", state, "--gateway", "gw-a",
                                      "--lease", "4", "--no-preparation", "--cuff", "-"] + E.now, env: [:])
        #expect(killed.waitForLine(containing: #""step":"measuring""#))
        killed.signal(SIGKILL)
        _ = killed.finish()
        #expect(try await Self.holdEnds(server))
        let other = ["bp-init", "--bracelet", server.listening, "--state", state, "--gateway", "gw-b", "--json"] + E.now
        let busy = try Corsano.run(other, stdin: E.sixReadings)
        #expect(busy.status == 75, "\(busy.stderr)")
        #expect(busy.stderr.contains("held by a live run of bp-init (gateway gw-a"), "\(busy.stderr)")
        let error = try #require(E.events(busy.lines).first { $0["error"] != nil }, "\(busy.stdout)")
        let retryAfter = try #require((error["retryAfter"] as? String).flatMap(RFC3339.parseInstant), "\(error)")
        #expect(busy.stderr.contains("try again after " + RFC3339.format(retryAfter)), "\(busy.stderr)")
        #expect(E.names(busy.lines).isEmpty, "nothing started: \(busy.lines)")
        // The lease's end, on the server's clock (here this machine's).
        #expect(Wait.until(seconds: 30) { Date().timeIntervalSince1970 >= Double(retryAfter.secondsSinceEpoch) + 0.2 })
        let after = try Corsano.run(other, stdin: E.sixReadings)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.contains(#""why":"journal""#), "the killed run's plan restored first: \(after.stdout)")
        #expect(E.result(after.lines) == #"{"kind":"success","measurementCount":2}"#)
    }

    enum Store: String, CaseIterable, Sendable { case sqlite, postgres, none }

    /// Ten runs at once on one served bracelet, with a store shared (SQLite file, PostgreSQL
    /// database) or with none: exactly one is admitted (it holds at measuring until stopped),
    /// the nine others exit 75, busy (issue 25 saw 9 of 10 trials admit more than one).
    @Test(arguments: Store.allCases)
    func tenParallelRunsAdmitExactlyOne(store: Store) async throws {
        let server = try ServedSimulator(.unix, scenario: Scenario(faults: FaultScenario(
            holdAtStep: HoldPoint(flow: "bp-init", step: "measuring"))))
        defer { server.stop() }
        let storeArgs: [String]
        switch store {
        case .sqlite: storeArgs = ["--state", try E.directory().appendingPathComponent("state.sqlite3").path]
        case .postgres: storeArgs = ["--state", try ThrowawayPostgres.shared().createDatabase().uri]
        case .none: storeArgs = ["--no-state"]
        }
        let runs = try (0..<10).map { _ in
            try LiveCorsano(["bp-init", "--bracelet", server.listening, "--cuff", "-"] + storeArgs + E.now, env: [:])
        }
        #expect(Wait.until(seconds: 60) { runs.filter { !$0.process.isRunning }.count >= 9 })
        let running = runs.filter { $0.process.isRunning }
        #expect(running.count == 1)
        #expect(try await server.waitUntilHeld())
        for run in runs where !run.process.isRunning {
            let (status, _, stderr) = run.finish()
            #expect(status == 75, "\(stderr)")
            #expect(stderr.contains("held by a live run"), "\(stderr)")
        }
        for run in running {
            run.signal(SIGTERM)
            #expect(run.finish().status == 143)
        }
        #expect(try await Self.status(of: server) == PlanStatus(plan: BraceletPlan("monitoring"), holder: nil))
    }
}

extension BraceletHolderTests {
    /// The special mode the served bracelet runs, asked over a fresh connection.
    static func specialMode(of server: ServedSimulator) async throws -> Int? {
        let client = try await server.client(clock: VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000)))
        defer { client.shutdown() }
        return try await client.simulatorSpecialMode()
    }

    /// A wearing optimization killed with SIGKILL while special mode 4 runs: its journal entry
    /// has the next command that reaches the bracelet stop it (before, it ran on for good).
    @Test func specialModeFourIsStoppedAfterASIGKILL() async throws {
        let server = try ServedSimulator(.unix, scenario: Scenario(profile: ScenarioProfile(FaultMatrixTests.profile)))
        defer { server.stop() }
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let killed = try LiveCorsano(["wearing-opt", "--bracelet", server.listening, "--state", state, "--clock", "real"], env: [:])
        #expect(killed.waitForLine(containing: #""event":"progress""#))
        killed.signal(SIGKILL)
        _ = killed.finish()
        #expect(try await Self.specialMode(of: server) == 4)
        let next = try Corsano.run(["bracelet", "repair", "--bracelet", server.listening, "--state", state])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.stderr.contains("was left in special mode 4 by wearing-opt") && next.stderr.contains("stopped it"),
                "\(next.stderr)")
        #expect(try await Self.specialMode(of: server) == nil)
        #expect(try PlanJournal(store: SQLiteStore(path: state)).openEntries().isEmpty)
    }
}
