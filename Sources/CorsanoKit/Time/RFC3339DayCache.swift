/// `RFC3339.parseInstant` for a stream of stamps that mostly share their date: remembers the
/// last valid `YYYY-MM-DD` bytes and their day number, so a stamp on the same day skips the
/// calendar check and `daysFromCivil` (the hot path of `replay-filter`, whose input is in time
/// order). Accepts and rejects exactly what `RFC3339.parseInstant` does: a matching date was
/// already validated whole, and the time of day, fraction and offset are checked as there.
public struct RFC3339DayCache: Sendable {
    /// The last valid date's first 8 and last 2 bytes, and its days since 1970-01-01.
    private var head: UInt64 = 0, tail: UInt16 = 0, days: Int64 = 0
    private var filled = false

    /// An empty cache: the first stamp is parsed in full.
    public init() {}

    /// Parses an RFC 3339 date-time from UTF-8 bytes; nil when malformed or not a real time.
    public mutating func parseInstant(_ b: UnsafeBufferPointer<UInt8>) -> Instant? {
        guard b.count >= 19, let base = b.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let h8 = raw.loadUnaligned(as: UInt64.self), t2 = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        guard filled, h8 == head, t2 == tail else { return refill(b, head: h8, tail: t2) }
        let sep = b[10]
        guard sep == UInt8(ascii: "T") || sep == UInt8(ascii: "t") || sep == UInt8(ascii: " "),
            let hh = RFC3339.twoDigits(b, 11), b[13] == UInt8(ascii: ":"), let mi = RFC3339.twoDigits(b, 14),
            b[16] == UInt8(ascii: ":"), let ss = RFC3339.twoDigits(b, 17), hh <= 23, mi <= 59, ss <= 59
        else { return nil }
        return RFC3339.instant(b, after: 19, naiveSeconds: days * 86_400 + Int64(hh * 3600 + mi * 60 + ss))
    }

    /// The full parse; a valid date prefix becomes the remembered one.
    private mutating func refill(_ b: UnsafeBufferPointer<UInt8>, head h8: UInt64, tail t2: UInt16) -> Instant? {
        guard let (naive, end) = RFC3339.parseNaivePrefix(b) else { return nil }
        (head, tail, filled) = (h8, t2, true)
        days = CivilCalendar.daysFromCivil(year: naive.year, month: naive.month, day: naive.day)
        return RFC3339.instant(b, after: end, naiveSeconds: naive.secondsSinceEpoch)
    }
}
