import Foundation
import Testing

/// Issue 23: a REPL line is parsed once, and the session's store and bracelet reach the command as
/// typed overrides, never as words appended to the line (which `--` turned into operands: the
/// session's `--no-state` became a file to read).
@Suite struct REPLOverridesTests {
    @Test func theSessionsStoreIsNoWordAfterDoubleDash() throws {
        let (dir, empty) = try GlobalOptionsTests.directoryWithEmptyFile("readings.jsonl")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Corsano.run(["repl", "--bail", "--no-state"], stdin: "replay-filter --now 2026-11-29T10:00:00Z -- \(empty)\nquit\n", cwd: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("--no-state"))
        // The session's --state FILE likewise: the store is the session's, not a file operand.
        let state = dir.appendingPathComponent("state.sqlite3").path
        let s = try Corsano.run(["repl", "--bail", "--state", state], stdin: "replay-filter --now 2026-11-29T10:00:00Z -- \(empty)\n", cwd: dir)
        #expect(s.status == 0, "\(s.stderr)")
        #expect(FileManager.default.fileExists(atPath: state))
    }
}
