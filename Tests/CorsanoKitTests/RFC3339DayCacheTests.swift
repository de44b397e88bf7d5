@testable import CorsanoKit
import Testing

/// The day cache must accept and reject exactly what `RFC3339.parseInstant` does, whatever
/// stamp came before (a matching date skips the calendar check, never the time-of-day one).
@Suite struct RFC3339DayCacheTests {
    static let stamps = [
        "2026-11-01T00:00:00Z", "2026-11-01T00:01:00Z", "2026-11-01T23:59:59.5Z", "2026-11-01T24:00:00Z",
        "2026-11-01T10:60:00Z", "2026-11-01T10:00:60Z", "2026-11-01t10:00:00z", "2026-11-01 10:00:00+02:00",
        "2026-11-01X10:00:00Z", "2026-11-01T1a:00:00Z", "2026-11-01T10-00:00Z", "2026-11-01T10:00:00",
        "2026-11-01T10:00:00.Z", "2026-11-01T10:00:00Zjunk", "2026-11-01T10:00", "2026-11-02T00:00:00Z",
        "2026-02-29T00:00:00Z", "2026-02-29T00:00:01Z", "2024-02-29T00:00:00Z", "2024-02-29T12:00:00-04:30",
        "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z", "2026-13-01T00:00:00Z",
        "2026-11-31T00:00:00Z", "2026-11-01T00:00:00+24:00", "", "2026-11-01",
    ]

    @Test func agreesWithParseInstantAfterEveryStamp() {
        for before in Self.stamps {
            for text in Self.stamps {
                var cache = RFC3339DayCache()
                var warm = Array(before.utf8), bytes = Array(text.utf8)
                _ = warm.withUnsafeBufferPointer { cache.parseInstant($0) }
                let cached = bytes.withUnsafeBufferPointer { cache.parseInstant($0) }
                let again = bytes.withUnsafeBufferPointer { cache.parseInstant($0) }
                #expect(cached == RFC3339.parseInstant(text), "\(text) after \(before)")
                #expect(again == RFC3339.parseInstant(text), "\(text) twice after \(before)")
            }
        }
    }

    @Test func sameDayStampsKeepTheirTimeOfDay() throws {
        var cache = RFC3339DayCache()
        var a = Array("2026-11-01T00:00:00Z".utf8), b = Array("2026-11-01T13:14:15.25+01:00".utf8)
        let first = try #require(a.withUnsafeBufferPointer { cache.parseInstant($0) })
        let second = try #require(b.withUnsafeBufferPointer { cache.parseInstant($0) })
        #expect(first == Instant(secondsSinceEpoch: 1_793_491_200))
        #expect(second == Instant(secondsSinceEpoch: 1_793_491_200 + 12 * 3600 + 14 * 60 + 15, nanoseconds: 250_000_000))
    }
}
