/// RFC 3339 and naive stamps written straight into bytes (the `cuff ingest` hot path: no
/// intermediate strings, one copy per stamp or per line).
extension RFC3339 {
    /// Longest text of `write(_:to:)` for an instant: `YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ`.
    static let maxInstantBytes = 30

    /// Appends `instant` as `YYYY-MM-DDTHH:MM:SS[.fff…]Z` in UTC (same text as `format`).
    public static func append(_ instant: Instant, to out: inout [UInt8]) {
        let done = ByteBlock.with { block in
            guard block.write(instant) else { return false }
            block.flush(to: &out)
            return true
        }
        if done { return }
        let (days, secOfDay) = split(instant)
        let (y, m, d) = CivilCalendar.civilFromDays(days)
        appendPadded(y, 4, &out); out.append(UInt8(ascii: "-"))
        appendPadded(m, 2, &out); out.append(UInt8(ascii: "-"))
        appendPadded(d, 2, &out); out.append(UInt8(ascii: "T"))
        appendPadded(secOfDay / 3600, 2, &out); out.append(UInt8(ascii: ":"))
        appendPadded(secOfDay / 60 % 60, 2, &out); out.append(UInt8(ascii: ":"))
        appendPadded(secOfDay % 60, 2, &out)
        if instant.nanoseconds != 0 {
            var fraction = [UInt8](repeating: 48, count: 10)
            fraction[0] = UInt8(ascii: ".")
            fraction.withUnsafeMutableBytes { writeFraction(instant.nanoseconds, to: $0.baseAddress! + 1) }
            while fraction.last == 48 { fraction.removeLast() }
            out.append(contentsOf: fraction)
        }
        out.append(UInt8(ascii: "Z"))
    }

    /// Appends `stamp` as `YYYY-MM-DDTHH:MM:SS` (same text as its `description`).
    public static func append(_ stamp: NaiveDateTime, to out: inout [UInt8]) {
        ByteBlock.with { block in
            block.write(stamp)
            block.flush(to: &out)
        }
    }

    /// Writes `instant` at `p` (room for `maxInstantBytes`); the byte count, or nil when its
    /// year is outside 0...9999 (never from parsed input; the caller takes the general path).
    static func write(_ instant: Instant, to p: UnsafeMutableRawPointer) -> Int? {
        let (days, secOfDay) = split(instant)
        let (y, m, d) = CivilCalendar.civilFromDays(days)
        guard (0...9999).contains(y) else { return nil }
        writeStamp(y, m, d, secOfDay / 3600, secOfDay / 60 % 60, secOfDay % 60, to: p)
        var n = 19
        if instant.nanoseconds != 0 {
            p.storeBytes(of: UInt8(ascii: "."), toByteOffset: 19, as: UInt8.self)
            writeFraction(instant.nanoseconds, to: p + 20)
            n = 29
            while p.load(fromByteOffset: n - 1, as: UInt8.self) == 48 { n -= 1 }
        }
        p.storeBytes(of: UInt8(ascii: "Z"), toByteOffset: n, as: UInt8.self)
        return n + 1
    }

    /// Writes the 19 bytes `YYYY-MM-DDTHH:MM:SS` at `p`; `y` must be in 0...9999.
    static func writeStamp(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, to p: UnsafeMutableRawPointer) {
        func two(_ v: Int, _ at: Int) {
            p.storeBytes(of: UInt8(48 + v / 10 % 10), toByteOffset: at, as: UInt8.self)
            p.storeBytes(of: UInt8(48 + v % 10), toByteOffset: at + 1, as: UInt8.self)
        }
        func char(_ c: UInt8, _ at: Int) { p.storeBytes(of: c, toByteOffset: at, as: UInt8.self) }
        two(y / 100, 0); two(y, 2); char(UInt8(ascii: "-"), 4)
        two(mo, 5); char(UInt8(ascii: "-"), 7); two(d, 8); char(UInt8(ascii: "T"), 10)
        two(h, 11); char(UInt8(ascii: ":"), 13); two(mi, 14); char(UInt8(ascii: ":"), 16); two(s, 17)
    }

    /// Nine fraction digits of `nanoseconds` at `p`.
    private static func writeFraction(_ nanoseconds: Int32, to p: UnsafeMutableRawPointer) {
        var v = Int(nanoseconds)
        for i in stride(from: 8, through: 0, by: -1) {
            p.storeBytes(of: UInt8(48 + v % 10), toByteOffset: i, as: UInt8.self)
            v /= 10
        }
    }

    /// Whole days since the epoch and the second of that day (floor division).
    private static func split(_ instant: Instant) -> (days: Int64, secondOfDay: Int) {
        let days = instant.secondsSinceEpoch >= 0
            ? instant.secondsSinceEpoch / 86_400
            : (instant.secondsSinceEpoch - 86_399) / 86_400
        return (days, Int(instant.secondsSinceEpoch - days * 86_400))
    }

    /// Appends a `value` zero-padded to `width` digits (more digits when larger), `-` first
    /// when negative.
    static func appendPadded(_ value: Int, _ width: Int, _ out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var digits: [UInt8] = []
        var v = value.magnitude
        repeat { digits.append(UInt8(48 + v % 10)); v /= 10 } while v > 0
        while digits.count < width { digits.append(48) }
        out.append(contentsOf: digits.reversed())
    }
}
