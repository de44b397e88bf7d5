import CorsanoKit
import Foundation
import Testing

/// Issue 24, "each fact once", seen from outside: the built binary's bp-init and replay-filter report
/// one age for one stale reading; every command that writes a bracelet writes the same object.
@Suite struct FactsOnceEndToEndTests {
    static let now = "2026-11-29T10:00:30Z"

    static func line(_ measuredAt: String) -> String {
        #"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"\#(measuredAt)"}"#
    }

    static func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    /// 900.4 s, 900.6 s and -900.6 s from `now` with the 900 s limit: stale (or future) by the
    /// exact age, reported as 900 (-900) by both commands: whole seconds truncated toward zero.
    @Test(arguments: [("2026-11-29T09:45:29.6Z", 900, "stale"), ("2026-11-29T09:45:29.4Z", 900, "stale"),
                      ("2026-11-29T10:15:30.6Z", -900, "future")])
    func bpInitAndReplayFilterReportOneAge(_ measuredAt: String, _ age: Int, _ reason: String) throws {
        let input = Self.line(measuredAt) + "\n"
        // A backdate allowance wider than the age, so that the age rule (not `replayed`) ends the flow.
        let flow = try Corsano.run(["bp-init", "--json", "--no-state", "--now", Self.now, "--backdate", "2h"], stdin: input)
        #expect(flow.status == 3, "\(flow.stderr)")
        let finished = flow.lines.map(Self.json).last { $0["event"] as? String == "finished" }
        let error = (finished?["result"] as? [String: Any])?["error"] as? [String: Any]
        #expect(error?["kind"] as? String == "staleReading")
        #expect(error?["age"] as? Int == age, "\(flow.stdout)")

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-age-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let rejects = dir.appendingPathComponent("rejects.jsonl")
        let filter = try Corsano.run(["replay-filter", "--no-state", "--now", Self.now, "--rejects", rejects.path], stdin: input)
        #expect(filter.status == 0, "\(filter.stderr)")
        #expect(filter.stdout.isEmpty)
        #expect(filter.stderr.contains("<stdin>:1: \(reason) (age \(age) s)\n"), "\(filter.stderr)")
        let rejected = Self.json(try String(contentsOf: rejects, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? "")
        #expect(rejected["reason"] as? String == reason)
        #expect(rejected["age"] as? Int == age)
    }

    /// The bridge's `identify` answer, the REPL's `status` and `history --due` write one
    /// `BraceletIdentity` object: serial, model, firmware, in that order (the bridge adds `simulated`).
    @Test func everyCommandWritesTheBraceletAlike() throws {
        let identity = #"{"serial":"SIM-287-0001","model":"287-2","firmware":"7.4"}"#
        let bridge = try Corsano.run(["bracelet", "serve", "--stdio"],
                                     stdin: #"{"jsonrpc":"2.0","id":1,"method":"identify","params":{}}"# + "\n")
        #expect(bridge.stdout.contains(#""result":"# + identity.dropLast() + #","simulated":true}"#), "\(bridge.stdout)")

        let repl = try Corsano.run(["repl", "--no-state"], stdin: "connect sim\nstatus\n")
        #expect(repl.lines.last?.hasPrefix(#"{"reply":"status","bracelet":"# + identity + ",") == true, "\(repl.stdout)")

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("state.sqlite3").path
        let readings = #"{"systolic":120,"diastolic":80,"pulse":70}"# + "\n" + #"{"systolic":121,"diastolic":80,"pulse":70}"# + "\n"
        let run = try Corsano.run(["bp-init", "--json", "--now", Self.now, "--state", state, "--max-attempts", "1"], stdin: readings)
        #expect(run.status == 0, "\(run.stderr)")
        let history = try Corsano.run(["history", "--state", state, "--json"])
        #expect(history.lines.first?.contains(#""bracelet":"# + identity + ",") == true, "\(history.stdout)")
        let due = try Corsano.run(["history", "--state", state, "--due", "1", "--now", "2027-01-01T00:00:00Z"])
        #expect(due.lines.first?.contains(#""bracelet":"# + identity + ",") == true, "\(due.stdout)")
    }

    /// The fed-reading record is encoded once: each `measurement` event's record is what the
    /// `readings` event lists and what `history --json` prints, byte for byte, as the store keeps it
    /// (a stored record changed by hand comes out changed: history does not encode it again).
    @Test func historyPrintsTheFedReadingRecordAsStored() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("state.sqlite3").path
        let readings = #"{"systolic":120,"diastolic":80,"pulse":70,"cuff":{"id":"A"}}"# + "\n" + #"{"systolic":121,"diastolic":80,"pulse":70}"# + "\n"
        let run = try Corsano.run(["bp-init", "--json", "--now", Self.now, "--state", state, "--max-attempts", "1"], stdin: readings)
        #expect(run.status == 0, "\(run.stderr)")
        // The record of a measurement event: its members after the envelope.
        let records = run.lines.filter { $0.hasPrefix(#"{"event":"measurement""#) }.compactMap { line in
            line.range(of: #""attempt":"#).map { "{" + line[$0.lowerBound...] }
        }
        #expect(records.count == 2)
        let listed = "[" + records.joined(separator: ",") + "]"
        #expect(run.lines.contains { $0.hasPrefix(#"{"event":"readings""#) && $0.contains(#""readings":"# + listed) }, "\(run.stdout)")
        let history = try Corsano.run(["history", "--state", state, "--json"])
        #expect(history.lines.first?.contains(#""readings":"# + listed + ",") == true, "\(history.stdout)\n\(listed)")

        try SQLiteStore(path: state).execute(#"UPDATE audit_reading SET record = replace(record, '"index":', '"index": ')"#)
        let changed = try Corsano.run(["history", "--state", state, "--json"])
        #expect(changed.lines.first?.contains(#""readings":"# + listed.replacingOccurrences(of: #""index":"#, with: #""index": "#) + ",") == true,
                "\(changed.stdout)")
    }
}
