import Foundation
import Testing

/// The interactive REPL in a real terminal (tmux): completion, history, Control-C, Control-D.
@Suite(.serialized) struct REPLTerminalTests {
    @Test func tabCompletesHyphenatedCommandsFlagsAndValues() throws {
        let term = try Tmux.repl()
        // Keys typed, then the line they complete to. capture-pane drops trailing blanks: the word
        // typed after a completion shows the space readline appended.
        let steps: [(keys: [String], line: String)] = [
            (["bp-", "Tab"], "corsano> bp-init"),
            (["--cl", "Tab"], "corsano> bp-init --clock"),
            (["v", "Tab", "--max-a", "Tab"], "corsano> bp-init --clock virtual --max-attempts"),
            (["C-u", "cuff ", "Tab", "i", "Tab", "--fr", "Tab", "j", "Tab", "."], "corsano> cuff ingest --from jsonl ."),  // --f: --from or --format
            (["C-u", "completion z", "Tab", "#"], "corsano> completion zsh #"),
        ]
        for step in steps {
            try term.send(keys: step.keys)
            try term.waitFor(step.line)
        }
    }

    @Test func tabCompletesFilePathsForPathOptions() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-tab-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data().write(to: dir.appendingPathComponent("readings-unique.jsonl"))
        let term = try Tmux.repl()
        try term.send("replay-filter \(dir.path)/readings-u", "Tab", "#")
        try term.waitFor("\(dir.path)/readings-unique.jsonl #")
    }

    @Test func controlCClearsTheLineAndControlDQuits() throws {
        let term = try Tmux.repl()
        try term.send("cuff add 120/80 72")
        try term.waitFor("corsano> cuff add 120/80 72")
        try term.send("C-c")
        try term.waitFor("a fresh prompt after ^C") { $0.hasSuffix("^C\ncorsano>") }
        try term.send("status", "Enter")
        try term.waitFor("queued    no cuff readings")  // the cleared line never ran
        try term.send("C-d")
        try term.waitFor("[exited 0]")
    }

    @Test func historySurvivesARestart() throws {
        let first = try Tmux.repl()
        try first.queue("131/85 70")
        try first.send("quit", "Enter")
        try first.waitFor("[exited 0]")
        let history = try String(contentsOf: first.stateHome.appendingPathComponent("corsano/history"), encoding: .utf8)
        #expect(history.contains("cuff add 131/85 70"))

        let second = try Tmux.repl(stateHome: first.stateHome)
        try second.send("Up", "Up")
        try second.waitFor("corsano> cuff add 131/85 70")
    }

    @Test func bareCorsanoOnATerminalOpensTheShell() throws {
        let term = try Tmux([])
        try term.waitFor("corsano>")
        try term.send("help", "Enter")
        try term.waitFor("  cuff add           Queue a cuff reading for the next flow.")
        try term.send("quit", "Enter")
        try term.waitFor("[exited 0]")
    }
}
