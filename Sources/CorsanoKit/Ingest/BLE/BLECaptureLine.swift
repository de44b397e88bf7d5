/// One line of a BLE capture: `[TIME<TAB>][UUID ]HEX`, or a line of an nRF Connect log.
///
/// TIME is when the capture received the payload (RFC 3339, else the line is rejected naming
/// `receivedAt`): kept as `receivedAt` as written, never as `measuredAt`
/// (a history dump arrives "now"; docs/design.md "Data on the wire"). UUID is the characteristic, as
/// `2A35`, `0x2A35` or the 128-bit Bluetooth base form; a 16-bit token is only read as a UUID
/// when it names 0x2A35, 0x2A36, 0x2B34 or 0x2B36, so a payload grouped in 4-digit words still
/// reads as hex. HEX may carry `0x` prefixes and space, `-` or `:` separators.
///
/// nRF Connect logs (the form captures reach issue trackers in) are `LEVEL<TAB>HH:MM:SS.mmm<TAB>TEXT`
/// with LEVEL one of V D I A W E: `I  10:21:03.512  Indication received from 00002a35-0000-1000-8000-00805f9b34fb,
/// value: (0x) 16-7E-00-…` is a value of that characteristic; the `A` line after it echoes the same
/// value (or nRF Connect's reading of it) and is never a second reading; the rest (connection
/// events, the `nRF Connect, DATE` header) is log text. The time of day is not a receive time
/// (no date, no zone): such values have no `receivedAt`.
public enum BLECaptureLine: Equatable, Sendable {
    /// A Blood Pressure Measurement (0x2A35) payload, named so, and the receive time text, if any.
    case measurement(payload: [UInt8], receivedAt: String?)
    /// A payload that names no characteristic: 0x2A35 unless only the 0x2B34 layout fits
    /// (`BLEPayloadLayout`).
    case untagged(payload: [UInt8], receivedAt: String?)
    /// An Enhanced Blood Pressure Measurement (0x2B34) payload (BLS 1.1).
    case enhancedMeasurement(payload: [UInt8], receivedAt: String?)
    /// One segment of a Blood Pressure Record (0x2B36) (BLS 1.1), reassembled by `BloodPressureRecordAssembler`.
    case recordSegment(payload: [UInt8], receivedAt: String?)
    /// Intermediate Cuff Pressure (0x2A36, or 0x2B35 in BLS 1.1): live inflation values, skipped and counted.
    case intermediateCuffPressure
    /// A value of another characteristic in an nRF Connect log (e.g. `2AF0`, or a vendor UUID as
    /// written): skipped, naming it.
    case otherCharacteristic(String)
    /// nRF Connect log text that carries no value: the header, connection events, an `A` echo.
    case logText
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
            case .otherCharacteristic(let u): return "uuid: \(u) is not a blood pressure characteristic (2A35, 2A36, 2B34, 2B35, 2B36)"
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
        if let log = try nRFConnectLine(bytes[start...]) { return log }
        var receivedAt: String?
        if let tab = bytes[start...].firstIndex(of: 9) {
            let time = String(decoding: bytes[start..<tab], as: UTF8.self).trimmingBlanks
            // Checked, not passed through: a reader of `receivedAt` expects RFC 3339.
            if !time.isEmpty, RFC3339.parseInstant(time) == nil { throw .badTime(time) }
            receivedAt = time.isEmpty ? nil : time
            start = tab + 1
            while start < bytes.count, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        }
        var named: String?
        if let space = bytes[start...].firstIndex(of: 32) {
            named = characteristic(String(decoding: bytes[start..<space], as: UTF8.self))
            if named != nil { start = space + 1 }
        }
        let hex = bytes[start...]
        switch named {
        case nil: return .untagged(payload: try BLEHex.decode(hex), receivedAt: receivedAt)
        case "2A35": return .measurement(payload: try BLEHex.decode(hex), receivedAt: receivedAt)
        case "2B34": return .enhancedMeasurement(payload: try BLEHex.decode(hex), receivedAt: receivedAt)
        case "2B36": return .recordSegment(payload: try BLEHex.decode(hex), receivedAt: receivedAt)
        case "2A36", "2B35": return .intermediateCuffPressure
        case let other?: throw .otherCharacteristic(other)
        }
    }

    /// The line as nRF Connect log text, or nil when it is not one. - Throws: `ParseError` for a
    /// value line whose hex is bad.
    static func nRFConnectLine(_ text: ArraySlice<UInt8>) throws(ParseError) -> BLECaptureLine? {
        if text.starts(with: Array("nRF Connect, ".utf8)) { return .logText }
        // LEVEL TAB HH:MM:SS.mmm TAB
        let b = Array(text.prefix(15))
        guard b.count == 15, "VDIAWE".utf8.contains(b[0]), b[1] == 9, b[14] == 9 else { return nil }
        for (i, c) in b[2..<14].enumerated() {
            let ok: Bool = switch i {
            case 2, 5: c == UInt8(ascii: ":")
            case 8: c == UInt8(ascii: ".")
            default: c >= 48 && c <= 57
            }
            if !ok { return nil }
        }
        // The `A` (application) line repeats the value just logged: never a second reading.
        if b[0] == UInt8(ascii: "A") { return .logText }
        let message = text.dropFirst(15)
        // The value may be empty (`value: (0x)`, no space after): still a value line, refused as
        // one with its line (an empty payload), never passed over as log text.
        let from = Array(" received from ".utf8), marker = Array(", value: (0x)".utf8)
        guard let at = firstRange(of: from, in: message),
              let value = firstRange(of: marker, in: message[at.upperBound...]) else { return .logText }
        let uuid = String(decoding: message[at.upperBound..<value.lowerBound], as: UTF8.self).trimmingBlanks
        let hex = message[value.upperBound...]
        switch characteristic(uuid) {
        case "2A35": return .measurement(payload: try BLEHex.decode(hex), receivedAt: nil)
        case "2B34": return .enhancedMeasurement(payload: try BLEHex.decode(hex), receivedAt: nil)
        case "2B36": return .recordSegment(payload: try BLEHex.decode(hex), receivedAt: nil)
        case "2A36", "2B35": return .intermediateCuffPressure
        case let other?: return .otherCharacteristic(other)
        case nil: return .otherCharacteristic(uuid)
        }
    }

    /// The indices of the first occurrence of `needle` in `hay`.
    private static func firstRange(of needle: [UInt8], in hay: ArraySlice<UInt8>) -> Range<Int>? {
        guard hay.count >= needle.count else { return nil }
        var i = hay.startIndex
        while i + needle.count <= hay.endIndex {
            if hay[i..<i + needle.count].elementsEqual(needle) { return i..<i + needle.count }
            i += 1
        }
        return nil
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
        return ["2A35", "2A36", "2B34", "2B35", "2B36"].contains(short) ? short : nil
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
