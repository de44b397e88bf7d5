import Foundation
import Testing
import TestSupport

/// Shared inputs and readers of the bp-init end-to-end tests.
enum BPInitE2E {
    /// jsonl/session-replay.jsonl as `cuff ingest --anchor-device 2025-01-01T00:03:10
    /// --anchor-phone 2026-11-29T10:00:05Z` writes it (docs/design.md "Readings").
    static let ingestedSession = """
        {"systolic":133,"diastolic":86,"pulse":71,"measuredAt":"2026-11-27T18:11:55Z","deviceTime":"2024-12-30T08:15:00","isManualEntry":false}
        {"systolic":126,"diastolic":84,"pulse":69,"measuredAt":"2026-11-29T05:36:55Z","deviceTime":"2024-12-31T19:40:00","isManualEntry":false}
        {"systolic":128,"diastolic":82,"pulse":66,"measuredAt":"2026-11-29T10:00:55Z","deviceTime":"2025-01-01T00:04:00","isManualEntry":false}
        {"systolic":128,"diastolic":82,"pulse":66,"measuredAt":"2026-11-29T10:00:55Z","deviceTime":"2025-01-01T00:04:00","isManualEntry":false}
        {"systolic":124,"diastolic":80,"pulse":64,"measuredAt":"2026-11-29T10:02:55Z","deviceTime":"2025-01-01T00:06:00","isManualEntry":false}

        """
    static let now = ["--now", "2026-11-29T10:00:30Z"]

    /// Six plausible readings a minute apart from 10:01, enough for three attempts.
    static let sixReadings = (1...6).map { i in
        #"{"systolic":\#(118 + i),"diastolic":80,"pulse":70,"measuredAt":"2026-11-29T10:0\#(i):00Z"}"#
    }.joined(separator: "\n") + "\n"

    /// A fresh directory for one test's files.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bpinit-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to `name` in `dir` and returns its path.
    static func file(_ dir: URL, _ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Each stdout line as a JSON object.
    static func events(_ lines: [String]) -> [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func names(_ lines: [String]) -> [String] { events(lines).compactMap { $0["event"] as? String } }

    /// The `finished` event's result, re-serialized with sorted keys.
    static func result(_ lines: [String]) -> String? {
        guard let result = events(lines).last(where: { $0["event"] as? String == "finished" })?["result"],
              let data = try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    static func steps(_ lines: [String]) -> [String] {
        events(lines).filter { $0["event"] as? String == "step" }.compactMap { $0["step"] as? String }
    }

    static func dropReasons(_ lines: [String]) -> [String] {
        events(lines).filter { $0["event"] as? String == "cuffReadingDropped" }.compactMap { $0["reason"] as? String }
    }

    /// (attempt, index, systolic) of each reading in the `readings` event.
    static func collected(_ lines: [String]) -> [[Int]] {
        let items = events(lines).last { $0["event"] as? String == "readings" }?["readings"] as? [[String: Any]] ?? []
        return items.map { [$0["attempt"] as? Int ?? 0, $0["index"] as? Int ?? 0, ($0["reading"] as? [String: Any])?["systolic"] as? Int ?? 0] }
    }

    /// A `--cuff-cmd` that writes its process id (its group's: corsano starts it as a group leader)
    /// to `file`, then waits far longer than any test in a child of its own: only a kill of the
    /// whole group, not of the shell alone, ends it early. The child holds none of corsano's
    /// streams, so a survivor cannot keep the test waiting for their end: the group check sees it.
    static func lingeringCuffCommand(reportingTo file: String) -> String {
        "echo $$ > '\(file)'; sleep 300 </dev/null >/dev/null 2>&1; exit 0"
    }

    /// Waits until `file` holds the process id a `lingeringCuffCommand` wrote; nil after `seconds`.
    static func reportedGroup(_ file: String, seconds: Double = 20) -> pid_t? {
        var pgid: pid_t?
        _ = Wait.until(seconds: seconds) {
            let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            pgid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
            return pgid != nil
        }
        return pgid
    }

    /// Expects process group `pgid` to be empty within `seconds` (kill(-pgid, 0) gives ESRCH, so
    /// no member, not even an unreaped zombie, is left); kills what is left when it is not, so a
    /// failing test leaves nothing running either.
    static func expectGone(group pgid: pid_t, seconds: Double = 20, sourceLocation: SourceLocation = #_sourceLocation) {
        let gone = Wait.until(seconds: seconds) { ProcessProbe.groupIsGone(pgid) }
        #expect(gone, "the cuff command's process group \(pgid) still has members after \(seconds) s",
                sourceLocation: sourceLocation)
        if !gone { kill(-pgid, SIGKILL) }
    }
}
