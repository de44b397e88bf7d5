/// The allocation-free path of `ReadingLineParser`: one flat JSON object of plain keys,
/// integers, escape-free ASCII strings, booleans and null. Returns nil for anything else, and for
/// any rejected field, so the full parser gives the verdict and the message.
enum FastReadingScanner {
    @inline(__always)
    static func parse(_ b: UnsafeBufferPointer<UInt8>) -> ReadingLine? {
        var fields = ReadingFields()
        var seen: UInt32 = 0
        let complete = scan(b) { key, value, raw in
            if let known = ReadingFields.Known.match(key) {
                let bit = UInt32(1) << UInt32(known.rawValue)
                guard seen & bit == 0 else { return false }  // duplicate key: the full parser decides
                seen |= bit
                do { try fields.set(known, value) } catch { return false }
            } else {
                fields.provenance.append(ProvenanceField(
                    name: String(decoding: key, as: UTF8.self), rawJSON: String(decoding: raw, as: UTF8.self)))
            }
            return true
        }
        return complete ? try? fields.result() : nil
    }

    /// Walks one flat object, handing `member` each key (unescaped bytes), value and raw value
    /// bytes in order; false when the line is not of the fast shape or `member` returned false.
    @inline(__always)
    static func scan(_ b: UnsafeBufferPointer<UInt8>,
                     _ member: (UnsafeBufferPointer<UInt8>, ReadingFields.Value, UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        var i = 0
        skipSpace(b, &i)
        guard i < b.count, b[i] == UInt8(ascii: "{") else { return false }
        i += 1
        skipSpace(b, &i)
        if i < b.count, b[i] == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                guard let key = string(b, &i) else { return false }
                skipSpace(b, &i)
                guard i < b.count, b[i] == UInt8(ascii: ":") else { return false }
                i += 1
                skipSpace(b, &i)
                let valueStart = i
                guard let value = value(b, &i), member(key, value, UnsafeBufferPointer(rebasing: b[valueStart..<i]))
                else { return false }
                guard let more = afterMember(b, &i) else { return false }
                if !more { break }
            }
        }
        skipSpace(b, &i)
        return i == b.count
    }

    /// Past the `,` (true: another member follows) or the `}` (false) after a member, spaces
    /// skipped; nil when neither comes.
    @inline(__always) static func afterMember(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Bool? {
        skipSpace(b, &i)
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: ",") {
            i += 1
            skipSpace(b, &i)
            return true
        }
        guard b[i] == UInt8(ascii: "}") else { return nil }
        i += 1
        return false
    }

    @inline(__always) static func skipSpace(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) {
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0D || b[i] == 0x0A { i += 1 }
    }

    /// A `"…"` string of printable ASCII without escapes; its contents, or nil.
    @inline(__always) static func string(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> UnsafeBufferPointer<UInt8>? {
        guard i < b.count, b[i] == UInt8(ascii: "\"") else { return nil }
        let start = i + 1
        var j = start
        // Eight bytes at a time up to the first byte that is `"`, `\`, a control or non-ASCII
        // (SWAR: the lowest flagged byte of each test is exact); the byte loop decides there.
        if let base = b.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
            while j + 8 <= b.count {
                let x = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: j, as: UInt64.self))
                let quote = x ^ (ones &* 0x22), backslash = x ^ (ones &* 0x5C)
                let special = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash
                               | (x &- ones &* 0x20) & ~x | x) & highs
                if special != 0 {
                    j += special.trailingZeroBitCount >> 3
                    break
                }
                j += 8
            }
        }
        while j < b.count {
            let c = b[j]
            if c == UInt8(ascii: "\"") {
                i = j + 1
                return UnsafeBufferPointer(rebasing: b[start..<j])
            }
            if c == UInt8(ascii: "\\") || c < 0x20 || c >= 0x80 { return nil }
            j += 1
        }
        return nil
    }

    @inline(__always) static func value(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> ReadingFields.Value? {
        guard i < b.count else { return nil }
        switch b[i] {
        case UInt8(ascii: "\""): return string(b, &i).map { .string($0) }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return integer(b, &i).map { .integer($0) }
        case UInt8(ascii: "t"): return literal(b, &i, "true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal(b, &i, "false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal(b, &i, "null") ? .null : nil
        default: return nil
        }
    }

    /// `-?(0|[1-9][0-9]*)` fitting Int and not followed by a fraction or exponent.
    @inline(__always) static func integer(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Int? {
        var j = i
        let negative = b[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        let digitsStart = j
        var value = 0
        while j < b.count, b[j] >= 0x30, b[j] <= 0x39 {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let digit = Int(b[j] - 0x30)
            // Accumulate with the sign so Int.min parses too.
            let (sum, o2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = sum
            j += 1
        }
        let digits = j - digitsStart
        guard digits > 0, !(digits > 1 && b[digitsStart] == 0x30) else { return nil }
        if j < b.count, b[j] == UInt8(ascii: ".") || b[j] == UInt8(ascii: "e") || b[j] == UInt8(ascii: "E") { return nil }
        i = j
        return value
    }

    @inline(__always) static func literal(_ b: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { return false }
        let w = UnsafeBufferPointer(start: word.utf8Start, count: n)
        guard memcmpEqual(UnsafeBufferPointer(rebasing: b[i..<(i + n)]), w) else { return false }
        i += n
        return true
    }
}
