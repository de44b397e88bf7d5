import Foundation
import Testing

/// The REPL as a person meets it (point 1), in tmux: `cuff add` words at `cuff>`,
/// no command completion there, separate histories, the bracelet in the prompt, `source FILE`,
/// and only JSON lines on a standard output that is no terminal.
@Suite(.serialized) struct REPLSessionTerminalTests {
    @Test func cuffPromptTakesCuffAddWordsCompletesNothingAndKeepsItsOwnHistory() throws {
        let term = try Tmux.repl()
        try term.send("bp-init --no-preparation", "Enter")
        try term.waitFor("cuff> for measurement 1") { $0.contains("Measurement 1, attempt 1") && $0.hasSuffix("cuff (120/80 72)>") }
        // TAB offers nothing at cuff> (it offered the top-level commands): the # typed after
        // the TABs lands right after "bp".
        try term.send("bp", "Tab", "Tab", "#")
        let afterTab = try term.waitFor("cuff> bp#") { $0.hasSuffix("cuff (120/80 72)> bp#") }
        #expect(afterTab.components(separatedBy: "bp-init").count == 2, "screen:\n\(afterTab)")
        try term.send("C-u", "status", "Enter")
        try term.waitFor("'status' cannot run while the flow runs: type a reading like 120/80 72")
        // The syntax the error messages suggest works at cuff> too.
        try term.send("cuff add 128/82 72", "Enter")
        try term.waitFor("Systolic 128 mmHg, diastolic 82 mmHg, pulse 72 bpm (typed in)")
        try term.waitFor("cuff> for measurement 2") { $0.contains("Measurement 2, attempt 1") && $0.hasSuffix("cuff (120/80 72)>") }
        // Up at cuff> recalls readings, never commands...
        try term.send("Up")
        try term.waitFor("the reading recalled") { $0.hasSuffix("cuff (120/80 72)> cuff add 128/82 72") }
        try term.send("C-u", "124/80 70", "Enter")
        try term.waitFor("the prompt after the flow") { $0.contains("Result: calibrated, measurements: 2") && $0.hasSuffix("corsano>") }
        // ... and Up at corsano> recalls commands, never readings.
        try term.send("Up")
        try term.waitFor("the command recalled") { $0.hasSuffix("corsano> bp-init --no-preparation") }
        try term.send("C-u", "quit", "Enter")
        try term.waitFor("[exited 0]")
        let history = try String(contentsOf: term.stateHome.appendingPathComponent("corsano/history"), encoding: .utf8)
        #expect(history == "bp-init --no-preparation\nquit\n")
    }

    @Test func thePromptNamesTheBraceletAndSourceRunsAFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let script = dir.appendingPathComponent("queue.repl")
        try Data("# two readings and a typo\nconnect sim\ncuff add 128/82 72\ncuff add 80/120 72\ncuff add 124/80 70\n".utf8).write(to: script)
        let term = try Tmux.repl()
        try term.send("source \(script.path)", "Enter")
        try term.waitFor("queue.repl:4: cuff add: systolic: 80 mmHg not above")
        let screen = try term.waitFor("the prompt naming the bracelet") { $0.hasSuffix("[exit status 1]\ncorsano [SIM-287-0001]>") }
        #expect(screen.contains("queued 124/80 70 (manual) (2 waiting for the next bp-init)"))
        try term.send("bp-init --no-preparation", "Enter")
        try term.waitFor("the flow fed from the sourced queue") {
            $0.contains("Result: calibrated, measurements: 2") && $0.hasSuffix("corsano [SIM-287-0001]>")
        }
    }

    @Test func aStandardOutputThatIsNoTerminalCarriesOnlyJSONLines() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-repl-out-\(UUID().uuidString).jsonl")
        let term = try Tmux.repl(stdout: out)  // the prompt is on standard error, the terminal
        try term.send("cuff add 120/80 72", "Enter", "help status", "Enter")
        try term.waitFor("usage: corsano status")
        try term.send("status", "Enter", "frobnicate", "Enter", "quit", "Enter")
        let screen = try term.waitFor("[exited 1]") { $0.contains("[exited ") }
        #expect(screen.contains("corsano: unknown command 'frobnicate'; try 'help'"))
        #expect(!screen.contains(#"{"reply""#))
        let lines = try String(contentsOf: out, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.withoutEnteredAt == #"{"reply":"cuff-add","reading":{"systolic":120,"diastolic":80,"pulse":72,"isManualEntry":true},"queued":1}"#)
        #expect(lines.last?.hasPrefix(#"{"reply":"status","bracelet":{"serial":"SIM-287-0001","model":"287-2","firmware":"7.4"},"plan":"monitoring""#) == true)
    }
}
