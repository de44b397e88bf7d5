import CorsanoKit
import Foundation
import Testing

@Suite struct CuffIngesterTests {
    static let anchor = ClockAnchor(device: RFC3339.parseNaive("2025-01-01T00:03:10")!,
                                    phone: RFC3339.parseInstant("2026-11-29T10:00:05Z")!)

    @Test func sessionReplayAnchoredInEveryChunkSize() throws {
        let bytes = try Fixtures.bytes("jsonl/session-replay.jsonl")
        let want = [
            #"{"systolic":133,"diastolic":86,"pulse":71,"measuredAt":"2026-11-27T18:11:55Z","deviceTime":"2024-12-30T08:15:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
            #"{"systolic":126,"diastolic":84,"pulse":69,"measuredAt":"2026-11-29T05:36:55Z","deviceTime":"2024-12-31T19:40:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
            #"{"systolic":128,"diastolic":82,"pulse":66,"measuredAt":"2026-11-29T10:00:55Z","deviceTime":"2025-01-01T00:04:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
            #"{"systolic":128,"diastolic":82,"pulse":66,"measuredAt":"2026-11-29T10:00:55Z","deviceTime":"2025-01-01T00:04:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
            #"{"systolic":124,"diastolic":80,"pulse":64,"measuredAt":"2026-11-29T10:02:55Z","deviceTime":"2025-01-01T00:06:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
        ]
        for chunk in [1, 2, 3, 7, 64, 101, 4096] {
            for format in [nil, IngestFormat.jsonl] {
                let (sink, ingester) = try IngestRun.run(bytes, chunk: chunk, format: format, anchor: Self.anchor)
                #expect(sink.lines == want, "chunk \(chunk)")
                #expect(ingester.counts == { var c = RecordCounts(); c.read = 5; c.written = 5; return c }())
                #expect(!ingester.normalizer.usedZone)
            }
        }
    }

    @Test(arguments: [("csv/omblepy-user1.csv", IngestFormat.csv, 4), ("csv/withings-bp.csv", .csv, 3),
                      ("csv/sbm69.csv", .csv, 2), ("csv/omron-connect-report.csv", .csv, 4), ("csv/bpm-app.csv", .csv, 2),
                      ("jsonl/session-replay.jsonl", .jsonl, 5)])
    func detectsEachFixture(_ file: String, _ format: IngestFormat, _ written: Int) throws {
        let bytes = try Fixtures.bytes(file)
        #expect(IngestFormat.detect(firstLine: Array(bytes.prefix { $0 != 10 && $0 != 13 })) == format)
        let (sink, _) = try IngestRun.run(bytes, chunk: 5)
        #expect(sink.lines.count == written)
    }

    @Test func bleCaptureWithCommentsTimesAndIntermediatePressure() throws {
        let text = "# cuff A\n2026-11-29T10:00:01Z\t2A36 00d7f000000000\n2026-11-29T10:00:40Z\t2A35 1e780050005a00e807030f0e1e2d4800010100\n\n0x00 0x78 0x00\n"
        let (sink, ingester) = try IngestRun.run(text, chunk: 3)
        #expect(sink.lines == [#"{"systolic":120,"diastolic":80,"pulse":72,"meanArterialPressure":90,"measuredAt":"2024-03-15T14:30:45Z","deviceTime":"2024-03-15T14:30:45","receivedAt":"2026-11-29T10:00:40Z","isManualEntry":false,"userId":1,"status":{"bodyMovement":true,"cuffTooLoose":false,"irregularPulse":false,"pulseRateRange":"withinRange","improperPosition":false}}"#])
        #expect(sink.rejects == [RejectRecord(source: "in", line: 5, reason: "malformed", error: "payload: 3 bytes, shorter than flags + systolic, diastolic, MAP (7 bytes)", raw: "0x00 0x78 0x00")])
        #expect(ingester.counts.summary == "read 3, written 1, skipped 1 (intermediate cuff pressure (0x2A36): 1), dropped 0, rejected 1")
    }

    @Test func byteOrderMarkBeforeAJSONLineIsSkipped() throws {
        let (sink, _) = try IngestRun.run(Array("\u{FEFF}{\"systolic\":120,\"diastolic\":80}\n".utf8), chunk: 2)
        #expect(sink.lines == [#"{"systolic":120,"diastolic":80,"isManualEntry":false}"#])
        #expect(sink.rejects.isEmpty)
    }

    @Test func unknownFormatAsksForFrom() {
        #expect(throws: IngestError.unknownFormat(source: "in", firstLine: "hello world")) {
            try IngestRun.run("\n\nhello world\n{\"systolic\":1}\n")
        }
    }

    @Test func emptyInputIsNoRecordsAndNoError() throws {
        let (sink, ingester) = try IngestRun.run("\n \n")
        #expect(sink.lines.isEmpty && sink.rejects.isEmpty && ingester.counts.read == 0)
    }

    @Test func everyRecordIsWrittenOrRejectedWithFileLineField() throws {
        let text = """
        {"systolic":120,"diastolic":80,"pulse":60,"measuredAt":"2026-11-29T10:00:00Z","isManualEntry":false,"source":"omron"}
        {"systolic":"120","diastolic":80}
        {"systolic":400,"diastolic":80}
        not json
        {"error":"noReading"}
        {"systolic":120,"diastolic":80,"meanArterialPressure":150,"pulse":300}
        {"systolic":120,"diastolic":80,"meanArterialPressure":150}

        """
        let (sink, ingester) = try IngestRun.run(text, chunk: 11, deriveMAP: true)
        #expect(sink.lines == [
            #"{"systolic":120,"diastolic":80,"pulse":60,"meanArterialPressure":93,"measuredAt":"2026-11-29T10:00:00Z","isManualEntry":false,"source":"omron"}"#,
            "error noReading",
            #"{"systolic":120,"diastolic":80,"meanArterialPressure":93,"isManualEntry":false}"#,
        ])
        #expect(sink.rejects.map(\.message) == [
            #"in:2: field "systolic": not an integer"#,
            "in:3: systolic: 400 mmHg outside 50-300",
            "in:4: not valid JSON",
            "in:6: pulse: 300 bpm outside 20-250",
        ])
        #expect(sink.rejects[2].raw == "not json")
        #expect(sink.notes == ["in:7: meanArterialPressure: 150 mmHg not between diastolic 80 and systolic 120; dropped as not reported"])
        #expect(ingester.counts.summary == "read 7, written 3, skipped 0, dropped 0, rejected 4, unstamped 1")
    }

    @Test func strictStopsAtTheFirstReject() throws {
        let text = "{\"systolic\":120,\"diastolic\":80}\n{\"systolic\":20,\"diastolic\":80}\n{\"systolic\":121,\"diastolic\":80}\n"
        let (sink, ingester) = try IngestRun.run(text, strict: true)
        #expect(sink.lines.count == 1)
        #expect(sink.rejects.count == 1)
        #expect(ingester.stoppedAtReject)
        #expect(ingester.counts.read == 2)
    }

    @Test func overlongLineIsRejectedNotBuffered() throws {
        let text = "{\"systolic\":120,\"diastolic\":80}\n" + String(repeating: "0", count: LineReader.defaultMaxLineLength + 10) + "\n"
        let (sink, _) = try IngestRun.run(text, format: .ble)
        #expect(sink.rejects.map(\.message) == ["in:1: payload: '{' at column 1 is not a hex digit", "in:2: line: 1048586 bytes, longer than 1048576"])
    }

    @Test func manualEntriesAreNeverShiftedByTheAnchor() throws {
        let text = """
        {"systolic":120,"diastolic":80,"deviceTime":"2026-11-29T11:00:00","isManualEntry":true}
        {"systolic":120,"diastolic":80,"deviceTime":"2025-01-01T00:04:00","isManualEntry":false}

        """
        let (sink, ingester) = try IngestRun.run(text, anchor: Self.anchor, zone: ZoneReader(identifier: "Europe/Berlin")!)
        #expect(sink.lines == [
            #"{"systolic":120,"diastolic":80,"measuredAt":"2026-11-29T10:00:00Z","deviceTime":"2026-11-29T11:00:00","isManualEntry":true}"#,
            #"{"systolic":120,"diastolic":80,"measuredAt":"2026-11-29T10:00:55Z","deviceTime":"2025-01-01T00:04:00","isManualEntry":false,"anchor":{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}}"#,
        ])
        #expect(ingester.normalizer.usedZone)
    }

    @Test func outputIsFlushedBeforeEveryRead() throws {
        let (sink, _) = try IngestRun.run(Array("{\"systolic\":120,\"diastolic\":80}\n".utf8), chunk: 4, format: .jsonl)
        #expect(sink.reads >= 9)
    }
}
