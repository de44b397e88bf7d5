/// Hex text of a capture line to bytes, and bytes to hex for messages.
public enum BLEHex {
    /// Decodes hex digits, skipping space, `-` and `:` separators and a `0x` at the start of
    /// each group. - Throws: `BLECaptureLine.ParseError` naming the column (1-based) of a bad
    /// character (indices of the whole line), an odd digit count, or no digits at all.
    static func decode(_ text: ArraySlice<UInt8>) throws(BLECaptureLine.ParseError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 2)
        var high: UInt8?
        var digits = 0
        var groupStart = true
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            if c == 32 || c == 9 || c == UInt8(ascii: "-") || c == UInt8(ascii: ":") {
                groupStart = true
                i += 1
                continue
            }
            if groupStart, c == UInt8(ascii: "0"), i + 1 < text.endIndex, text[i + 1] | 0x20 == UInt8(ascii: "x") {
                i += 2
                groupStart = false
                continue
            }
            groupStart = false
            guard let v = nibble(c) else {
                throw .notHex(character: String(decoding: [c], as: UTF8.self), column: i + 1)
            }
            digits += 1
            if let h = high { out.append(h << 4 | v); high = nil } else { high = v }
            i += 1
        }
        guard digits > 0 else { throw .emptyPayload }
        guard high == nil else { throw .oddDigitCount(digits) }
        return out
    }

    @inline(__always) static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }

    /// Uppercase hex digits of `bytes`, no separators (`1E7800...`).
    public static func string(_ bytes: [UInt8]) -> String { bytes.map(byte).joined() }

    /// A 16-bit characteristic number as four uppercase hex digits (`2A35`).
    public static func characteristic(_ number: UInt16) -> String { byte(UInt8(number >> 8)) + byte(UInt8(number & 0xFF)) }

    /// Two uppercase hex digits.
    static func byte(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(b >> 4)], digits[Int(b & 0xF)]])
    }
}
