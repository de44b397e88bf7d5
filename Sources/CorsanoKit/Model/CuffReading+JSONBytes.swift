/// The reading line written straight into bytes: the same text as `jsonLine()` (a test holds
/// them equal), without building a `JSONValue` tree or per-field strings, for `cuff ingest`'s
/// throughput (docs/design.md "Readings" field order: systolic, diastolic, pulse, meanArterialPressure, measuredAt,
/// deviceTime, receivedAt, isManualEntry, provenance).
extension CuffReading {
    /// Appends this reading as one compact JSON line, without the newline.
    public func appendJSONLine(to out: inout [UInt8], includeDerivedMAP: Bool = false) {
        let map = meanArterialPressure ?? (includeDerivedMAP ? effectiveMeanArterialPressure : nil)
        // Everything but receivedAt and provenance is composed on the stack (at most ~240
        // bytes) and appended in one call; the usual line costs one array append.
        ByteBlock.with { block in
            block.write(#"{"systolic":"#)
            block.write(systolic)
            block.write(#","diastolic":"#)
            block.write(diastolic)
            if let pulse {
                block.write(#","pulse":"#)
                block.write(pulse)
            }
            if let map {
                block.write(#","meanArterialPressure":"#)
                block.write(map)
            }
            if let measuredAt {
                block.write(#","measuredAt":""#)
                if !block.write(measuredAt) {
                    block.flush(to: &out)
                    RFC3339.append(measuredAt, to: &out)
                }
                block.write(#"""#)
            }
            if let deviceTime {
                block.write(#","deviceTime":""#)
                block.write(deviceTime)  // room: at most 219 bytes are written up to here
                block.write(#"""#)
            }
            if let receivedAt {
                block.write(#","receivedAt":"#)
                block.flush(to: &out)
                JSONBytes.appendString(receivedAt, to: &out)
            }
            block.write(isManualEntry ? #","isManualEntry":true"# : #","isManualEntry":false"#)
            if !provenance.isEmpty {
                block.flush(to: &out)
                for field in provenance {
                    out.append(44)
                    JSONBytes.appendString(field.name, to: &out)
                    out.append(58)
                    out.append(contentsOf: field.rawJSON.utf8)
                }
            }
            block.write("}")
            block.flush(to: &out)
        }
    }
}

/// JSON scalars as bytes, matching `JSONValue.serialized` and `JSONString.append`.
public enum JSONBytes {
    /// Appends `value` in decimal.
    public static func appendInt(_ value: Int, to out: inout [UInt8]) {
        ByteBlock.with { block in
            block.write(value)
            block.flush(to: &out)
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
