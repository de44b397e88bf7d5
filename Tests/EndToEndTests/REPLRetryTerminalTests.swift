import Foundation
import Testing

/// The retry question inside the REPL: on a terminal a rejected attempt asks "Start another
/// attempt?" through the line editor (answering n cancels the flow, the shell stays); a scripted
/// session (stdin not a terminal) retries without asking.
@Suite(.serialized) struct REPLRetryTerminalTests {
    /// A simulator scenario whose attempt 1 is rejected (docs/scenario.md `nibp.attempts`).
    private func rejectedFirstAttempt() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-retry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let scenario = dir.appendingPathComponent("reject-1.json")
        try Data(#"{"nibp":{"attempts":[{"session":false}]}}"#.utf8).write(to: scenario)
        return "sim:" + scenario.path
    }

    @Test func aRejectedAttemptAsksAndNoCancels() throws {
        let bracelet = try rejectedFirstAttempt()
        let term = try Tmux.repl(["--bracelet", bracelet])
        try term.queue("120/80 72", waiting: 1)
        try term.queue("122/81 70", waiting: 2)
        try term.send("bp-init --no-preparation", "Enter")
        let asked = try term.waitFor("the retry question") { $0.hasSuffix("Start another attempt? [y/n]") }
        #expect(asked.contains("Systolic 122 mmHg, diastolic 81 mmHg, pulse 70 bpm (typed in)"))
        try term.send("n", "Enter")
        let screen = try term.waitFor("the prompt after declining") { $0.contains("[exit status 130]") && $0.hasSuffix("corsano>") }
        #expect(screen.contains("Start another attempt? [y/n] n\n"))
        #expect(screen.contains("Result: cancelled"))
        #expect(screen.contains("The bracelet's previous plan (monitoring) was restored."))
        try term.queue("118/79 66", waiting: 1)
    }

    @Test func aScriptedSessionRetriesWithoutAsking() throws {
        let bracelet = try rejectedFirstAttempt()
        let script = (["cuff add 120/80 72", "cuff add 122/81 70", "cuff add 121/80 71", "cuff add 119/79 69",
                       "bp-init --no-preparation --json"]).joined(separator: "\n") + "\n"
        let r = try Corsano.run(["repl", "--no-state", "--bracelet", bracelet], stdin: script)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!r.stdout.contains("Start another attempt"))
        #expect(r.stdout.contains(#""result":{"kind":"success","measurementCount":2}"#), "stdout: \(r.stdout)")
        #expect(r.stdout.contains(#""attempt":2,"succeeded":true"#), "stdout: \(r.stdout)")
    }
}
