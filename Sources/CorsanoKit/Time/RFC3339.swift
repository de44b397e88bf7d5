/// RFC 3339 timestamps and naive `YYYY-MM-DDTHH:MM:SS` stamps, parsed and written by hand.
///
/// Accepts `T`, `t` or a space between date and time, an optional fraction of any length
/// (nanoseconds kept, further digits dropped), and `Z`, `z` or `±HH:MM`. Writes UTC with `Z`,
/// with a fraction only when it is not zero. Source: RFC 3339 §5.6.
public enum RFC3339 {
    /// Parses an RFC 3339 date-time; nil when malformed or not a real calendar time.
    public static func parseInstant(_ text: some StringProtocol) -> Instant? {
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { parseInstant(UnsafeBufferPointer($0)) }
    }

    /// Parses an RFC 3339 date-time from UTF-8 bytes.
    public static func parseInstant(_ b: UnsafeBufferPointer<UInt8>) -> Instant? {
        guard let (naive, end) = parseNaivePrefix(b) else { return nil }
        return instant(b, after: end, naiveSeconds: naive.secondsSinceEpoch)
    }

    /// The instant of a stamp whose naive prefix (seconds since the epoch on its own clock)
    /// ends at `end`: reads the fraction and the offset, and nothing may follow.
    @inline(__always)
    static func instant(_ b: UnsafeBufferPointer<UInt8>, after end: Int, naiveSeconds: Int64) -> Instant? {
        var i = end
        var nanos: Int32 = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var digits = 0
            var value: Int32 = 0
            while i < b.count, let d = digit(b[i]) {
                if digits < 9 { value = value * 10 + Int32(d) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if digits < 9 { for _ in digits..<9 { value *= 10 } }
            nanos = value
        }
        guard i < b.count else { return nil }
        var offsetSeconds: Int64 = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign: Int64 = b[i] == UInt8(ascii: "-") ? -1 : 1
            guard i + 6 <= b.count, b[i + 3] == UInt8(ascii: ":"),
                let hh = twoDigits(b, i + 1), let mm = twoDigits(b, i + 4), hh <= 23, mm <= 59
            else { return nil }
            offsetSeconds = sign * Int64(hh * 3600 + mm * 60)
            i += 6
        default:
            return nil
        }
        guard i == b.count else { return nil }
        return Instant(secondsSinceEpoch: naiveSeconds - offsetSeconds, nanoseconds: nanos)
    }

    /// Parses a naive `YYYY-MM-DDTHH:MM:SS` stamp (also with a space); nothing may follow.
    public static func parseNaive(_ text: some StringProtocol) -> NaiveDateTime? {
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { buf in
            guard let (naive, end) = parseNaivePrefix(UnsafeBufferPointer(buf)), end == buf.count else { return nil }
            return naive
        }
    }

    /// Parses the `YYYY-MM-DDTHH:MM:SS` prefix; returns the stamp and the index after it.
    static func parseNaivePrefix(_ b: UnsafeBufferPointer<UInt8>) -> (NaiveDateTime, Int)? {
        guard b.count >= 19,
            let y1 = twoDigits(b, 0), let y2 = twoDigits(b, 2), b[4] == UInt8(ascii: "-"),
            let mo = twoDigits(b, 5), b[7] == UInt8(ascii: "-"), let d = twoDigits(b, 8),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
            let h = twoDigits(b, 11), b[13] == UInt8(ascii: ":"), let mi = twoDigits(b, 14),
            b[16] == UInt8(ascii: ":"), let s = twoDigits(b, 17),
            let naive = NaiveDateTime(year: y1 * 100 + y2, month: mo, day: d, hour: h, minute: mi, second: s)
        else { return nil }
        return (naive, 19)
    }

    /// The instants RFC 3339 can name in UTC: 0001-01-01T00:00:00Z through
    /// 9999-12-31T23:59:59.999999999Z (a four-digit year; §5.6 `date-fullyear`).
    public static let representable = Instant(secondsSinceEpoch: -62_135_596_800)
        ... Instant(secondsSinceEpoch: 253_402_300_799, nanoseconds: 999_999_999)

    /// Writes `instant` as `YYYY-MM-DDTHH:MM:SS[.fff…]Z` in UTC.
    ///
    /// The caller must pass an instant in `representable` (any parsed one, a clock's). Outside
    /// it the year gets a sign or a fifth digit, which no RFC 3339 reader (ours included)
    /// accepts; an instant computed from input (an anchor shift) goes through
    /// `formatIfRepresentable` or is checked against `representable` first.
    public static func format(_ instant: Instant) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(30)
        append(instant, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `format(instant)`, or nil when `instant` is outside `representable`.
    public static func formatIfRepresentable(_ instant: Instant) -> String? {
        representable.contains(instant) ? format(instant) : nil
    }

    @inline(__always) private static func digit(_ c: UInt8) -> Int? {
        c >= 48 && c <= 57 ? Int(c - 48) : nil
    }

    @inline(__always) static func twoDigits(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int? {
        guard i + 1 < b.count, let a = digit(b[i]), let c = digit(b[i + 1]) else { return nil }
        return a * 10 + c
    }
}
