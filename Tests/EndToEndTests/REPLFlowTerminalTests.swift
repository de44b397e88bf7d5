import CorsanoKit
import Foundation
import Testing

/// Flows inside the interactive REPL (tmux): the `cuff add` queue and typed readings feed
/// bp-init; Control-C during a held flow cancels it, restores the served bracelet's plan, and
/// returns to the prompt.
@Suite(.serialized) struct REPLFlowTerminalTests {
    @Test func cuffAddQueueAndTypedReadingFeedBpInit() throws {
        let term = try Tmux.repl()
        try term.queue("120/80 72", waiting: 1)
        try term.send("bp-init --no-preparation", "Enter")
        // The queued reading is measurement 1; the flow then waits at its cuff prompt.
        try term.waitFor("Systolic 120 mmHg, diastolic 80 mmHg, pulse 72 bpm (typed in)")
        try term.waitFor("cuff> prompt for measurement 2") { $0.contains("Measurement 2, attempt 1") && $0.hasSuffix("cuff (120/80 72)>") }
        try term.send("122/81 70", "Enter")
        let screen = try term.waitFor("the prompt after the flow") { $0.contains("Result: calibrated, measurements: 2") && $0.hasSuffix("corsano>") }
        #expect(screen.contains("- Measurement 1, attempt 1: 120/80 mmHg, pulse 72 bpm (accepted)"))
        #expect(screen.contains("- Measurement 2, attempt 1: 122/81 mmHg, pulse 70 bpm (accepted)"))
        #expect(!screen.contains("[exit status"))
        try term.send("status", "Enter")
        try term.waitFor("queued    no cuff readings")  // the flow took the queue
    }

    @Test func controlCDuringAHeldFlowRestoresThePlanAndKeepsTheShell() async throws {
        let scenario = Scenario(faults: FaultScenario(holdAtStep: HoldPoint(flow: "bp-init", step: "measuring", occurrence: 2)))
        let server = try ServedSimulator(.unix, scenario: scenario)
        defer { server.stop() }
        let term = try Tmux.repl()
        try term.send("connect \(server.listening)", "Enter")
        try term.waitFor("connected to \(server.listening): model 287-2")
        try term.send("cuff add 120/80 72", "Enter", "bp-init --no-preparation", "Enter")
        try term.waitFor("the flow held at measurement 2") { $0.contains("Measurement 2, attempt 1") && $0.hasSuffix("cuff (120/80 72)>") }
        let held = try await plan(of: server)
        let heldScreen = try term.screen()
        #expect(held == .nibpCalibration, "screen:\n\(heldScreen)")

        try term.send("C-c")
        // The prompt names the bracelet `connect` reached.
        let screen = try term.waitFor("the prompt after Control-C") { $0.contains("[exit status 130]") && $0.hasSuffix("corsano [SIM-287-0001]>") }
        #expect(screen.contains("The bracelet's previous plan (monitoring) was restored."))
        #expect(screen.contains("Result: cancelled"))
        #expect(try await plan(of: server) == BraceletPlan("monitoring"))
        try term.send("status", "Enter")
        try term.waitFor("plan      monitoring")
        try term.send("quit", "Enter")
        try term.waitFor("[exited 0]")
    }

    @Test func sigtermDuringAHeldFlowRestoresThePlanAndExits143() async throws {
        let scenario = Scenario(faults: FaultScenario(holdAtStep: HoldPoint(flow: "bp-init", step: "measuring")))
        let server = try ServedSimulator(.unix, scenario: scenario)
        defer { server.stop() }
        let term = try Tmux.repl(["--bracelet", server.listening])
        try term.send("bp-init --no-preparation", "Enter")
        try term.waitFor("the flow held at measurement 1") { $0.contains("Measurement 1, attempt 1") && $0.hasSuffix("cuff (120/80 72)>") }
        let pid = try #require(try term.programID())
        kill(pid, SIGTERM)
        let screen = try term.waitFor("[exited 143]")
        #expect(screen.contains("The bracelet's previous plan (monitoring) was restored."))
        #expect(try await plan(of: server) == BraceletPlan("monitoring"))
    }

    @Test func sigtermAtThePromptExits143() throws {
        let term = try Tmux.repl()
        try term.send("half typed")
        try term.waitFor("corsano> half typed")
        kill(try #require(try term.programID()), SIGTERM)
        try term.waitFor("[exited 143]")
    }

    @Test func controlCCancelsAFlowThatIsNotAskingForInput() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-hold-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let scenario = dir.appendingPathComponent("hold.json")
        try Data(#"{"faults":{"holdAtStep":{"flow":"bp-init","step":"measuring"}}}"#.utf8).write(to: scenario)
        let term = try Tmux.repl()
        try term.send("bp-init --no-preparation --cuff /dev/null --bracelet sim:\(scenario.path)", "Enter")
        try term.waitFor("Waiting for the cuff reading")
        try term.send("C-c")
        let screen = try term.waitFor("the prompt after Control-C") { $0.contains("[exit status 130]") && $0.hasSuffix("corsano>") }
        #expect(screen.contains("\nThe bracelet's previous plan (monitoring) was restored.\n"))
        #expect(screen.contains("Result: cancelled"))
        try term.queue("120/80 72")
    }

    /// The plan the served bracelet holds, asked over a fresh connection.
    private func plan(of server: ServedSimulator) async throws -> BraceletPlan {
        let r = try Corsano.run(["repl", "--no-state"], stdin: "status --bracelet \(server.listening)\n")
        let reply = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(reply?["reply"] as? String == "status", "status: \(r.stdout) \(r.stderr)")
        return BraceletPlan(reply?["plan"] as? String ?? "")
    }
}
