/// RFC 3339 and naive stamps written straight into a byte buffer (the `cuff ingest` hot path:
/// no intermediate strings per field).
extension RFC3339 {
    /// Appends `instant` as `YYYY-MM-DDTHH:MM:SS[.fff…]Z` in UTC (same text as `format`).
    public static func append(_ instant: Instant, to out: inout [UInt8]) {
        let days = instant.secondsSinceEpoch >= 0
            ? instant.secondsSinceEpoch / 86_400
            : (instant.secondsSinceEpoch - 86_399) / 86_400
        let secOfDay = Int(instant.secondsSinceEpoch - days * 86_400)
        let (y, m, d) = CivilCalendar.civilFromDays(days)
        appendStamp(y, m, d, secOfDay / 3600, secOfDay / 60 % 60, secOfDay % 60, to: &out)
        if instant.nanoseconds != 0 {
            var digits = [UInt8](repeating: 48, count: 9)
            var n = Int(instant.nanoseconds)
            for i in stride(from: 8, through: 0, by: -1) { digits[i] = UInt8(48 + n % 10); n /= 10 }
            while digits.last == 48 { digits.removeLast() }
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: digits)
        }
        out.append(UInt8(ascii: "Z"))
    }

    /// Appends `stamp` as `YYYY-MM-DDTHH:MM:SS` (same text as its `description`).
    public static func append(_ stamp: NaiveDateTime, to out: inout [UInt8]) {
        appendStamp(stamp.year, stamp.month, stamp.day, stamp.hour, stamp.minute, stamp.second, to: &out)
    }

    private static func appendStamp(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, to out: inout [UInt8]) {
        guard (0...9999).contains(y) else {
            // Outside four-digit years (never produced from parsed input): the general path.
            appendPadded(y, 4, &out); out.append(UInt8(ascii: "-"))
            appendPadded(mo, 2, &out); out.append(UInt8(ascii: "-"))
            appendPadded(d, 2, &out); out.append(UInt8(ascii: "T"))
            appendPadded(h, 2, &out); out.append(UInt8(ascii: ":"))
            appendPadded(mi, 2, &out); out.append(UInt8(ascii: ":"))
            appendPadded(s, 2, &out)
            return
        }
        // One 19-byte block written on the stack and appended once (the ingest hot path).
        var block: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &block) { b in
            func two(_ v: Int, _ at: Int) { b[at] = UInt8(48 + v / 10 % 10); b[at + 1] = UInt8(48 + v % 10) }
            two(y / 100, 0); two(y, 2); b[4] = UInt8(ascii: "-")
            two(mo, 5); b[7] = UInt8(ascii: "-"); two(d, 8); b[10] = UInt8(ascii: "T")
            two(h, 11); b[13] = UInt8(ascii: ":"); two(mi, 14); b[16] = UInt8(ascii: ":"); two(s, 17)
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[0..<19]))
        }
    }

    /// Appends a non-negative `value` zero-padded to `width` digits (more digits when larger);
    /// a negative year (never produced by the calendar range used here) is written with `-`.
    static func appendPadded(_ value: Int, _ width: Int, _ out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var v = value.magnitude
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buf in
            repeat { buf[count] = UInt8(48 + v % 10); v /= 10; count += 1 } while v > 0
            while count < width { buf[count] = 48; count += 1 }
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(buf[i]) }
        }
    }
}
