import Foundation
import Testing

/// Committed snapshot files compared with what the code produces now. With
/// `CORSANO_RECORD_SNAPSHOTS=1` the file is rewritten and the test FAILS naming it (as
/// swift-argument-parser's snapshot helpers do): a recording run never passes, so a variable
/// left set in some environment cannot turn the suite green.
enum Snapshot {
    static let variable = "CORSANO_RECORD_SNAPSHOTS"

    /// True when the environment asks for re-recording (any value but empty or `0`).
    static var recording: Bool {
        guard let value = ProcessInfo.processInfo.environment[variable] else { return false }
        return !value.isEmpty && value != "0"
    }

    /// The path shown in messages: relative to the package root when inside it.
    static func shown(_ file: URL) -> String {
        let root = Corsano.packageRoot.standardizedFileURL.path + "/"
        let path = file.standardizedFileURL.path
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    /// Expects `actual` to equal the committed `file`; when recording, writes `actual` to `file`
    /// and records an issue naming it. `rerun` is the command that re-records this snapshot.
    /// - Throws: when the file cannot be written while recording.
    static func expect(_ actual: String, equals file: URL, rerun: String,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        if recording {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: file)
            Issue.record("recorded \(shown(file)) (\(variable) is set): review the diff, then run again without \(variable)",
                         sourceLocation: sourceLocation)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("\(shown(file)) is missing: record it with \(variable)=1 \(rerun)", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "\(shown(file)) differs: re-record with \(variable)=1 \(rerun) and review the diff",
                sourceLocation: sourceLocation)
    }
}
