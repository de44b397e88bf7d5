import Foundation
import Testing

/// A new user's mistakes at a terminal (point 3), in tmux: near misses are named,
/// the filters say they read the terminal and how to end it, a CSV fed to bp-init says what
/// to put in front, and the two filters close with counts of one shape.
@Suite(.serialized) struct MistakesTerminalTests {
    @Test func cuffIngestAndReplayFilterSayTheyReadTheTerminal() throws {
        let ingest = try Tmux(["cuff", "ingest"])
        try ingest.waitFor("corsano: cuff ingest: reading standard input (the terminal): type or paste the records, then Control-D")
        try ingest.send(#"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:15:00Z"}"#, "Enter", "C-d")
        let screen = try ingest.waitFor("[exited 0]")
        #expect(screen.contains("corsano: cuff ingest: read 1, written 1, skipped 0, dropped 0, rejected 0"))

        let filter = try Tmux(["replay-filter", "--no-state", "--now", "2026-11-29T10:20:00Z"])
        try filter.waitFor("corsano: replay-filter: reading standard input (the terminal)")
        try filter.send(#"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:15:00Z"}"#, "Enter", "not json", "Enter", "C-d")
        let counts = try filter.waitFor("[exited 65]")
        // One shape: prefix, read, written, set aside by reason, rejected.
        #expect(counts.contains("corsano: replay-filter: read 2, written 1, skipped 0, dropped 0, rejected 1"))
    }

    @Test func nearMissesAreNamedOnTheCommandLineAndInTheREPL() throws {
        let cli = try Tmux(["bp-int"])
        let screen = try cli.waitFor("[exited 64]")
        #expect(screen.contains("corsano: unknown command 'bp-int'; did you mean 'bp-init'? try 'corsano --help'"))
        let repl = try Tmux.repl()
        try repl.send("bp-init --treshold 12", "Enter")
        try repl.waitFor("corsano: bp-init: unknown option '--treshold'; did you mean '--threshold'? try 'help bp-init'")
    }

    @Test func aCSVFedToBpInitSaysToPipeItThroughCuffIngest() throws {
        let csv = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-mistake-\(UUID().uuidString).csv")
        try Data("Date,Time,SYS,DIA,Pulse\n2026-11-29,10:00,120,80,70\n".utf8).write(to: csv)
        let term = try Tmux(["bp-init", "--no-state", "--no-preparation", "--cuff", csv.path])
        try term.waitFor("Press Enter to start")
        try term.send("Enter")
        try term.waitFor("[exited 3]")
        // At a terminal diagnostics are wrapped at spaces to its width (piped, they are one line
        // each, for scripts): the rows joined by a space give the message back.
        let screen = try term.transcript().joined(separator: " ")
        #expect(screen.contains("corsano: \(csv.path) looks like a CSV cuff export, not reading lines; pipe it through cuff ingest first:"))
    }
}
