import Foundation
import Testing

/// At a terminal, one Control-D at the start of a line ends `cuff ingest`'s input, as the note it
/// prints says ("then Control-D on a line of its own to end"): the terminal's end is read once
/// and kept, never asked for a second time (a pty in tmux).
@Suite(.serialized) struct TerminalEndOfInputTests {
    @Test func cuffIngestWithNothingTypedEndsOnOneControlD() throws {
        let ingest = try Tmux(["cuff", "ingest"])
        try ingest.waitFor("corsano: cuff ingest: reading standard input (the terminal)")
        try ingest.send("C-d")
        let screen = try ingest.waitFor("[exited 0]")
        #expect(screen.contains("corsano: cuff ingest: read 0, written 0"), "\(screen)")
    }
}
