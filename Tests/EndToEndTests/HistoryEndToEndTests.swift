import Foundation
import Testing

/// `corsano history` as the other commands (issue 15, point 6): JSON lines when piped, text with
/// `--text`, whole seconds, `--limit N`, and `--due DAYS` for a lab's cron job.
@Suite struct HistoryEndToEndTests {
    /// A store with three runs: SIM-287-0001 calibrated on Sept 1 and Nov 20, SIM-287-0042 on
    /// Oct 1 (virtual clocks with a fraction of a second), and SIM-287-0042 failing on Nov 25.
    static func store() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let state = dir.appendingPathComponent("state.sqlite3").path
        let other = dir.appendingPathComponent("other.json")
        try Data(#"{"serial":"SIM-287-0042","nibp":{"attempts":[{"session":false}]}}"#.utf8).write(to: other)
        let readings = #"{"systolic":120,"diastolic":80,"pulse":70}"# + "\n" + #"{"systolic":121,"diastolic":80,"pulse":70}"# + "\n"
        for (now, bracelet) in [("2026-09-01T10:00:00.250Z", "sim"), ("2026-10-01T10:00:00.5Z", "sim:SIM42"),
                                ("2026-11-20T10:00:00.75Z", "sim"), ("2026-11-25T10:00:00Z", "sim:" + other.path)] {
            var args = ["bp-init", "--json", "--now", now, "--state", state, "--max-attempts", "1", "--bracelet", bracelet]
            if bracelet == "sim:SIM42" {
                let ok = dir.appendingPathComponent("ok.json")
                try Data(#"{"serial":"SIM-287-0042"}"#.utf8).write(to: ok)
                args[args.count - 1] = "sim:" + ok.path
            }
            let r = try Corsano.run(args, stdin: readings)
            #expect(r.status == (bracelet.hasSuffix("other.json") ? 1 : 0), "\(r.stderr)")
        }
        return state
    }

    @Test func pipedIsJSONLinesWithWholeSecondsAndLimitKeepsTheNewest() throws {
        let state = try Self.store()
        let all = try Corsano.run(["history", "--state", state])
        #expect(all.status == 0)
        #expect(all.lines.count == 4)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(all.lines[0].utf8)) as? [String: Any])
        #expect(first["startedAt"] as? String == "2026-09-01T10:00:00Z")
        #expect(!all.stdout.contains(".25Z") && !all.stdout.contains(".5Z") && !all.stdout.contains(".75Z"))
        let last2 = try Corsano.run(["history", "--state", state, "--limit", "2"])
        #expect(last2.lines == Array(all.lines.suffix(2)))
        let text = try Corsano.run(["history", "--state", state, "--text", "--limit", "1"])
        #expect(text.stdout.hasPrefix("2026-11-25T10:00:00Z  bp-init  bracelet SIM-287-0042 (287-2, firmware 7.4)  run "))
        #expect(text.stdout.contains("  Result: not calibrated, attempts: 1  (ended 2026-11-25T10:00:00Z)\n"))
    }

    @Test func dueListsTheBraceletsPastTheirDaysAndExits1() throws {
        let state = try Self.store()
        let due = try Corsano.run(["history", "--state", state, "--due", "28", "--now", "2026-12-01T00:00:00Z"])
        #expect(due.status == 1)
        #expect(due.lines == [#"{"bracelet":{"serial":"SIM-287-0042","model":"287-2","firmware":"7.4"},"lastCalibratedAt":"2026-10-01T10:00:00Z","days":60,"due":true}"#])
        #expect(due.stderr == "corsano: history: 1 of 2 bracelets due for recalibration (no successful bp-init in the last 28 days)\n")
        let text = try Corsano.run(["history", "--state", state, "--due", "28", "--now", "2026-12-01T00:00:00Z", "--text", "--lang", "de"])
        #expect(text.stdout == "SIM-287-0042: zuletzt kalibriert 2026-10-01T10:00:00Z, vor 60 Tagen; Neukalibrierung fällig\n")
        let none = try Corsano.run(["history", "--state", state, "--due", "90", "--now", "2026-12-01T00:00:00Z"])
        #expect(none.status == 0)
        #expect(none.stdout.isEmpty)
        let one = try Corsano.run(["history", "--state", state, "--due", "28", "--bracelet", "SIM-287-0001", "--now", "2026-12-01T00:00:00Z"])
        #expect(one.status == 0)
        #expect(one.stderr.contains("0 of 1 bracelets due"))
    }

    @Test(arguments: [(["--due", "28", "--since", "2026-01-01T00:00:00Z"], "--due and --since exclude each other"),
                      (["--due", "28", "--limit", "3"], "--due and --limit exclude each other"),
                      (["--now", "2026-01-01T00:00:00Z"], "--now needs --due"),
                      (["--json", "--text"], "--json and --text exclude each other"),
                      (["--text", "--format", "json"], "--text and --format json exclude each other"),
                      (["--due", "0"], "--due: bad value '0': expected an integer from 1 to 3650")])
    func conflictingOptionsAreUsageErrors(_ extra: [String], _ message: String) throws {
        let r = try Corsano.run(["history", "--no-state"] + extra)
        #expect(r.status == 64)
        #expect(r.stderr == "corsano: \(message)\n")
    }
}

/// What `history` says of runs it cannot see finished, and of no runs at all.
@Suite struct HistoryUnfinishedTests {
    typealias E = BPInitE2E

    /// A run still waiting for its cuff has neither result nor end, as a killed one: history
    /// must not call it killed (it was: "did not finish (killed)" while the process ran).
    @Test func aRunStillGoingIsNotReportedKilled() throws {
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let live = try LiveCorsano(["bp-init", "--json", "--state", state] + E.now, env: [:])
        #expect(live.waitForLine(containing: #""step":"measuring""#))
        let text = try Corsano.run(["history", "--text", "--state", state])
        let fhir = try Corsano.run(["history", "--format", "fhir", "--state", state])
        _ = live.finish(closingInput: true)
        #expect(text.stdout.contains("Result: not finished (still running, or killed)"), "\(text.stdout)")
        let procedure = fhir.lines.first { $0.contains(#""resourceType":"Procedure""#) } ?? ""
        #expect(procedure.contains(#""status":"unknown""#))
        #expect(procedure.contains(#""outcome":{"text":"not finished: still running, or its process was killed"}"#), "\(procedure)")
    }

    /// No store: an export of nothing is an empty Bundle or a manifest listing no files, and the
    /// FHIR options are still checked (a bad --subject was accepted with 0 when no store existed).
    @Test func fhirWithoutAStoreIsAnEmptyExportAndStillChecksItsOptions() throws {
        let dir = try E.directory()
        let state = dir.appendingPathComponent("none.sqlite3").path
        let bundle = try Corsano.run(["history", "--format", "fhir", "--bundle", "--state", state])
        #expect(bundle.status == 0)
        #expect(bundle.stdout == #"{"resourceType":"Bundle","type":"transaction","entry":[]}"# + "\n")
        let bulk = dir.appendingPathComponent("bulk")
        let r = try Corsano.run(["history", "--format", "fhir", "--output-dir", bulk.path, "--state", state])
        #expect(r.status == 0)
        let manifest = try String(contentsOf: bulk.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains(#""output":[],"error":[]"#), "\(manifest)")
        let bad = try Corsano.run(["history", "--format", "fhir", "--subject", "nobody", "--state", state])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--subject"))
        let due = try Corsano.run(["history", "--due", "28", "--state", state])
        #expect(due.status == 0)
        #expect(due.stderr == "corsano: history: no runs recorded (no state store at \(state))\n")
        #expect(!FileManager.default.fileExists(atPath: state))  // reading history never creates a store
    }
}
