@testable import CorsanoKit
import Foundation
import Testing

/// `corsano replay-filter` run as the built binary (issue 3 "Show").
@Suite struct ReplayFilterEndToEndTests {
    static func line(_ at: String, _ sys: Int = 120, _ dia: Int = 80, _ pulse: Int = 60, extra: String = "") -> String {
        #"{"systolic":\#(sys),"diastolic":\#(dia),"pulse":\#(pulse),"measuredAt":"\#(at)","isManualEntry":false\#(extra)}"#
    }

    static func tempDir() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-rf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test(arguments: [
        ("2026-11-29T10:13:30Z", true),   // exactly 90 s before the request: kept
        ("2026-11-29T10:13:29Z", false),  // 91 s: replayed
    ])
    func backdateBoundary(_ at: String, _ kept: Bool) throws {
        let input = Self.line(at) + "\n"
        let r = try Corsano.run(["replay-filter", "--no-state", "--requested-at", "2026-11-29T10:15:00Z",
                                 "--now", "2026-11-29T10:15:00Z"], stdin: input)
        #expect(r.status == 0)
        #expect(r.stdout == (kept ? input : ""))
        #expect(r.stderr.contains("<stdin>:1: replayed") == !kept)
    }

    @Test(arguments: [
        ("2026-11-29T10:00:00Z", nil as String?),               // age 900: kept
        ("2026-11-29T09:59:59Z", "stale (age 901 s)"),
        ("2026-11-29T10:30:00Z", nil),                          // age -900: kept
        ("2026-11-29T10:30:01Z", "future (age -901 s)"),
    ])
    func ageBoundaryBothDirections(_ at: String, _ report: String?) throws {
        let input = Self.line(at) + "\n"
        let r = try Corsano.run(["replay-filter", "--no-state", "--now", "2026-11-29T10:15:00Z"], stdin: input)
        #expect(r.status == 0)
        if let report {
            #expect(r.stdout == "")
            #expect(r.stderr.contains("<stdin>:1: \(report)"))
        } else {
            #expect(r.stdout == input)
        }
    }

    /// Issue 29: readings with no time (exempt from the age rule) and manual entries are
    /// counted in the closing line.
    /// `--durability normal` is the one weaker mode, asked for by name and said for what it is;
    /// the default keeps every commit on disk before its lines go out (docs/design.md "State store").
    @Test func aWeakerDurabilityIsOnlyAskedForAndSaysWhatItCosts() throws {
        let help = try Corsano.run(["replay-filter", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // help wraps its lines
        #expect(words.contains("normal: fewer syncs, but a power cut may hand a reading on twice"), "\(help.stdout)")
        let dir = try Self.tempDir()
        let input = (0..<50).map { Self.line(RFC3339.format(Instant(secondsSinceEpoch: 1_795_000_000 + Int64($0) * 60))) }.joined(separator: "\n") + "\n"
        var outputs: [String] = []
        for (mode, pragma) in [(nil, "PRAGMA synchronous=NORMAL"), ("normal", "PRAGMA synchronous=NORMAL")] {
            let state = dir.appendingPathComponent("\(mode ?? "full").sqlite3").path
            let r = try Corsano.run(["replay-filter", "--state", state, "--max-reading-age", "none", "--commit-bytes", "1000", "-vv"]
                                    + (mode.map { ["--durability", $0] } ?? []), stdin: input)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains(pragma) == (mode != nil), "\(mode ?? "default"): \(r.stderr)")
            #expect(r.stderr.contains("durability \(mode ?? "full")"))
            outputs.append(r.stdout)
        }
        #expect(outputs[0] == input && outputs[1] == input)
    }

    @Test func unstampedAndManualReadingsAreCounted() throws {
        let input = [
            #"{"systolic":120,"diastolic":80,"pulse":60}"#,
            #"{"systolic":122,"diastolic":81,"pulse":61,"measuredAt":"2026-11-29T19:00:40Z","isManualEntry":true}"#,
            Self.line("2026-11-29T19:00:40Z"),
        ].joined(separator: "\n") + "\n"
        let r = try Corsano.run(["replay-filter", "--no-state", "--max-reading-age", "none"], stdin: input)
        #expect(r.status == 0)
        #expect(r.stdout == input)
        #expect(r.stderr.hasSuffix("corsano: replay-filter: read 3, written 3, skipped 0, dropped 0, rejected 0, unstamped 1, manual 1\n"), "\(r.stderr)")
    }

    @Test func instantEqualityIsOneKeyAndLinesPassByteForByte() throws {
        let first = #"{ "systolic": 120,"diastolic":80, "pulse":60,"measuredAt":"2026-11-29T19:00:40Z","userId":7,"meta":{"b":[1,2]}}"#
        let input = [
            first,
            Self.line("2026-11-29T21:00:40+02:00"),
            Self.line("2026-11-29T19:00:40.000Z", extra: #","meanArterialPressure":99"#),
            Self.line("2026-11-29T19:00:40Z", 120, 80, 61),
        ].joined(separator: "\n") + "\n"
        let r = try Corsano.run(["replay-filter", "--no-state", "--max-reading-age", "none"], stdin: input)
        #expect(r.status == 0)
        #expect(r.stdout == first + "\n" + Self.line("2026-11-29T19:00:40Z", 120, 80, 61) + "\n")
        #expect(r.stderr.contains("<stdin>:2: duplicate\n<stdin>:3: duplicate\n"))
        #expect(r.stderr.contains("corsano: replay-filter: read 4, written 2, skipped 0, dropped 2 (duplicate: 2), rejected 0"))
    }

    /// session-replay.jsonl after the anchor (device 2025-01-01T00:03:10 = phone
    /// 2026-11-29T10:00:05Z), filtered for measurement 1 and then measurement 2 in one scope.
    @Test func sessionReplayAcrossTwoInvocationsSharingTheStore() throws {
        let dir = try Self.tempDir()
        let anchored = [
            #"{"systolic":133,"diastolic":86,"pulse":71,"measuredAt":"2026-11-27T18:11:55Z","deviceTime":"2024-12-30T08:15:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
            #"{"systolic":126,"diastolic":84,"pulse":69,"measuredAt":"2026-11-29T05:36:55Z","deviceTime":"2024-12-31T19:40:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
            #"{"systolic":128,"diastolic":82,"pulse":66,"measuredAt":"2026-11-29T10:00:55Z","deviceTime":"2025-01-01T00:04:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
            #"{"systolic":128,"diastolic":82,"pulse":66,"measuredAt":"2026-11-29T10:00:55Z","deviceTime":"2025-01-01T00:04:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
            #"{"systolic":124,"diastolic":80,"pulse":64,"measuredAt":"2026-11-29T10:02:55Z","deviceTime":"2025-01-01T00:06:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
        ]
        // `cuff ingest` with the fixture's anchor writes exactly these lines.
        let fixture = Corsano.packageRoot.appendingPathComponent("Tests/Fixtures/jsonl/session-replay.jsonl").path
        let ingest = try Corsano.run(["cuff", "ingest", "--anchor-device", "2025-01-01T00:03:10",
                                      "--anchor-phone", "2026-11-29T10:00:05Z", fixture])
        #expect(ingest.status == 0)
        #expect(ingest.lines == anchored)
        let env = ["CORSANO_STATE": dir.appendingPathComponent("s/state.sqlite3").path]
        let m1 = try Corsano.run(["replay-filter", "--first", "--scope", "cal-1", "--requested-at", "2026-11-29T10:00:30Z",
                                  "--now", "2026-11-29T10:01:00Z"], stdin: anchored[0...3].joined(separator: "\n") + "\n", env: env)
        #expect(m1.status == 0)
        #expect(m1.stdout == anchored[2] + "\n")
        #expect(m1.stderr.contains("<stdin>:1: replayed\n<stdin>:2: replayed\n"))
        let m2 = try Corsano.run(["replay-filter", "--first", "--scope", "cal-1", "--requested-at", "2026-11-29T10:02:00Z",
                                  "--now", "2026-11-29T10:03:00Z"], stdin: anchored[3...4].joined(separator: "\n") + "\n", env: env)
        #expect(m2.status == 0)
        #expect(m2.stdout == anchored[4] + "\n")
        #expect(m2.stderr.contains("<stdin>:1: duplicate"))
    }

    @Test func rawFixtureIsUnanchored() throws {
        let fixture = Corsano.packageRoot.appendingPathComponent("Tests/Fixtures/jsonl/session-replay.jsonl").path
        let r = try Corsano.run(["replay-filter", "--no-state", fixture])
        #expect(r.status == 0)
        #expect(r.stdout == "")
        #expect(r.stderr.contains("\(fixture):5: unanchored"))
        #expect(r.stderr.contains("read 5, written 0, skipped 0, dropped 5 (unanchored: 5), rejected 0"))
    }

    @Test func firstStopsAfterOneAndExits3WhenNoneKept() throws {
        let input = Self.line("2026-11-29T10:14:00Z") + "\n" + Self.line("2026-11-29T10:14:30Z") + "\n"
        let one = try Corsano.run(["replay-filter", "--no-state", "--first", "--now", "2026-11-29T10:15:00Z"], stdin: input)
        #expect(one.status == 0)
        #expect(one.stdout == Self.line("2026-11-29T10:14:00Z") + "\n")
        let none = try Corsano.run(["replay-filter", "--no-state", "--first", "--requested-at", "2026-11-29T11:00:00Z",
                                    "--now", "2026-11-29T10:15:00Z"], stdin: input)
        #expect(none.status == 3)
        #expect(none.stdout == "")
    }

    @Test func malformedLinesAreReportedAndExit65AfterGoodLines() throws {
        let good = Self.line("2026-11-29T10:14:00Z")
        let input = "not json\n" + #"{"systolic":"high","diastolic":80}"# + "\n" + good + "\n"
        let dir = try Self.tempDir()
        let rejects = dir.appendingPathComponent("rejects.jsonl")
        let r = try Corsano.run(["replay-filter", "--no-state", "--now", "2026-11-29T10:15:00Z", "--rejects", rejects.path], stdin: input)
        #expect(r.status == 65)
        #expect(r.stdout == good + "\n")
        #expect(r.stderr.contains("<stdin>:1: malformed: not valid JSON"))
        #expect(r.stderr.contains(#"<stdin>:2: malformed: field "systolic": not an integer"#))
        #expect(try String(contentsOf: rejects, encoding: .utf8) == """
            {"source":"<stdin>","line":1,"reason":"malformed","error":"not valid JSON","raw":"not json"}
            {"source":"<stdin>","line":2,"reason":"malformed","field":"systolic","error":"field \\"systolic\\": not an integer","raw":"{\\"systolic\\":\\"high\\",\\"diastolic\\":80}"}

            """)
        let strict = try Corsano.run(["replay-filter", "--no-state", "--strict", "--now", "2026-11-29T10:15:00Z"], stdin: good + "\n" + input)
        #expect(strict.status == 65)
        #expect(strict.stdout == good + "\n")
        #expect(!strict.stderr.contains("<stdin>:3"))
    }

    @Test func implausibleReadingsAreDroppedAsInvalid() throws {
        let input = Self.line("2026-11-29T10:14:00Z", 400, 80) + "\n" + Self.line("2026-11-29T10:14:00Z", 80, 90) + "\n"
        let r = try Corsano.run(["replay-filter", "--no-state", "--now", "2026-11-29T10:15:00Z"], stdin: input)
        #expect(r.status == 0)
        #expect(r.stdout == "")
        #expect(r.stderr.contains("<stdin>:1: invalid: systolic: 400 mmHg outside 50-300\n"))
        #expect(r.stderr.contains("<stdin>:2: invalid: systolic: 80 mmHg not above diastolic 90 mmHg\n"))
        #expect(r.stderr.contains("dropped 2 (invalid: 2)"))
    }

    @Test func missingFileIs66AndUnusableStoreIs74() throws {
        let missing = try Corsano.run(["replay-filter", "--no-state", "/nonexistent/readings.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/readings.jsonl"))
        let dir = try Self.tempDir()
        let corrupt = dir.appendingPathComponent("corrupt.sqlite3")
        try Data(String(repeating: "garbage ", count: 1000).utf8).write(to: corrupt)
        let bad = try Corsano.run(["replay-filter", "--state", corrupt.path], stdin: Self.line("2026-11-29T10:14:00Z") + "\n")
        #expect(bad.status == 74)
        #expect(bad.stdout == "")
        #expect(bad.stderr.contains(corrupt.path))
    }

    @Test func filesAndDashAreReadInOrderUnderTheDefaultStore() throws {
        let dir = try Self.tempDir()
        let file = dir.appendingPathComponent("a.jsonl")
        try (Self.line("2026-11-29T10:14:00Z") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let xdg = dir.appendingPathComponent("xdg").path
        let args = ["replay-filter", "--now", "2026-11-29T10:15:00Z", file.path, "-"]
        let stdin = Self.line("2026-11-29T10:14:00Z") + "\n" + Self.line("2026-11-29T10:14:10Z") + "\n"
        let r = try Corsano.run(args, stdin: stdin, env: ["XDG_STATE_HOME": xdg])
        #expect(r.status == 0)
        #expect(r.stdout == Self.line("2026-11-29T10:14:00Z") + "\n" + Self.line("2026-11-29T10:14:10Z") + "\n")
        #expect(r.stderr.contains("<stdin>:1: duplicate"))
        #expect(FileManager.default.fileExists(atPath: xdg + "/corsano/state.sqlite3"))
        // The same command again: everything was seen.
        let again = try Corsano.run(args, stdin: stdin, env: ["XDG_STATE_HOME": xdg])
        #expect(again.stdout == "")
    }
}

/// Issue 24: `cuff ingest` and `replay-filter` write one `--rejects` record and one counts line
/// (docs/design.md "Rejects and counts").
@Suite struct OneRejectsSchemaTests {
    static let implausible = #"{"systolic":80,"diastolic":120,"pulse":64,"measuredAt":"2026-11-29T10:14:00Z"}"#

    static func rejects(_ args: [String], stdin: String) throws -> (record: [String: Any], stderr: String) {
        let dir = try ReplayFilterEndToEndTests.tempDir()
        let path = dir.appendingPathComponent("rejects.jsonl").path
        let r = try Corsano.run(args + ["--rejects", path], stdin: stdin)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let record = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        return (record, r.stderr)
    }

    @Test func bothFiltersWriteTheSameRecordForAnImplausibleReading() throws {
        let ingest = try Self.rejects(["cuff", "ingest"], stdin: Self.implausible + "\n")
        let filter = try Self.rejects(["replay-filter", "--no-state", "--now", "2026-11-29T10:15:00Z"], stdin: Self.implausible + "\n")
        for record in [ingest.record, filter.record] {
            #expect(Set(record.keys) == ["source", "line", "reason", "field", "error", "raw"])
            #expect(record["reason"] as? String == "invalid")
            #expect(record["field"] as? String == "systolic")
            #expect(record["raw"] as? String == Self.implausible)
            #expect(record["line"] as? Int == 1)
        }
        #expect(ingest.record["error"] as? String == filter.record["error"] as? String)
        // One counts line: read, written, skipped, dropped (by reason), rejected.
        let shape = #/corsano: (cuff ingest|replay-filter): read \d+, written \d+, skipped \d+( \([^)]*\))?, dropped \d+( \([^)]*\))?, rejected \d+/#
        #expect(ingest.stderr.contains(shape))
        #expect(filter.stderr.contains(shape))
    }

    @Test func aStaleReadingCarriesItsAgeAndItsLineAsRaw() throws {
        let stale = ReplayFilterEndToEndTests.line("2026-11-29T09:59:59Z")
        let filter = try Self.rejects(["replay-filter", "--no-state", "--now", "2026-11-29T10:15:00Z"], stdin: stale + "\n")
        #expect(Set(filter.record.keys) == ["source", "line", "reason", "age", "raw"])
        #expect(filter.record["reason"] as? String == "stale")
        #expect(filter.record["age"] as? Int == 901)
        #expect(filter.record["raw"] as? String == stale)
    }
}
