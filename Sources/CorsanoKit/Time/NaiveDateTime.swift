/// A cuff-clock stamp: a calendar date and time with no zone (`YYYY-MM-DDTHH:MM:SS`).
///
/// Cuff clocks drift and know no zone, so these are only ever compared with each other as
/// elapsed seconds (DESIGN "Host-side cuff rules", rule 1): no host time zone or DST applies.
public struct NaiveDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    /// Creates a stamp; nil when the fields are not a real calendar date and time.
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        guard CivilCalendar.isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
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
