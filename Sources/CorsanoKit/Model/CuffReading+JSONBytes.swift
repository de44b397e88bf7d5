/// The reading line written straight into bytes: the same text as `jsonLine()` (a test holds
/// them equal), without building a `JSONValue` tree or per-field strings, for `cuff ingest`'s
/// throughput (DESIGN field order: systolic, diastolic, pulse, meanArterialPressure, measuredAt,
/// deviceTime, receivedAt, isManualEntry, provenance).
extension CuffReading {
    /// Appends this reading as one compact JSON line, without the newline.
    public func appendJSONLine(to out: inout [UInt8], includeDerivedMAP: Bool = false) {
        out.append(contentsOf: Keys.systolic)
        JSONBytes.appendInt(systolic, to: &out)
        out.append(contentsOf: Keys.diastolic)
        JSONBytes.appendInt(diastolic, to: &out)
        if let pulse {
            out.append(contentsOf: Keys.pulse)
            JSONBytes.appendInt(pulse, to: &out)
        }
        if let map = meanArterialPressure ?? (includeDerivedMAP ? effectiveMeanArterialPressure : nil) {
            out.append(contentsOf: Keys.map)
            JSONBytes.appendInt(map, to: &out)
        }
        if let measuredAt {
            out.append(contentsOf: Keys.measuredAt)
            RFC3339.append(measuredAt, to: &out)
            out.append(34)
        }
        if let deviceTime {
            out.append(contentsOf: Keys.deviceTime)
            RFC3339.append(deviceTime, to: &out)
            out.append(34)
        }
        if let receivedAt {
            out.append(contentsOf: Keys.receivedAt)
            JSONBytes.appendString(receivedAt, to: &out)
        }
        out.append(contentsOf: isManualEntry ? Keys.manualTrue : Keys.manualFalse)
        for field in provenance {
            out.append(44)
            JSONBytes.appendString(field.name, to: &out)
            out.append(58)
            out.append(contentsOf: field.rawJSON.utf8)
        }
        out.append(125)
    }

    private enum Keys {
        static let systolic = Array(#"{"systolic":"#.utf8)
        static let diastolic = Array(#","diastolic":"#.utf8)
        static let pulse = Array(#","pulse":"#.utf8)
        static let map = Array(#","meanArterialPressure":"#.utf8)
        static let measuredAt = Array(#","measuredAt":""#.utf8)
        static let deviceTime = Array(#","deviceTime":""#.utf8)
        static let receivedAt = Array(#","receivedAt":"#.utf8)
        static let manualTrue = Array(#","isManualEntry":true"#.utf8)
        static let manualFalse = Array(#","isManualEntry":false"#.utf8)
    }
}

/// JSON scalars as bytes, matching `JSONValue.serialized` and `JSONString.append`.
public enum JSONBytes {
    /// Appends `value` in decimal.
    public static func appendInt(_ value: Int, to out: inout [UInt8]) {
        switch value {
        case 0..<10:
            out.append(UInt8(48 + value))
        case 10..<100:
            out.append(UInt8(48 + value / 10)); out.append(UInt8(48 + value % 10))
        case 100..<1000:
            out.append(UInt8(48 + value / 100)); out.append(UInt8(48 + value / 10 % 10)); out.append(UInt8(48 + value % 10))
        default:
            RFC3339.appendPadded(value, 1, &out)
        }
    }

    /// Appends `s` quoted, escaping `"`, `\` and control characters as `JSONString.append` does.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(34)
        for b in s.utf8 {
            switch b {
            case 34: out.append(92); out.append(34)
            case 92: out.append(92); out.append(92)
            case 10: out.append(92); out.append(UInt8(ascii: "n"))
            case 13: out.append(92); out.append(UInt8(ascii: "r"))
            case 9: out.append(92); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default: out.append(b)
            }
        }
        out.append(34)
    }
}
