import Foundation
import Testing

/// `corsano cuff ingest` as a built binary: each format, exit statuses, stderr reports.
@Suite struct CuffIngestEndToEndTests {
    static func fixture(_ name: String) -> String { Corsano.fixtures.appendingPathComponent(name).path }
    static let anchor = ["--anchor-device", "2025-01-01T00:03:10", "--anchor-phone", "2026-11-29T10:00:05Z"]

    @Test func jsonlWithAnchorWritesRealTimesAndCounts() throws {
        let r = try Corsano.run(["cuff", "ingest"] + Self.anchor + [Self.fixture("jsonl/session-replay.jsonl")])
        #expect(r.status == 0)
        #expect(r.lines == [
            #"{"systolic":133,"diastolic":86,"pulse":71,"measuredAt":"2026-11-27T18:11:55Z","deviceTime":"2024-12-30T08:15:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
            #"{"systolic":126,"diastolic":84,"pulse":69,"measuredAt":"2026-11-29T05:36:55Z","deviceTime":"2024-12-31T19:40:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
            #"{"systolic":128,"diastolic":82,"pulse":66,"measuredAt":"2026-11-29T10:00:55Z","deviceTime":"2025-01-01T00:04:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
            #"{"systolic":128,"diastolic":82,"pulse":66,"measuredAt":"2026-11-29T10:00:55Z","deviceTime":"2025-01-01T00:04:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
            #"{"systolic":124,"diastolic":80,"pulse":64,"measuredAt":"2026-11-29T10:02:55Z","deviceTime":"2025-01-01T00:06:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
        ])
        #expect(r.stderr == "corsano: cuff ingest: read 5, written 5, skipped 0, dropped 0, rejected 0\n")
    }

    /// New York springs forward between anchor and record; the host zone must not leak in.
    @Test func anchorIgnoresHostZoneAcrossDSTSwitch() throws {
        let line = #"{"systolic":120,"diastolic":80,"deviceTime":"2026-03-08T03:30:00"}"# + "\n"
        for tz in ["America/New_York", "Europe/Berlin", "UTC"] {
            let r = try Corsano.run(["cuff", "ingest", "--anchor-device", "2026-03-08T01:30:00", "--anchor-phone", "2026-03-08T06:30:00Z"],
                                    stdin: line, env: ["TZ": tz])
            #expect(r.status == 0)
            #expect(r.lines == [#"{"systolic":120,"diastolic":80,"measuredAt":"2026-03-08T08:30:00Z","deviceTime":"2026-03-08T03:30:00","isManualEntry":false,"anchor":{"device":"2026-03-08T01:30:00","phone":"2026-03-08T06:30:00Z"}}"#], "TZ=\(tz)")
        }
    }

    @Test func withoutAnchorNaiveStampsAreReadInTZOrTzAndSaySo() throws {
        let file = Self.fixture("csv/omblepy-user1.csv")
        let env = try Corsano.run(["cuff", "ingest", file], env: ["TZ": "Europe/Berlin"])
        #expect(env.status == 0)
        #expect(env.lines.first == #"{"systolic":124,"diastolic":79,"pulse":61,"measuredAt":"2026-11-20T06:02:14Z","deviceTime":"2026-11-20T07:02:14","isManualEntry":false,"status":{"bodyMovement":false,"irregularPulse":false}}"#)
        #expect(env.stderr.contains("naive stamps read in zone Europe/Berlin"))
        let flag = try Corsano.run(["cuff", "ingest", "--tz", "America/New_York", file], env: ["TZ": "Europe/Berlin"])
        #expect(flag.lines.first?.contains(#""measuredAt":"2026-11-20T12:02:14Z""#) == true)
        #expect(flag.stderr.contains("naive stamps read in zone America/New_York"))
        // UTC is named as given (Foundation on Linux would say GMT).
        for (tz, name) in [("UTC", "UTC"), ("Z", "UTC"), ("Etc/UTC", "Etc/UTC")] {
            let utc = try Corsano.run(["cuff", "ingest", "--tz", tz, file], env: ["TZ": "Europe/Berlin"])
            #expect(utc.lines.first?.contains(#""measuredAt":"2026-11-20T07:02:14Z""#) == true, "--tz \(tz)")
            #expect(utc.stderr.contains("naive stamps read in zone \(name) ("), "--tz \(tz): \(utc.stderr)")
        }
    }

    /// A TZ that names a fixed POSIX offset is read as that offset; one corsano cannot read (a
    /// rule string, a typo) is refused with 64 naming TZ — never replaced by the system zone,
    /// which would read naive stamps hours off. `--tz` overrides TZ either way.
    @Test(arguments: [("<+03>-3", 0, "2026-11-20T04:02:14Z"), ("UTC0", 0, "2026-11-20T07:02:14Z"),
                      ("CET-1CEST,M3.5.0,M10.5.0/3", 64, nil), ("Europe/Berln", 64, nil)])
    func tzFromTheEnvironmentIsReadOrRefused(tz: String, status: Int32, measuredAt: String?) throws {
        let file = Self.fixture("csv/omblepy-user1.csv")
        let r = try Corsano.run(["cuff", "ingest", file], env: ["TZ": tz])
        #expect(r.status == status, "\(r.stderr)")
        if let measuredAt {
            #expect(r.lines.first?.contains(#""measuredAt":"\#(measuredAt)""#) == true, "\(r.lines.first ?? "")")
            #expect(r.stderr.contains("naive stamps read in zone \(tz) ("))
        } else {
            #expect(r.lines.isEmpty)
            #expect(r.stderr.hasPrefix("corsano: TZ: bad value '\(tz)': expected a tz database zone"), "\(r.stderr)")
        }
        let flag = try Corsano.run(["cuff", "ingest", "--tz", "UTC", file], env: ["TZ": tz])
        #expect(flag.status == 0 && flag.lines.first?.contains(#""measuredAt":"2026-11-20T07:02:14Z""#) == true)
    }

    /// An anchor pair years apart must not produce a year its own readers reject: the record is
    /// rejected naming deviceTime (65) after the good one is written.
    @Test(arguments: [("0001-01-01T00:00:00", "9999-12-31T23:59:59Z", "9999-12-31T23:59:59"),
                      ("9999-12-31T23:59:59", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00")])
    func anchoredTimeOutsideYears1To9999IsRejected(_ device: String, _ phone: String, _ stamp: String) throws {
        let input = #"{"systolic":120,"diastolic":80,"pulse":60,"deviceTime":"\#(stamp)"}"# + "\n"
            + #"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:15:00Z"}"# + "\n"
        let r = try Corsano.run(["cuff", "ingest", "--anchor-device", device, "--anchor-phone", phone], stdin: input)
        #expect(r.status == 65)
        #expect(r.lines == [#"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:15:00Z","isManualEntry":false}"#])
        #expect(r.stderr == "<stdin>:1: deviceTime: \(stamp) maps to a real time outside years 0001-9999 (by the clock anchor)\n"
            + "corsano: cuff ingest: read 2, written 1, skipped 0, dropped 0, rejected 1\n")
    }

    /// Manual entries are never shifted by the anchor: with both anchor flags the zone note
    /// says that, never "no --anchor-device/--anchor-phone".
    @Test func manualEntryWithBothAnchorFlagsGetsATrueNote() throws {
        let input = #"{"systolic":120,"diastolic":80,"pulse":60,"deviceTime":"2026-01-01T10:00:00","isManualEntry":true}"# + "\n"
        let r = try Corsano.run(["cuff", "ingest", "--anchor-device", "2025-01-01T00:00:00",
                                 "--anchor-phone", "2026-01-01T00:00:00Z", "--tz", "Etc/UTC"], stdin: input)
        #expect(r.status == 0)
        #expect(r.lines == [#"{"systolic":120,"diastolic":80,"pulse":60,"measuredAt":"2026-01-01T10:00:00Z","deviceTime":"2026-01-01T10:00:00","isManualEntry":true}"#])
        #expect(r.stderr == "corsano: cuff ingest: manual entries' naive stamps read in zone Etc/UTC (never shifted by the anchor; --tz to choose)\n"
            + "corsano: cuff ingest: read 1, written 1, skipped 0, dropped 0, rejected 0, manual 1\n")
    }

    @Test func bleCaptureTimeThatIsNotRFC3339IsRejectedNamingReceivedAt() throws {
        let input = "notatime\t00780050005d00\n2026-11-29T10:00:05Z\t00780050005d00\n"
        let r = try Corsano.run(["cuff", "ingest", "--from", "ble"], stdin: input)
        #expect(r.status == 65)
        #expect(r.lines == [#"{"systolic":120,"diastolic":80,"meanArterialPressure":93,"receivedAt":"2026-11-29T10:00:05Z","isManualEntry":false}"#])
        #expect(r.stderr == "<stdin>:1: receivedAt: 'notatime' (the capture's TIME column) is not an RFC 3339 time\n"
            + "corsano: cuff ingest: read 2, written 1, skipped 0, dropped 0, rejected 1, unstamped 1\n")
    }

    @Test(arguments: [("csv/omblepy-user1.csv", 4, "read 4, written 4, skipped 0, dropped 0, rejected 0; layout: omblepy"),
                      ("csv/omron-connect-report.csv", 4, "read 4, written 4, skipped 0, dropped 0, rejected 0; layout: omron-connect-report"),
                      ("csv/withings-bp.csv", 3, "read 4, written 3, skipped 1 (no pressure values: 1), dropped 0, rejected 0; layout: withings"),
                      ("csv/sbm69.csv", 2, "read 2, written 2, skipped 0, dropped 0, rejected 0; layout: sbm69"),
                      ("csv/bpm-app.csv", 2, "read 2, written 2, skipped 0, dropped 0, rejected 0; layout: bpm-app")])
    func everyCSVFixtureAutoDetectedAndRead(_ file: String, _ count: Int, _ summary: String) throws {
        for from in ["auto", "csv"] {
            let r = try Corsano.run(["cuff", "ingest", "--from", from, "--tz", "UTC", Self.fixture(file)])
            #expect(r.status == 0)
            #expect(r.lines.count == count)
            #expect(r.stderr.hasSuffix("corsano: cuff ingest: \(summary)\n"))
        }
    }

    @Test func bleVectorsRejectWithFileLineAndRejectsFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let capture = dir.appendingPathComponent("capture.txt"), rejects = dir.appendingPathComponent("rejects.jsonl")
        try """
        2026-11-29T10:00:01Z\t2A36 00d7f000000000
        2026-11-29T10:00:40Z\t2A35 04-78-00-50-00-5a-00-48-00
        0x16 FF07 FF07 FF07 EA07 0B1D 0A0000 FF07 0000
        01a0f06bf07cf0

        """.write(to: capture, atomically: true, encoding: .utf8)
        let r = try Corsano.run(["cuff", "ingest", "--rejects", rejects.path, capture.path])
        #expect(r.status == 65)
        #expect(r.lines == [
            #"{"systolic":120,"diastolic":80,"pulse":72,"meanArterialPressure":90,"receivedAt":"2026-11-29T10:00:40Z","isManualEntry":false}"#,
            #"{"systolic":120,"diastolic":80,"meanArterialPressure":93,"isManualEntry":false}"#,
        ])
        #expect(r.stderr == "\(capture.path):3: systolic: not a number (SFLOAT NaN)\ncorsano: cuff ingest: read 4, written 2, skipped 1 (intermediate cuff pressure (0x2A36): 1), dropped 0, rejected 1, unstamped 2\n")
        let rejected = try String(contentsOf: rejects, encoding: .utf8)
        #expect(rejected == #"{"source":"\#(capture.path)","line":3,"reason":"malformed","error":"systolic: not a number (SFLOAT NaN)","raw":"0x16 FF07 FF07 FF07 EA07 0B1D 0A0000 FF07 0000"}"# + "\n")
    }

    @Test func strictStopsAtFirstRejectAfterWritingEarlierRecords() throws {
        let input = "{\"systolic\":120,\"diastolic\":80}\n{\"systolic\":80,\"diastolic\":120}\n{\"systolic\":121,\"diastolic\":80}\n"
        let lenient = try Corsano.run(["cuff", "ingest"], stdin: input)
        #expect(lenient.status == 65)
        #expect(lenient.lines.count == 2)
        #expect(lenient.stderr.hasPrefix("<stdin>:2: systolic: 80 mmHg not above diastolic 120 mmHg\n"))
        let strict = try Corsano.run(["cuff", "ingest", "--strict", "-"], stdin: input)
        #expect(strict.status == 65)
        #expect(strict.lines == [#"{"systolic":120,"diastolic":80,"isManualEntry":false}"#])
    }

    @Test func missingFileExits66BeforeAnyOutput() throws {
        let r = try Corsano.run(["cuff", "ingest", Self.fixture("jsonl/session-replay.jsonl"), "/nonexistent/dump.csv"])
        #expect(r.status == 66)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "corsano: /nonexistent/dump.csv: No such file or directory\n")
        let dir = try Corsano.run(["cuff", "ingest", "--from", "jsonl", Self.fixture("jsonl/session-replay.jsonl"), "/tmp"])
        // A directory is refused at open like a missing file: before any output.
        #expect(dir.status == 66)
        #expect(dir.stdout.isEmpty)
        #expect(dir.stderr == "corsano: /tmp: Is a directory\n")
    }

    @Test func undetectableFormatExits64AskingForFrom() throws {
        let r = try Corsano.run(["cuff", "ingest"], stdin: "120/80 pulse 60\n")
        #expect(r.status == 64)
        #expect(r.stderr.contains("<stdin>: cannot tell the input format"))
        #expect(r.stderr.contains("--from"))
        let forced = try Corsano.run(["cuff", "ingest", "--from", "ble"], stdin: "120/80 pulse 60\n")
        #expect(forced.status == 65)
        #expect(forced.stderr.hasPrefix("<stdin>:1: payload: '/' at column 4 is not a hex digit\n"))
    }

    @Test(arguments: [
        (["--anchor-device", "2025-01-01T00:03:10"], "--anchor-phone"),
        (["--anchor-phone", "2026-11-29T10:00:05Z"], "--anchor-device"),
        (["--anchor-device", "2025-13-01T00:00:00", "--anchor-phone", "2026-11-29T10:00:05Z"], "--anchor-device"),
        (["--tz", "Mars/Olympus"], "--tz"),
        (["--from", "xml"], "--from"),
    ])
    func usageErrorsNameTheFlag(_ args: [String], _ flag: String) throws {
        let r = try Corsano.run(["cuff", "ingest"] + args, stdin: "{\"systolic\":120,\"diastolic\":80}\n")
        #expect(r.status == 64)
        #expect(r.stderr.contains(flag))
        #expect(r.stdout.isEmpty)
    }

    @Test func deriveMapFillsTheSeedFormulaOnlyWhenAbsent() throws {
        let input = "{\"systolic\":121,\"diastolic\":79}\n{\"systolic\":120,\"diastolic\":80,\"meanArterialPressure\":95}\n"
        let r = try Corsano.run(["cuff", "ingest", "--derive-map"], stdin: input)
        #expect(r.lines == [#"{"systolic":121,"diastolic":79,"meanArterialPressure":93,"isManualEntry":false}"#,
                            #"{"systolic":120,"diastolic":80,"meanArterialPressure":95,"isManualEntry":false}"#])
    }

    @Test func cuffFailureLinesArePassedOnInOrder() throws {
        let input = "{\"systolic\":120,\"diastolic\":80}\n{\"error\":\"noReading\"}\n{\"error\":\"cuff \\\"E3\\\"\"}\n"
        let r = try Corsano.run(["cuff", "ingest"], stdin: input)
        #expect(r.status == 0)
        #expect(r.lines == [#"{"systolic":120,"diastolic":80,"isManualEntry":false}"#, #"{"error":"noReading"}"#, #"{"error":"cuff \"E3\""}"#])
        #expect(r.stderr == "corsano: cuff ingest: read 3, written 3, skipped 0, dropped 0, rejected 0, unstamped 1\n")
    }

    @Test func closedStdoutExits141Quietly() throws {
        let big = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-big-\(UUID().uuidString).jsonl")
        let line = #"{"systolic":120,"diastolic":80,"pulse":60,"measuredAt":"2026-11-29T10:00:00Z","isManualEntry":false}"# + "\n"
        try String(repeating: line, count: 50_000).write(to: big, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: big) }
        let r = try Shell.run("bash", ["-c", #""$0" cuff ingest "$1" | head -1 >/dev/null; echo "${PIPESTATUS[0]}""#, Corsano.binary.path, big.path])
        #expect(r.stdout == "141\n")
        #expect(r.stderr.isEmpty)
    }
}
