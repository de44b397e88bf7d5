/// A cuff-clock stamp: a calendar date and time with no zone (`YYYY-MM-DDTHH:MM:SS`).
///
/// Cuff clocks drift and know no zone, so these are only ever compared with each other as
/// elapsed seconds (docs/design.md "Host-side cuff rules", rule 1): no host time zone or DST applies.
public struct NaiveDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    /// Creates a stamp; nil when the fields are not a real calendar date and time.
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        guard CivilCalendar.isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
    }

    /// The stamp `seconds` after 1970-01-01T00:00:00 on a naive clock; nil outside years 1-9999.
    public init?(secondsSinceEpoch seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        let (y, m, d) = CivilCalendar.civilFromDays(days)
        guard (1...9999).contains(y) else { return nil }
        self.init(year: y, month: m, day: d, hour: rest / 3600, minute: rest / 60 % 60, second: rest % 60)
    }

    /// This stamp moved by `seconds` on the same clock; nil outside years 1-9999.
    public func adding(seconds: Int64) -> NaiveDateTime? {
        let (sum, overflow) = secondsSinceEpoch.addingReportingOverflow(seconds)
        return overflow ? nil : NaiveDateTime(secondsSinceEpoch: sum)
    }

    /// ISO day of the week, 1 (Monday) to 7 (Sunday).
    public var isoWeekday: Int {
        let days = CivilCalendar.daysFromCivil(year: year, month: month, day: day)
        // 1970-01-01 was a Thursday (4).
        return Int(((days % 7) + 7 + 3) % 7) + 1
    }

    /// Seconds since 1970-01-01T00:00:00 on the same naive clock.
    public var secondsSinceEpoch: Int64 {
        CivilCalendar.daysFromCivil(year: year, month: month, day: day) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Elapsed seconds from `other` to `self` on the same clock.
    public func seconds(since other: NaiveDateTime) -> Int64 {
        secondsSinceEpoch - other.secondsSinceEpoch
    }

    /// This stamp read as UTC wall time.
    public var asUTC: Instant { Instant(secondsSinceEpoch: secondsSinceEpoch) }

    public static func < (lhs: NaiveDateTime, rhs: NaiveDateTime) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }

    /// `YYYY-MM-DDTHH:MM:SS`.
    public var description: String {
        var out: [UInt8] = []
        out.reserveCapacity(19)
        RFC3339.append(self, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
