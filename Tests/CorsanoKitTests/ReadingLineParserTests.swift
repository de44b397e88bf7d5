import CorsanoKit
import Foundation
import Testing

@Suite struct ReadingLineParserTests {
    static func instant(_ text: String) -> Instant? { RFC3339.parseInstant(text) }
    static func naive(_ text: String) -> NaiveDateTime? { RFC3339.parseNaive(text) }

    static func reading(_ line: String) throws -> CuffReading {
        let parsed = try ReadingLineParser.parse(line).get()
        guard case .reading(let r) = parsed else { throw ReadingLineError.malformed("not a reading: \(parsed)") }
        return r
    }

    @Test func sessionReplayFixtureParses() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/jsonl/session-replay.jsonl")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        let expected: [(Int, Int, Int, String)] = [
            (133, 86, 71, "2024-12-30T08:15:00"), (126, 84, 69, "2024-12-31T19:40:00"),
            (128, 82, 66, "2025-01-01T00:04:00"), (128, 82, 66, "2025-01-01T00:04:00"),
            (124, 80, 64, "2025-01-01T00:06:00"),
        ]
        #expect(lines.count == expected.count)
        for (line, (sys, dia, pulse, device)) in zip(lines, expected) {
            let r = try Self.reading(line)
            #expect(r == CuffReading(systolic: sys, diastolic: dia, pulse: pulse, deviceTime: Self.naive(device)))
        }
    }

    @Test func fixtureThroughLineReaderInEveryChunkSize() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/jsonl/session-replay.jsonl")
        let bytes = Array(try Data(contentsOf: url))
        for chunk in 1...bytes.count {
            let reader = LineReader(source: MemoryByteSource(bytes, chunk: chunk))
            var systolics: [Int] = []
            while case .line(_, let line)? = try reader.next() {
                if case .success(.reading(let r)) = ReadingLineParser.parse(line) { systolics.append(r.systolic) }
            }
            #expect(systolics == [133, 126, 128, 128, 124], "chunk \(chunk)")
        }
    }

    @Test func benchGeneratorShape() throws {
        let r = try Self.reading(#"{"systolic":151,"diastolic":92,"pulse":77,"measuredAt":"2026-11-01T00:03:00Z","isManualEntry":false}"#)
        #expect(r == CuffReading(systolic: 151, diastolic: 92, pulse: 77, measuredAt: Self.instant("2026-11-01T00:03:00Z")))
    }

    @Test func everyFieldAndProvenanceInOrder() throws {
        let line = #"{ "systolic" : 121, "diastolic":79,"pulse":64,"meanArterialPressure":95,"measuredAt":"2026-11-29T12:15:00+02:00","deviceTime":"2025-01-01T00:04:00","receivedAt":"2026-11-29T10:16:02Z","isManualEntry":true,"userId":2,"status":null,"source":"ble","ok":false} "#
        let r = try Self.reading(line)
        #expect(r == CuffReading(
            systolic: 121, diastolic: 79, pulse: 64, meanArterialPressure: 95,
            measuredAt: Self.instant("2026-11-29T10:15:00Z"), deviceTime: Self.naive("2025-01-01T00:04:00"),
            receivedAt: "2026-11-29T10:16:02Z", isManualEntry: true,
            provenance: [ProvenanceField(name: "userId", rawJSON: "2"), ProvenanceField(name: "status", rawJSON: "null"),
                         ProvenanceField(name: "source", rawJSON: #""ble""#), ProvenanceField(name: "ok", rawJSON: "false")]))
    }

    @Test func pulseAndMAPOptionalNullIsAbsent() throws {
        #expect(try Self.reading(#"{"systolic":120,"diastolic":80}"#) == CuffReading(systolic: 120, diastolic: 80, pulse: nil))
        #expect(try Self.reading(#"{"systolic":120,"diastolic":80,"pulse":null,"measuredAt":null}"#)
                == CuffReading(systolic: 120, diastolic: 80, pulse: nil))
    }

    /// Shapes the fast path leaves to JSONSerialization; the verdict must be the same reading.
    @Test(arguments: [
        #"{"systolic":1.21e2,"diastolic":80.0,"pulse":6.4E1}"#,
        #"{"systolic":121,"diastolic":80,"pulse":64,"note":"caf\u00e9 \"x\""}"#,
        #"{"systolic":121,"diastolic":80,"pulse":64,"meta":{"a":[1,2]}}"#,
        #"{"systolic":121,"diastolic":80,"pulse":64,"name":"Zoë"}"#,
        #"{"syst\u006flic":121,"diastolic":80,"pulse":64}"#,
    ])
    func fullParserCoversTheRest(_ line: String) throws {
        let r = try Self.reading(line)
        #expect(r.systolic == 121)
        #expect(r.diastolic == 80)
    }

    @Test func fullParserKeepsProvenanceAsJSON() throws {
        let r = try Self.reading(#"{"systolic":121,"diastolic":80,"meta":{"b":1,"a":[1,2]},"note":"a\"b"}"#)
        #expect(r.provenance == [ProvenanceField(name: "meta", rawJSON: #"{"a":[1,2],"b":1}"#),
                                 ProvenanceField(name: "note", rawJSON: #""a\"b""#)])
    }

    @Test(arguments: [
        ("", ReadingLineError.malformed("empty line")),
        ("   ", .malformed("empty line")),
        ("{", .malformed("not valid JSON")),
        (#"{"systolic":121,"diastolic":80} x"#, .malformed("not valid JSON")),
        ("[1,2]", .malformed("not a JSON object")),
        (#"{"diastolic":80}"#, .missingField("systolic")),
        (#"{"systolic":120}"#, .missingField("diastolic")),
        (#"{"systolic":"120","diastolic":80}"#, .invalidField("systolic", "not an integer")),
        (#"{"systolic":120.5,"diastolic":80}"#, .invalidField("systolic", "not an integer")),
        (#"{"systolic":true,"diastolic":80}"#, .invalidField("systolic", "not an integer")),
        (#"{"systolic":99999999999999999999,"diastolic":80}"#, .invalidField("systolic", "integer out of range")),
        (#"{"systolic":-9223372036854775809,"diastolic":80}"#, .invalidField("systolic", "integer out of range")),
        (#"{"systolic":9223372036854775808,"diastolic":80}"#, .invalidField("systolic", "integer out of range")),
        (#"{"systolic":18446744073709551615,"diastolic":80,"x":"\u0041"}"#, .invalidField("systolic", "integer out of range")),
        (#"{"systolic":120,"diastolic":80,"pulse":[64]}"#, .invalidField("pulse", "not an integer")),
        (#"{"systolic":120,"diastolic":80,"measuredAt":"2026-11-29 10:15"}"#, .invalidField("measuredAt", "not an RFC 3339 time")),
        (#"{"systolic":120,"diastolic":80,"measuredAt":"2026-02-30T10:15:00Z"}"#, .invalidField("measuredAt", "not an RFC 3339 time")),
        (#"{"systolic":120,"diastolic":80,"measuredAt":1764410100}"#, .invalidField("measuredAt", "not an RFC 3339 time")),
        (#"{"systolic":120,"diastolic":80,"deviceTime":"2025-01-01T00:04:00Z"}"#, .invalidField("deviceTime", "not a YYYY-MM-DDTHH:MM:SS time")),
        (#"{"systolic":120,"diastolic":80,"isManualEntry":"yes"}"#, .invalidField("isManualEntry", "not true or false")),
        (#"{"systolic":120,"diastolic":80,"receivedAt":5}"#, .invalidField("receivedAt", "not a string")),
        (#"{"error":5}"#, .invalidField("error", "not a string")),
    ])
    func rejectsNamingFieldAndReason(_ line: String, _ expected: ReadingLineError) {
        #expect(ReadingLineParser.parse(line) == .failure(expected))
    }

    @Test func integerEdgesNeverTrap() throws {
        #expect(try Self.reading(#"{"systolic":9223372036854775807,"diastolic":-9223372036854775808}"#)
                == CuffReading(systolic: .max, diastolic: .min, pulse: nil))
    }

    @Test(arguments: [
        (#"{"error":"noReading"}"#, CuffError.noReading),
        (#"{"error":"cuffDisconnected"}"#, .cuffDisconnected),
        (#"{"error":"cuff battery low"}"#, .unknown("cuff battery low")),
        (#"{"error":"E\u00e9"}"#, .unknown("Eé")),
    ])
    func cuffFailureLines(_ line: String, _ expected: CuffError) {
        #expect(ReadingLineParser.parse(line) == .success(.cuffFailure(expected)))
    }

    @Test func instantsCompareAsInstants() throws {
        let a = try Self.reading(#"{"systolic":120,"diastolic":80,"measuredAt":"2026-11-29T19:00:40Z"}"#)
        let b = try Self.reading(#"{"systolic":120,"diastolic":80,"measuredAt":"2026-11-29T21:00:40+02:00"}"#)
        let c = try Self.reading(#"{"systolic":120,"diastolic":80,"measuredAt":"2026-11-29T19:00:40.000Z"}"#)
        #expect(a.measuredAt == b.measuredAt)
        #expect(a.measuredAt == c.measuredAt)
        #expect(a.measuredAt == Instant(secondsSinceEpoch: 1_795_978_840))
    }
}
