/// A point in real (UTC) time, with nanosecond precision.
///
/// Compared as an instant: `19:00:40Z`, `21:00:40+02:00` and `19:00:40.000Z` are equal.
/// Parsed and formatted by hand (RFC 3339) because Foundation's ISO8601DateFormatter costs
/// ~90 µs a call, which dominates a cuff-dump pipeline.
public struct Instant: Hashable, Comparable, Sendable {
    /// Whole seconds since 1970-01-01T00:00:00Z (negative before).
    public var secondsSinceEpoch: Int64
    /// Fraction of a second, 0..<1_000_000_000.
    public var nanoseconds: Int32

    /// Creates an instant; `nanoseconds` must be in 0..<1e9.
    public init(secondsSinceEpoch: Int64, nanoseconds: Int32 = 0) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.nanoseconds = nanoseconds
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        (lhs.secondsSinceEpoch, lhs.nanoseconds) < (rhs.secondsSinceEpoch, rhs.nanoseconds)
    }

    /// Seconds from `other` to `self` (positive when `self` is later).
    public func seconds(since other: Instant) -> Double {
        // Same value without the division when the fractions match (the usual case: whole seconds).
        if nanoseconds == other.nanoseconds { return Double(secondsSinceEpoch &- other.secondsSinceEpoch) }
        return Double(secondsSinceEpoch &- other.secondsSinceEpoch)
            + Double(nanoseconds - other.nanoseconds) / 1_000_000_000
    }

    /// This instant moved by a whole number of seconds; nil when the result leaves Int64.
    public func adding(seconds: Int64) -> Instant? {
        let (sum, overflow) = secondsSinceEpoch.addingReportingOverflow(seconds)
        return overflow ? nil : Instant(secondsSinceEpoch: sum, nanoseconds: nanoseconds)
    }

    /// This instant moved by a fractional number of seconds (waits, timeouts).
    public func adding(interval: Double) -> Instant {
        let whole = interval.rounded(.down)
        var nanos = Int64(nanoseconds) + Int64(((interval - whole) * 1_000_000_000).rounded())
        var secs = secondsSinceEpoch &+ Int64(whole)
        if nanos >= 1_000_000_000 { nanos -= 1_000_000_000; secs &+= 1 }
        return Instant(secondsSinceEpoch: secs, nanoseconds: Int32(nanos))
    }
}
