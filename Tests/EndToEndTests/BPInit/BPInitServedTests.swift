import CorsanoKit
import Foundation
import Testing
import TestSupport

/// bp-init against `corsano bracelet serve` over a real unix socket: a run on the real clock.
/// (Signals at each held step, with the served plan checked: BPInitSignalTests.)
@Suite struct BPInitServedTests {
    typealias E = BPInitE2E

    /// The plan the served bracelet holds now, asked over a fresh connection.
    static func plan(of server: ServedSimulator) async throws -> BraceletPlan {
        let client = try await server.client(clock: VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000)))
        let plan = try await client.currentPlan()
        await client.close()
        return plan
    }

    @Test func realClockRunOverTheBridge() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        // Stamped a few seconds after now in real time: within the backdate and max-age rules.
        let now = Date()
        let stamp = { (offset: Double) in ISO8601DateFormatter().string(from: now.addingTimeInterval(offset)) }
        let cuff = #"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"\#(stamp(5))"}"# + "\n"
            + #"{"systolic":124,"diastolic":80,"pulse":66,"measuredAt":"\#(stamp(10))"}"# + "\n"
        let r = try Corsano.run(["bp-init", "--bracelet", server.listening, "--clock", "real", "--no-state"], stdin: cuff)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(E.result(r.lines) == #"{"kind":"success","measurementCount":2}"#)
        // Real time: the events carry wall-clock stamps, not the readings' (no virtual jump).
        let started = E.events(r.lines).first?["at"] as? String ?? ""
        #expect(started.hasPrefix(String(stamp(0).prefix(15))))
        #expect(try await Self.plan(of: server) == BraceletPlan("monitoring"))
        let withNow = try Corsano.run(["bp-init", "--bracelet", server.listening, "--clock", "real", "--now",
                                       "2026-11-29T10:00:00Z", "--no-state"], stdin: cuff)
        #expect(withNow.status == 64)
    }
}

/// A second signal exits at once even while the first one's clean-up hangs; the plan journal
/// then repairs the bracelet at the next command that reaches it (docs/design.md "Plan safety").
@Suite struct BPInitSecondSignalTests {
    typealias E = BPInitE2E

    @Test func secondSignalExitsAtOnceAndTheJournalRepairsLater() async throws {
        let scenario = Scenario(faults: FaultScenario(holdAtStep: HoldPoint(flow: "bp-init", step: "measuring")))
        let server = try ServedSimulator(.unix, scenario: scenario)
        defer { kill(server.process.processIdentifier, SIGCONT); server.stop() }  // SIGTERM waits while stopped
        let dir = try E.directory()
        let cuff = try E.file(dir, "cuff.jsonl", E.ingestedSession)
        let state = dir.appendingPathComponent("state.sqlite3").path
        let live = try LiveCorsano(["bp-init", "--bracelet", server.listening, "--cuff", cuff, "--state", state] + E.now,
                                   env: [:])
        #expect(live.waitForLine(containing: #""step":"measuring""#))
        // The bridge stops answering: the restore after the first SIGINT waits on its request.
        try await server.suspend()
        let socket = String(server.listening.dropFirst("unix:".count))
        let before = try #require(ProcessProbe.unreadOnUnixSocket(path: socket), "ss -x could not be run")
        live.signal(SIGINT)
        #expect(live.waitUntilDelivered(SIGINT))
        // The first signal's clean-up is under way and stuck: its restore request waits unread.
        #expect(Wait.until { (ProcessProbe.unreadOnUnixSocket(path: socket) ?? 0) > before },
                "the restore request never reached the stopped server")
        live.signal(SIGINT)
        let (exit, lines, _) = live.finish()
        #expect(exit == 130)
        // Had it waited for the restore (10 s request timeout, then a disconnect), the flow would
        // have ended and written readings and finished.
        #expect(!E.names(lines).contains("readings"))
        #expect(!E.names(lines).contains("finished"))
        // Nothing restored the plan from this process: the journal entry is still open.
        #expect(try PlanJournal(store: SQLiteStore(path: state)).openEntries().map(\.previousPlan) == [BraceletPlan("monitoring")])
        kill(server.process.processIdentifier, SIGCONT)
    }

    @Test func runKilledMidFlowIsRepairedByTheNextRun() async throws {
        let scenario = Scenario(faults: FaultScenario(holdAtStep: HoldPoint(flow: "bp-init", step: "measurementRecorded")))
        let server = try ServedSimulator(.unix, scenario: scenario)
        defer { server.stop() }
        let dir = try E.directory()
        let cuff = try E.file(dir, "cuff.jsonl", E.ingestedSession)
        let state = dir.appendingPathComponent("state.sqlite3").path
        let args = ["bp-init", "--bracelet", server.listening, "--state", state] + E.now
        let killed = try LiveCorsano(args + ["--cuff", cuff], env: [:])
        #expect(killed.waitForLine(containing: #""step":"measurementRecorded""#))
        killed.signal(SIGKILL)
        _ = killed.finish()
        #expect(try await BPInitServedTests.plan(of: server) == .nibpCalibration)
        // The next run repairs first (planRestored why=journal, a notice on stderr), then runs out
        // of cuff input at its first measurement (before the held step) and restores its own switch.
        let next = try Corsano.run(args + ["--cuff", "/dev/null"])
        #expect(next.status == 3)
        let restores = next.lines.filter { $0.contains(#""event":"planRestored""#) }
        #expect(restores.count == 2)
        #expect(restores.first?.contains(#""why":"journal""#) == true)
        #expect(next.stderr.contains("restored plan monitoring"))
        #expect(try await BPInitServedTests.plan(of: server) == BraceletPlan("monitoring"))
        #expect(try PlanJournal(store: SQLiteStore(path: state)).openEntries().isEmpty)
        let history = try Corsano.run(["history", "--text", "--state", state])
        // The repair appended the record that the killed run's plan was restored.
        #expect(history.stdout.contains("Result: killed; plan monitoring restored at "), "\(history.stdout)")
        #expect(history.stdout.contains("128/82 mmHg, pulse 66 bpm  accepted"))
    }
}
