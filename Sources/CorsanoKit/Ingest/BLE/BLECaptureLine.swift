/// One line of a BLE capture: `[TIME<TAB>][UUID ]HEX`.
///
/// TIME is when the capture received the payload (RFC 3339, else the line is rejected naming
/// `receivedAt`): kept as `receivedAt` as written, never as `measuredAt`
/// (a history dump arrives "now"; DESIGN "Data on the wire"). UUID is the characteristic, as
/// `2A35`, `0x2A35` or the 128-bit Bluetooth base form; a 16-bit token is only read as a UUID
/// when it names 0x2A35 or 0x2A36, so a payload grouped in 4-digit words still reads as hex.
/// HEX may carry `0x` prefixes and space, `-` or `:` separators.
public enum BLECaptureLine: Equatable, Sendable {
    /// A Blood Pressure Measurement payload and the capture's receive time text, if any.
    case measurement(payload: [UInt8], receivedAt: String?)
    /// Intermediate Cuff Pressure (0x2A36): live inflation values, skipped and counted.
    case intermediateCuffPressure
    /// An empty line or a `#` comment: no record.
    case blank

    /// Why a capture line is not a payload.
    public enum ParseError: Error, Equatable, Sendable {
        case notHex(character: String, column: Int)
        case oddDigitCount(Int)
        case emptyPayload
        case otherCharacteristic(String)
        case badTime(String)

        /// One line naming the field.
        public var reason: String {
            switch self {
            case .notHex(let c, let col): return "payload: '\(c)' at column \(col) is not a hex digit"
            case .oddDigitCount(let n): return "payload: odd number of hex digits (\(n))"
            case .emptyPayload: return "payload: no hex digits"
            case .otherCharacteristic(let u): return "uuid: \(u) is not Blood Pressure Measurement (2A35)"
            case .badTime(let t): return "receivedAt: '\(t)' (the capture's TIME column) is not an RFC 3339 time"
            }
        }
    }

    /// Parses one line (without its newline). - Throws: `ParseError` naming the bad part.
    public static func parse(_ line: some Collection<UInt8>) throws(ParseError) -> BLECaptureLine {
        var bytes = Array(line)
        while let last = bytes.last, last == 13 || last == 32 { bytes.removeLast() }
        var start = 0
        while start < bytes.count, bytes[start] == 32 { start += 1 }
        if start == bytes.count || bytes[start] == UInt8(ascii: "#") { return .blank }
        var receivedAt: String?
        if let tab = bytes[start...].firstIndex(of: 9) {
            let time = String(decoding: bytes[start..<tab], as: UTF8.self).trimmingBlanks
            // Checked, not passed through: a reader of `receivedAt` expects RFC 3339.
            if !time.isEmpty, RFC3339.parseInstant(time) == nil { throw .badTime(time) }
            receivedAt = time.isEmpty ? nil : time
            start = tab + 1
            while start < bytes.count, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        }
        if let space = bytes[start...].firstIndex(of: 32) {
            switch characteristic(String(decoding: bytes[start..<space], as: UTF8.self)) {
            case .some("2A35"): start = space + 1
            case .some("2A36"): return .intermediateCuffPressure
            case .some(let other): throw .otherCharacteristic(other)
            case .none: break
            }
        }
        return .measurement(payload: try BLEHex.decode(bytes[start...]), receivedAt: receivedAt)
    }

    /// The 16-bit characteristic number named by `token` (`2A35`, `0x2a36`, 128-bit base UUID),
    /// uppercased; nil when the token is not read as a UUID.
    static func characteristic(_ token: String) -> String? {
        let t = token.uppercased()
        let base = "-0000-1000-8000-00805F9B34FB"
        if t.count == 36, t.hasPrefix("0000"), t.hasSuffix(base) {
            let short = String(t.dropFirst(4).prefix(4))
            return short.allSatisfy(\.isHexDigit) ? short : nil
        }
        let short = t.hasPrefix("0X") ? String(t.dropFirst(2)) : t
        return short == "2A35" || short == "2A36" ? short : nil
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and no-break spaces (spreadsheets
    /// write `118\u{A0}mmHg`), as a String (cells, stamps).
    var trimmingBlanks: String {
        func blank(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\u{A0}" || c == "\u{202F}" }
        var s = Substring(self)
        while let f = s.first, blank(f) { s.removeFirst() }
        while let l = s.last, blank(l) { s.removeLast() }
        return String(s)
    }
}
