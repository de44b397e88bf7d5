import CorsanoKit
import Foundation
import Testing

/// SIGINT/SIGTERM and disconnects at each step of a real `corsano bp-init` process, reached with
/// the simulator's hold-at-step (served, so the test can see the call held) and disconnect-at-step
/// faults (issue 5 "Show").
@Suite struct BPInitSignalTests {
    typealias E = BPInitE2E
    static let steps = ["needsCuffPairing", "instructions", "measuring", "measurementRecorded", "retryPrompt"]

    /// needsCuffPairing is only entered when no cuff is paired.
    static func extra(_ step: String) -> [String] { step == "needsCuffPairing" ? ["--cuff-paired-cmd", "false"] : [] }

    /// A scenario refusing attempt 1 (so retryPrompt is reached) with `fault` added.
    static func scenario(_ dir: URL, fault: String) throws -> String {
        try E.file(dir, "scenario.json", #"{"nibp":{"attempts":[{"session":false}]},"faults":{"# + fault + "}}")
    }

    /// The run is signalled once the served bracelet says a call is held at `step` (not merely
    /// once the step's event is out, which is written just before the held call).
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))].flatMap { signal in steps.map { (signal.0, signal.1, $0) } })
    func signalAtHeldStepCancelsWithPlanRestored(signo: Int32, status: Int32, step: String) async throws {
        let server = try ServedSimulator(.unix, scenario: Scenario(
            nibp: NIBPScenario(attempts: [NIBPAttemptScript(session: false)]),
            faults: FaultScenario(holdAtStep: HoldPoint(flow: "bp-init", step: step))))
        defer { server.stop() }
        let dir = try E.directory()
        let cuff = try E.file(dir, "cuff.jsonl", E.sixReadings)
        let state = dir.appendingPathComponent("state.sqlite3").path
        let live = try LiveCorsano(["bp-init", "--bracelet", server.listening, "--cuff", cuff, "--state", state]
                                   + E.now + Self.extra(step), env: [:])
        let observer = try await server.client(clock: VirtualClock(start: Instant(secondsSinceEpoch: 0)))
        defer { observer.shutdown() }
        try await BraceletEndToEndTests.within(30) { try await observer.simulatorWaitUntilHeld() }
        #expect(live.waitForLine(containing: #""step":"\#(step)""#))
        // The plan was switched after instructions: restored, and the journal entry cleared.
        let switched = !["needsCuffPairing", "instructions"].contains(step)
        #expect(try await observer.currentPlan() == (switched ? .nibpCalibration : BraceletPlan("monitoring")))
        live.signal(signo)
        let (exit, lines, stderr) = live.finish()
        #expect(exit == status, "\(stderr)")
        #expect(E.result(lines) == #"{"kind":"cancelledByUser"}"#)
        #expect(E.names(lines).suffix(2) == ["readings", "finished"])
        #expect(lines.contains { $0.contains(#""event":"planRestored""#) } == switched)
        if switched { #expect(E.names(lines).suffix(3).first == "planRestored") }
        #expect(E.steps(lines).last == step)
        #expect(try await BPInitServedTests.plan(of: server) == BraceletPlan("monitoring"))
        #expect(try PlanJournal(store: SQLiteStore(path: state)).openEntries().isEmpty)
        let history = try Corsano.run(["history", "--json", "--state", state])
        #expect(history.stdout.contains(#""result":{"kind":"cancelledByUser"}"#))
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalWhileWaitingForTheCuffCancels(signo: Int32, status: Int32) throws {
        let live = try LiveCorsano(["bp-init", "--no-state"] + E.now, env: [:])
        #expect(live.waitForLine(containing: #""step":"measuring""#))
        #expect(live.waitUntilReadingInput(), "bp-init never waited on its standard input for the cuff")
        live.signal(signo)
        let (exit, lines, _) = live.finish()
        #expect(exit == status)
        #expect(E.result(lines) == #"{"kind":"cancelledByUser"}"#)
        #expect(lines.contains { $0.contains(#""event":"planRestored""#) })
    }

    @Test func signalWhileTheCuffCommandRunsEndsItToo() throws {
        let reported = try E.directory().appendingPathComponent("pgid").path
        let live = try LiveCorsano(["bp-init", "--no-state", "--cuff-cmd", E.lingeringCuffCommand(reportingTo: reported)], env: [:])
        #expect(live.waitForLine(containing: #""step":"measuring""#))
        let pgid = try #require(E.reportedGroup(reported), "the cuff command never ran")
        #expect(getpgid(pgid) == pgid, "the cuff command leads a process group of its own")
        live.signal(SIGINT)
        let (exit, lines, _) = live.finish()
        #expect(exit == 130)
        #expect(E.result(lines) == #"{"kind":"cancelledByUser"}"#)
        // The command's process group was terminated with the flow: nothing it started lives on.
        E.expectGone(group: pgid)
    }

    /// At the terminal screens the calibration has concluded and the plan is restored: a
    /// disconnect there leaves the result as it was (seed: cancelling is "before it concluded").
    @Test func disconnectAtTerminalScreenKeepsTheResult() throws {
        let dir = try E.directory()
        let success = try E.file(dir, "s.json", #"{"faults":{"disconnectAtStep":{"step":"finalSuccess"}}}"#)
        let r = try Corsano.run(["bp-init", "--bracelet", "sim:" + success] + E.now + ["--no-state"], stdin: E.sixReadings)
        #expect(r.status == 0)
        #expect(E.result(r.lines) == #"{"kind":"success","measurementCount":2}"#)
        let failure = try E.file(dir, "f.json", #"{"nibp":{"attempts":[{"session":false}]},"faults":{"disconnectAtStep":{"step":"finalFailure"}}}"#)
        let f = try Corsano.run(["bp-init", "--bracelet", "sim:" + failure, "--max-attempts", "1"] + E.now + ["--no-state"],
                                stdin: E.sixReadings)
        #expect(f.status == 1)
        #expect(E.result(f.lines) == #"{"attemptCount":1,"kind":"failedAfterRetries"}"#)
    }

    @Test func disconnectWhileFeedingIsBraceletDisconnected() throws {
        let dir = try E.directory()
        let scenario = try Self.scenario(dir, fault: #""disconnectAtMeasurement":{"index":2}"#)
        let r = try Corsano.run(["bp-init", "--bracelet", "sim:" + scenario] + E.now + ["--no-state"], stdin: E.sixReadings)
        #expect(r.status == 4)
        #expect(E.collected(r.lines) == [[1, 1, 119]])
    }
}
