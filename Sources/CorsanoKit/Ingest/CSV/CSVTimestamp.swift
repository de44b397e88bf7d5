/// Dates and times as cuff exports write them.
///
/// Dates: ISO `2026-11-20` (also `/` and `.` after a 4-digit year), `20.11.2026` (day first),
/// `20/11/2026` and `11/20/2026` (order from `CSVDateOrder`), `Nov 21 2026`, `Nov 21, 2026`,
/// `21 Nov 2026`, `21. November 2026`, `21 de noviembre de 2026`, `11/21, 2026` (month first, OMRON
/// connect PT) (month names in English and the
/// project's 17 locales, `CSVMonthNames`). Times: `21:12`, `21:12:31`, `9:12 PM`, `09:12:31 pm`,
/// an optional fraction, and for ISO date-times `Z` or `±HH:MM`. Date and time in one cell are
/// separated by `T`, spaces, `, ` or ` - ` (`25.06.2025 - 19:14`).
public enum CSVTimestamp {
    /// A parsed stamp: a real instant (a zone or offset was given) or naive wall time.
    public enum Stamp: Equatable, Sendable {
        case instant(Instant)
        case naive(NaiveDateTime)
    }

    /// What a date cell tells about the day/month order of its file.
    public enum OrderEvidence: Equatable, Sendable {
        /// Nothing: the date has its year first, a month name, or dots (day first by convention).
        case none
        /// `03/04/2026`: both orders give a real date.
        case ambiguous
        /// Only this order gives a real date (a day above 12).
        case implies(CSVDateOrder)
    }

    /// The day/month order evidence of a date (or date-time) cell.
    public static func evidence(_ text: String) -> OrderEvidence {
        var scanner = TimestampScanner(Array(text.trimmingBlanks.utf8))
        guard case .yearLast(let a, let b, let y)? = scanner.date() else { return .none }
        let dmy = CivilCalendar.isValid(year: y, month: b, day: a, hour: 0, minute: 0, second: 0)
        let mdy = CivilCalendar.isValid(year: y, month: a, day: b, hour: 0, minute: 0, second: 0)
        switch (dmy, mdy) {
        case (true, true): return a == b ? .none : .ambiguous
        case (true, false): return .implies(.dmy)
        case (false, true): return .implies(.mdy)
        case (false, false): return .none
        }
    }

    /// Parses a date (and time) cell, with an optional separate time cell. `order` reads
    /// `a/b/yyyy` dates; without it only a date that is real in one order is read. nil when the
    /// text is no date this reader knows, has no time of day, or does not fit `order`.
    public static func parse(_ text: String, time: String? = nil, order: CSVDateOrder? = nil) -> Stamp? {
        let trimmed = text.trimmingBlanks
        if time == nil, let instant = RFC3339.parseInstant(trimmed) { return .instant(instant) }
        var scanner = TimestampScanner(Array(trimmed.utf8))
        guard let parts = scanner.date(), let (year, month, day) = resolve(parts, order: order) else { return nil }
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
              let naive = NaiveDateTime(year: year, month: month, day: day, hour: h, minute: m, second: s)
        else { return nil }
        return .naive(naive)
    }

    static func resolve(_ parts: TimestampScanner.DateParts, order: CSVDateOrder?) -> (Int, Int, Int)? {
        switch parts {
        case .known(let y, let m, let d): return (y, m, d)
        case .yearLast(let a, let b, let y):
            func valid(_ m: Int, _ d: Int) -> Bool { CivilCalendar.isValid(year: y, month: m, day: d, hour: 0, minute: 0, second: 0) }
            switch order {
            case .dmy?: return (y, b, a)
            case .mdy?: return (y, a, b)
            case .ymd?: return nil
            case nil:
                if a == b { return (y, a, b) }
                switch (valid(b, a), valid(a, b)) {
                case (true, false): return (y, b, a)
                case (false, true): return (y, a, b)
                default: return nil
                }
            }
        }
    }

    /// A Unix time in seconds (10 digits) or milliseconds (13 digits) between 2000 and 2100
    /// (`CSVStampKind.span`), as a column of epochs reads; nil for anything else.
    public static func unixEpoch(_ text: String) -> Instant? {
        switch CSVStampKind.of(text) {
        case .epochSeconds?: return Int64(text.trimmingBlanks).map { Instant(secondsSinceEpoch: $0) }
        case .epochMilliseconds?: return unixMilliseconds(text)
        default: return nil
        }
    }

    /// A Unix time in milliseconds (`1795677734000`); nil when not an integer within years 1-9999.
    public static func unixMilliseconds(_ text: String) -> Instant? {
        let t = text.trimmingBlanks
        guard let ms = Int64(t), ms >= -62_135_596_800_000, ms <= 253_402_300_799_999 else { return nil }
        let seconds = ms >= 0 ? ms / 1000 : (ms - 999) / 1000
        return Instant(secondsSinceEpoch: seconds, nanoseconds: Int32(ms - seconds * 1000) * 1_000_000)
    }
}
