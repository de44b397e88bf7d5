import Foundation
import Testing

/// `corsano history` as the other commands (point 6): JSON lines when piped, text with
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
            try AuditFixture.onRunClock(state: state, events: r.lines)  // a run on that day
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

    /// `--since` takes a date: from that day's midnight in TZ's zone (a run at 10:00 UTC on
    /// Nov 20 is on or after Nov 20 in UTC, and before Nov 21 00:00 in Pacific/Kiritimati, +14);
    /// anything else is refused naming both forms.
    @Test func sinceTakesADateFromItsMidnightInTZ() throws {
        let state = try Self.store()
        let starts = { (since: String, tz: String) throws -> [String] in
            let r = try Corsano.run(["history", "--state", state, "--since", since], env: ["TZ": tz])
            #expect(r.status == 0, "\(r.stderr)")
            return r.lines.compactMap { $0.firstMatch(of: /"startedAt":"([^"]+)"/).map { String($0.output.1) } }
        }
        #expect(try starts("2026-11-20", "UTC") == ["2026-11-20T10:00:00Z", "2026-11-25T10:00:00Z"])
        #expect(try starts("2026-11-21", "Pacific/Kiritimati") == ["2026-11-20T10:00:00Z", "2026-11-25T10:00:00Z"])
        #expect(try starts("2026-11-21", "UTC") == ["2026-11-25T10:00:00Z"])
        let bad = try Corsano.run(["history", "--state", state, "--since", "2026-11-31"])
        #expect(bad.status == 64 && bad.stderr.contains("or a date like 2026-11-29"), "\(bad.stderr)")
    }

    @Test func dueListsTheBraceletsPastTheirDaysAndExits1() throws {
        let state = try Self.store()
        let due = try Corsano.run(["history", "--state", state, "--due", "28", "--now", "2026-12-01T00:00:00Z"])
        #expect(due.status == 1)
        #expect(due.lines == [#"{"kind":"recalibration","bracelet":{"serial":"SIM-287-0042","model":"287-2","firmware":"7.4"},"lastCalibratedAt":"2026-10-01T10:00:00Z","days":60,"due":true,"status":"recalibrationDue"}"#])
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
        // A check fails closed: --due on a store that does not exist is 66 naming it.
        let due = try Corsano.run(["history", "--due", "28", "--state", state])
        #expect(due.status == 66)
        #expect(due.stderr.hasPrefix("corsano: \(state): no state store there"))
        #expect(!FileManager.default.fileExists(atPath: state))  // reading history never creates a store
    }
}

/// `history --text` in every shipped locale: every word comes from the locale's catalog (it mixed
/// English "bracelet", "firmware", "run", "gateway", "not finished", "ended" and "measured" into
/// localized lines), right-to-left lines are marked and keep their values isolated, and the
/// English stays as it was.
@Suite struct HistoryLocalizedTextTests {
    typealias E = BPInitE2E

    /// A store with a run that calibrated (two readings with the cuff's measuredAt) and a run
    /// killed while it waited for its cuff (no result, no end), both from gateway `lab-pc-3`;
    /// their run IDs, oldest first.
    static func store() throws -> (state: String, runs: [String]) {
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let flow = ["bp-init", "--json", "--state", state, "--gateway", "lab-pc-3"] + E.now
        let done = try Corsano.run(flow, stdin: E.ingestedSession)
        #expect(done.status == 0, "\(done.stderr)")
        try AuditFixture.onRunClock(state: state, events: done.lines)  // a run on that day
        let live = try LiveCorsano(flow, env: [:])
        #expect(live.waitForLine(containing: #""step":"measuring""#))
        live.signal(SIGKILL)
        let killed = live.finish()
        try AuditFixture.onRunClock(state: state, events: killed.lines)
        let json = try Corsano.run(["history", "--json", "--state", state])
        let runs = E.events(json.lines).compactMap { $0["run"] as? String }
        #expect(runs.count == 2, "\(json.stdout)")
        return (state, runs)
    }

    /// The msgstr of `key` in `po/CATALOG.po`, read from the catalog itself (not the generated
    /// tables), with `args` filled in as `Localizer` does: isolated in right-to-left locales.
    static func catalog(_ tag: String, _ key: String, _ args: String...) throws -> String {
        let po = try String(contentsOf: Corsano.packageRoot.appendingPathComponent("po/\(tag.replacingOccurrences(of: "-", with: "_")).po"),
                            encoding: .utf8)
        let lines = po.components(separatedBy: "\n")
        let context = try #require(lines.firstIndex(of: "msgctxt \"\(key)\""), "\(tag): no \(key)")
        let start = try #require(lines[context...].firstIndex { $0.hasPrefix("msgstr ") })
        var text = ""
        for line in lines[start...] {
            guard let open = line.firstIndex(of: "\""), line.hasSuffix("\""), line.hasPrefix("msgstr ") || line.hasPrefix("\"") else { break }
            text += line[line.index(after: open)..<line.index(before: line.endIndex)]
                .replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
        }
        #expect(!text.isEmpty, "\(tag): \(key) is not translated")
        let rightToLeft = tag == "ar" || tag == "he"
        for (i, arg) in args.enumerated() {
            text = text.replacingOccurrences(of: "{\(i + 1)}", with: rightToLeft ? "\u{2068}\(arg)\u{2069}" : arg)
        }
        return text
    }

    @Test func englishIsAsBefore() throws {
        let (state, runs) = try Self.store()
        let text = try Corsano.run(["history", "--text", "--state", state])
        #expect(text.stdout == """
            2026-11-29T10:00:30Z  bp-init  bracelet SIM-287-0001 (287-2, firmware 7.4)  run \(runs[0])  gateway lab-pc-3
              Result: calibrated, measurements: 2  (ended 2026-11-29T10:02:55Z)
              1.1  128/82 mmHg, pulse 66 bpm  accepted  measured 2026-11-29T10:00:55Z
              1.2  124/80 mmHg, pulse 64 bpm  accepted  measured 2026-11-29T10:02:55Z

            2026-11-29T10:00:30Z  bp-init  bracelet SIM-287-0001 (287-2, firmware 7.4)  run \(runs[1])  gateway lab-pc-3
              Result: not finished (still running, or killed)

            """)
    }

    @Test func germanIsGermanThroughout() throws {
        let (state, runs) = try Self.store()
        let text = try Corsano.run(["history", "--text", "--lang", "de", "--state", state])
        #expect(text.stdout == """
            2026-11-29T10:00:30Z  bp-init  Armband SIM-287-0001 (287-2, Firmware 7.4)  Durchlauf \(runs[0])  Gateway lab-pc-3
              Ergebnis: kalibriert, Messungen: 2  (beendet 2026-11-29T10:02:55Z)
              1.1  128/82 mmHg, Puls 66 Schläge/min  angenommen  gemessen 2026-11-29T10:00:55Z
              1.2  124/80 mmHg, Puls 64 Schläge/min  angenommen  gemessen 2026-11-29T10:02:55Z

            2026-11-29T10:00:30Z  bp-init  Armband SIM-287-0001 (287-2, Firmware 7.4)  Durchlauf \(runs[1])  Gateway lab-pc-3
              Ergebnis: nicht abgeschlossen (läuft noch oder wurde zwangsbeendet)

            """)
        // LANG picks the language as --lang does.
        let lang = try Corsano.run(["history", "--text", "--state", state], env: ["LANG": "de_DE.UTF-8"])
        #expect(lang.stdout == text.stdout)
    }

    /// Hebrew: each line marked right-to-left, every value (times, serial, run ID) isolated and
    /// intact, and no English word.
    @Test func hebrewIsMarkedAndIsolated() throws {
        let (state, runs) = try Self.store()
        let text = try Corsano.run(["history", "--text", "--lang", "he", "--state", state])
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines.allSatisfy { $0.hasPrefix("\u{200F}") }, "\(lines)")
        let i = { (s: String) in "\u{2068}\(s)\u{2069}" }
        #expect(lines[0] == "\u{200F}\(i("2026-11-29T10:00:30Z"))  \(i("bp-init"))  צמיד \(i("SIM-287-0001")) (\(i("287-2")), קושחה \(i("7.4")))  הרצה \(i(runs[0]))  שער \(i("lab-pc-3"))")
        #expect(lines[1].hasSuffix("  (הסתיים \(i("2026-11-29T10:02:55Z")))"), "\(lines[1])")
        #expect(lines[2].hasSuffix("  נמדדה \(i("2026-11-29T10:00:55Z"))"), "\(lines[2])")
        #expect(lines[5].contains("לא הסתיים (עדיין פועל, או שהופסק בכוח)"), "\(lines[5])")
        for word in ["bracelet", "firmware", "run ", "gateway", "Result", "not finished", "ended", "measured", "accepted", "pulse"] {
            #expect(!text.stdout.contains(word), "he: \(word)")
        }
        // --due lines are marked too.
        let due = try Corsano.run(["history", "--text", "--lang", "he", "--state", state, "--due", "1", "--now", "2026-12-01T00:00:00Z"])
        #expect(due.stdout == "\u{200F}\(i("SIM-287-0001")): כויל לאחרונה \(i("2026-11-29T10:02:55Z")), לפני \(i("1")) יום; נדרש כיול מחדש\n")
    }

    /// Every shipped locale uses its catalog's own strings for the header, the unfinished result,
    /// the end and the measuring time; an English word shows only where the locale's own string
    /// spells it so (French "bracelet", "firmware" in several languages, "gateway").
    @Test func everyLocaleUsesItsCatalog() throws {
        let (state, runs) = try Self.store()
        let tags = try String(contentsOf: Corsano.packageRoot.appendingPathComponent("po/LINGUAS"), encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).filter { !$0.hasPrefix("#") && $0 != "en" }.map { $0.replacingOccurrences(of: "_", with: "-") }
        #expect(tags.count == 16, "\(tags)")
        for tag in tags {
            let text = try Corsano.run(["history", "--text", "--lang", tag, "--state", state])
            #expect(text.status == 0)
            let lines = text.stdout.split(separator: "\n").map(String.init)
            let mark = tag == "ar" || tag == "he" ? "\u{200F}" : ""
            let gateway = try Self.catalog(tag, "historyRunGateway", "lab-pc-3")
            let used = [
                try Self.catalog(tag, "historyRunHeader", "2026-11-29T10:00:30Z", "bp-init", "SIM-287-0001", "287-2", "7.4", runs[0]),
                try Self.catalog(tag, "historyEnded", "2026-11-29T10:02:55Z"),
                try Self.catalog(tag, "historyMeasured", "2026-11-29T10:00:55Z"),
                try Self.catalog(tag, "historyRunHeader", "2026-11-29T10:00:30Z", "bp-init", "SIM-287-0001", "287-2", "7.4", runs[1]),
                try Self.catalog(tag, "historyNotFinished"),
            ]
            #expect(lines.count == 6, "\(tag): \(text.stdout)")
            guard lines.count == 6 else { continue }
            #expect(lines[0] == mark + used[0] + "  " + gateway, "\(tag)")
            #expect(lines[1].hasSuffix("  " + used[1]), "\(tag): \(lines[1])")
            #expect(lines[2].hasSuffix("  " + used[2]), "\(tag): \(lines[2])")
            #expect(lines[4] == mark + used[3] + "  " + gateway, "\(tag)")
            #expect(lines[5].hasSuffix(used[4] + (mark.isEmpty ? "" : "\u{2069}")), "\(tag): \(lines[5])")
            let own = (used + [gateway]).joined(separator: "\n")
            for word in ["bracelet ", "firmware ", "run ", "gateway ", "not finished", "ended ", "measured "] where !own.contains(word) {
                #expect(!text.stdout.contains(word), "\(tag): English \"\(word)\" in \(text.stdout)")
            }
            for english in ["(ended ", "measured 2026", "not finished (still running, or killed)"] {
                #expect(!text.stdout.contains(english), "\(tag)")
            }
        }
    }
}
