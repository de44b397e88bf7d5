/// Dates and times as cuff exports write them.
///
/// Dates: ISO `2026-11-20` (also `/`), `20.11.2026`, `Nov 21 2026`, `Nov 21, 2026`,
/// `21 Nov 2026` (English month names, short or full). Times: `21:12`, `21:12:31`, `9:12 PM`,
/// `09:12:31 pm`, an optional fraction, and for ISO date-times `Z` or `±HH:MM`. Date and time
/// in one cell are separated by `T`, a space or `, `. Slash dates in day/month order are not
/// read: `03/04/2026` is ambiguous between locales.
public enum CSVTimestamp {
    /// A parsed stamp: a real instant (a zone or offset was given) or naive wall time.
    public enum Stamp: Equatable, Sendable {
        case instant(Instant)
        case naive(NaiveDateTime)
    }

    /// Parses a date (and time) cell, with an optional separate time cell.
    /// nil when the text is no date this reader knows or has no time of day.
    public static func parse(_ text: String, time: String? = nil) -> Stamp? {
        let trimmed = text.trimmingBlanks
        if time == nil, let instant = RFC3339.parseInstant(trimmed) { return .instant(instant) }
        var scanner = TimestampScanner(Array(trimmed.utf8))
        guard let date = scanner.date() else { return nil }
        var clock: (Int, Int, Int)?
        if let time {
            guard scanner.atEnd else { return nil }
            var timeScanner = TimestampScanner(Array(time.trimmingBlanks.utf8))
            clock = timeScanner.timeOfDay()
            guard timeScanner.atEnd else { return nil }
        } else {
            guard scanner.dateTimeSeparator() else { return nil }
            clock = scanner.timeOfDay()
            guard scanner.atEnd else { return nil }
        }
        guard let (h, m, s) = clock,
              let naive = NaiveDateTime(year: date.0, month: date.1, day: date.2, hour: h, minute: m, second: s)
        else { return nil }
        return .naive(naive)
    }

    /// A Unix time in milliseconds (`1795677734000`); nil when not an integer within years 1-9999.
    public static func unixMilliseconds(_ text: String) -> Instant? {
        let t = text.trimmingBlanks
        guard let ms = Int64(t), ms >= -62_135_596_800_000, ms <= 253_402_300_799_999 else { return nil }
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        return Instant(secondsSinceEpoch: seconds, nanoseconds: Int32(ms - seconds * 1000) * 1_000_000)
    }
}
