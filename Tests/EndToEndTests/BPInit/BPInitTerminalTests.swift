import Foundation
import Testing

/// `bp-init` with a terminal on stdin and stdout (a tmux pane): human text instead of JSON, Enter
/// to start, typed readings, the retry question. Each line is typed once the screen shows the
/// prompt that asks for it.
@Suite struct BPInitTerminalTests {
    typealias E = BPInitE2E
    static let start = "Press Enter to start, Ctrl-C to cancel."
    static let reading = "Type the reading as systolic/diastolic pulse (for example 120/80 72):"

    /// `corsano ARGS` in a tmux pane, in the C locale on a dumb terminal.
    static func onTerminal(_ args: [String]) throws -> Tmux {
        try Tmux(args, env: ["LANG": "C", "NO_COLOR": "1", "TERM": "dumb"])
    }

    @Test func fixtureSessionPrintsTextScreens() throws {
        let dir = try E.directory()
        let cuff = try E.file(dir, "cuff.jsonl", E.ingestedSession)
        let term = try Self.onTerminal(["bp-init", "--cuff", cuff, "--no-state"] + E.now)
        try term.answer(Self.start, with: "")
        let status = try term.exitStatus()
        let text = try term.transcript().joined(separator: "\n")
        #expect(status == 0, "\(text)")
        #expect(text.contains("Press START on the BP cuff monitor."))
        #expect(text.contains("Calibration complete"))
        #expect(text.contains("128/82 mmHg, pulse 66 bpm (accepted)"))
        #expect(!text.contains(#""event""#))
    }

    @Test func typedReadingsAreManualEntries() throws {
        let term = try Self.onTerminal(["bp-init", "--no-state", "--json"])
        try term.answer(Self.start, with: "")
        try term.answer(Self.reading, with: "120/80 72")
        try term.answer(Self.reading, with: "12O/80")
        try term.waitFor("corsano: Not understood. Type systolic/diastolic pulse, for example 120/80 72.")
        try term.answer(Self.reading, with: "122/81 70")
        let status = try term.exitStatus()
        let text = try term.transcript().joined(separator: "\n")
        #expect(status == 0, "\(text)")
        #expect(text.contains(#""isManualEntry":true"#))
        #expect(text.contains(#""result":{"kind":"success","measurementCount":2}"#))
    }

    @Test func decliningTheRetryIsCancelledByUser() throws {
        let dir = try E.directory()
        let scenario = try E.file(dir, "s.json", #"{"nibp":{"attempts":[{"session":false}]}}"#)
        let term = try Self.onTerminal(["bp-init", "--bracelet", "sim:" + scenario, "--no-state", "--text"])
        try term.answer(Self.start, with: "")
        try term.answer(Self.reading, with: "120/80 72")
        try term.answer(Self.reading, with: "122/81 70")
        try term.answer("Start another attempt? [y/n]", with: "n")
        let status = try term.exitStatus()
        let text = try term.transcript().joined(separator: "\n")
        #expect(status == 130, "\(text)")
        #expect(text.contains("Result: cancelled"))
    }
}
