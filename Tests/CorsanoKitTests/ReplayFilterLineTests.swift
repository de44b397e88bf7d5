import CorsanoKit
import Testing

/// `ReplayFilter.judge(line:now:validator:)`, the per-line path of `replay-filter`: usual lines
/// are judged on their essentials without a `CuffReading`, the rest through the full parser;
/// both must give the verdicts written out here, in input order over one seen-set.
@Suite struct ReplayFilterLineTests {
    static func at(_ text: String) -> Instant { RFC3339.parseInstant(text)! }

    static func key(_ at: String, _ sys: Int, _ dia: Int, _ pulse: Int?) -> SeenKey {
        SeenKey(measuredAt: Self.at(at), systolic: sys, diastolic: dia, pulse: pulse)
    }

    @Test func verdictsInOrder() throws {
        let filter = ReplayFilter(rules: HostRules(backdate: 90, maxReadingAge: 900, requestedAt: Self.at("2026-11-29T10:00:00Z")),
                                  seen: InMemorySeenSet())
        let cases: [(String, LineVerdict)] = [
            (#"{"systolic":120,"diastolic":80,"pulse":70,"measuredAt":"2026-11-29T10:00:30Z","isManualEntry":false}"#,
             .keep(key: Self.key("2026-11-29T10:00:30Z", 120, 80, 70))),
            // The same record: another spelling of the instant, a MAP and provenance do not matter.
            (#"{"measuredAt":"2026-11-29T12:00:30.000+02:00","meanArterialPressure":93,"pulse":70,"systolic":120,"diastolic":80,"userId":"u1","n":null,"ok":true}"#,
             .drop(.duplicate)),
            (#" { "systolic" : 120 , "diastolic":80,"pulse":71,"measuredAt":"2026-11-29T10:00:30Z" } "#,
             .keep(key: Self.key("2026-11-29T10:00:30Z", 120, 80, 71))),
            (#"{"systolic":120,"diastolic":80,"deviceTime":"2026-11-29T10:00:00"}"#, .drop(.unanchored)),
            (#"{"systolic":120,"diastolic":80,"measuredAt":null,"deviceTime":null,"pulse":null,"error":null}"#, .keep(key: nil)),
            (#"{"systolic":121,"diastolic":80,"measuredAt":"2026-11-29T09:58:29Z"}"#, .drop(.replayed)),
            (#"{"systolic":121,"diastolic":80,"measuredAt":"2026-11-29T09:58:30Z"}"#,
             .keep(key: Self.key("2026-11-29T09:58:30Z", 121, 80, nil))),
            // A stamped manual entry is a record of the past: replayed and duplicate apply;
            // age does not (2026-11-29T10:30:00Z is 29 minutes ahead, beyond 900 s, and kept).
            (#"{"systolic":120,"diastolic":80,"measuredAt":"2020-01-01T00:00:00Z","isManualEntry":true}"#, .drop(.replayed)),
            (#"{"systolic":122,"diastolic":80,"measuredAt":"2026-11-29T10:30:00Z","isManualEntry":true}"#,
             .keep(key: Self.key("2026-11-29T10:30:00Z", 122, 80, nil))),
            (#"{"systolic":122,"diastolic":80,"measuredAt":"2026-11-29T10:30:00Z","isManualEntry":true}"#, .drop(.duplicate)),
            (#"{"systolic":120,"diastolic":80,"measuredAt":"2026-11-29T10:16:01Z"}"#, .drop(.future, age: -901)),
            (#"{"systolic":301,"diastolic":80,"measuredAt":"2026-11-29T10:00:40Z"}"#,
             .drop(.invalid, detail: "systolic: 301 mmHg outside 50-300", field: "systolic")),
            (#"{"systolic":120,"diastolic":80,"pulse":251}"#, .drop(.invalid, detail: "pulse: 251 bpm outside 20-250", field: "pulse")),
            (#"{"error":"noReading"}"#, .cuffFailure(.noReading)),
            (#"{"systolic":"120","diastolic":80}"#, .malformed(.invalidField("systolic", "not an integer"))),
            (#"{"systolic":120,"diastolic":80,"isManualEntry":1}"#, .malformed(.invalidField("isManualEntry", "not true or false"))),
            (#"{"systolic":120,"diastolic":80,"measuredAt":"2026-02-30T10:00:00Z"}"#,
             .malformed(.invalidField("measuredAt", "not an RFC 3339 time"))),
            (#"{"systolic":120,"diastolic":80,"deviceTime":"2026-11-29T10:00:00Z"}"#,
             .malformed(.invalidField("deviceTime", "not a YYYY-MM-DDTHH:MM:SS time"))),
            (#"{"systolic":120}"#, .malformed(.missingField("diastolic"))),
            (#"{"systolic":120,"diastolic":80"#, .malformed(.malformed("not valid JSON"))),
            // Shapes for the full parser: nested provenance, an escape, an exponent.
            (#"{"diastolic":80,"x":{"a":[1,2.5]},"systolic":130,"pulse":60,"measuredAt":"2026-11-29T10:00:40.5Z"}"#,
             .keep(key: SeenKey(measuredAt: Instant(secondsSinceEpoch: Self.at("2026-11-29T10:00:40Z").secondsSinceEpoch,
                                                    nanoseconds: 500_000_000), systolic: 130, diastolic: 80, pulse: 60))),
            (#"{"systolic":1.3e2,"diastolic":80,"pulse":60,"measuredAt":"2026-11-29T10:00:40.500Z","note":"a\"b"}"#,
             .drop(.duplicate)),
        ]
        for (line, expected) in cases {
            var bytes = Array(line.utf8)
            let verdict = try bytes.withUnsafeMutableBytes {
                try filter.judge(line: UnsafeRawBufferPointer($0), now: Self.at("2026-11-29T10:01:00Z"), validator: .standard)
            }
            #expect(verdict == expected, "\(line)")
        }
    }
}
