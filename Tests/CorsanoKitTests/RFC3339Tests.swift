import CorsanoKit
import Testing

@Suite struct RFC3339Tests {
    @Test(arguments: [
        ("2026-11-29T19:00:40Z", "2026-11-29T21:00:40+02:00"),
        ("2026-11-29T19:00:40Z", "2026-11-29T19:00:40.000Z"),
        ("2026-11-29T19:00:40Z", "2026-11-29 19:00:40z"),
        ("2026-11-29T19:00:40Z", "2026-11-29T14:30:40-04:30"),
    ])
    func sameInstant(_ a: String, _ b: String) throws {
        let x = try #require(RFC3339.parseInstant(a))
        let y = try #require(RFC3339.parseInstant(b))
        #expect(x == y)
    }

    @Test(arguments: ["2026-02-29T00:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T10:00:00", "2026-11-29T10:00:00+2:00",
                      "2026-11-29T10:00:00.Z", "x", "", "2026-13-01T00:00:00Z", "2026-11-29T10:00:00Zjunk"])
    func rejectsMalformed(_ text: String) {
        #expect(RFC3339.parseInstant(text) == nil)
    }

    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0)), ("2026-11-29T10:00:05Z", Int64(1_795_946_405)),
        ("1969-12-31T23:59:59Z", Int64(-1)), ("2000-02-29T12:00:00Z", Int64(951_825_600)),
    ])
    func epochSeconds(_ text: String, _ seconds: Int64) throws {
        let t = try #require(RFC3339.parseInstant(text))
        #expect(t.secondsSinceEpoch == seconds)
        #expect(RFC3339.format(t) == text)
    }

    @Test func fractionKeptAndTrimmed() throws {
        let t = try #require(RFC3339.parseInstant("2026-11-29T10:00:05.1200000009Z"))
        #expect(t.nanoseconds == 120_000_000)
        #expect(RFC3339.format(t) == "2026-11-29T10:00:05.12Z")
    }

    @Test func naiveStampsAreElapsedSecondsWithoutZone() throws {
        let device = try #require(RFC3339.parseNaive("2025-01-01T00:03:10"))
        let record = try #require(RFC3339.parseNaive("2025-01-01T00:04:00"))
        #expect(record.seconds(since: device) == 50)
        #expect(device.description == "2025-01-01T00:03:10")
        #expect(RFC3339.parseNaive("2025-01-01T00:03:10Z") == nil)
    }
}
