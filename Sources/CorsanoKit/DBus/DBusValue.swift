/// One D-Bus value with its type: what a message argument, a property or a variant holds.
///
/// Arrays carry their element signature so an empty one still has a type; `ay` (byte arrays,
/// e.g. a GATT characteristic's `Value`) has its own case, read and written in one block.
/// Source: D-Bus Specification, "Type System".
public indirect enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// `ay`.
    case bytes([UInt8])
    /// `aX` other than `ay` and dictionaries; `elementSignature` is X.
    case array(elementSignature: String, [DBusValue])
    /// `a{KV}`, entries in message order.
    case dictionary(keySignature: String, valueSignature: String, [DBusDictEntry])
    /// `(...)`.
    case structure([DBusValue])
    /// `v`.
    case variant(DBusValue)

    /// The value's D-Bus type signature, e.g. `s`, `ay`, `a{sv}`.
    public var signature: String {
        switch self {
        case .byte: return "y"
        case .boolean: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .bytes: return "ay"
        case .array(let element, _): return "a" + element
        case .dictionary(let key, let value, _): return "a{" + key + value + "}"
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        case .variant: return "v"
        }
    }

    /// An `a{sv}` dictionary (BlueZ's option and property maps).
    public static func stringVariantMap(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dictionary(keySignature: "s", valueSignature: "v",
                    entries.map { DBusDictEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The text of a string, object path or signature (through variants).
    public var text: String? {
        switch unwrapped {
        case .string(let s), .objectPath(let s), .signature(let s): return s
        default: return nil
        }
    }

    /// A boolean (through variants).
    public var bool: Bool? {
        if case .boolean(let b) = unwrapped { return b }
        return nil
    }

    /// The bytes of an `ay` (through variants).
    public var byteArray: [UInt8]? {
        switch unwrapped {
        case .bytes(let b): return b
        case .array("y", let items):
            var out: [UInt8] = []
            for item in items { guard case .byte(let b) = item else { return nil }; out.append(b) }
            return out
        default: return nil
        }
    }

    /// The texts of an `as` / `ao` (through variants).
    public var texts: [String]? {
        guard case .array(_, let items) = unwrapped else { return nil }
        var out: [String] = []
        for item in items { guard let t = item.text else { return nil }; out.append(t) }
        return out
    }

    /// The entries of a dictionary keyed by strings or object paths (through variants), values as sent.
    public var entries: [String: DBusValue]? {
        guard case .dictionary(_, _, let items) = unwrapped else { return nil }
        var out: [String: DBusValue] = [:]
        for entry in items { if let key = entry.key.text { out[key] = entry.value } }
        return out
    }
}

/// One `{key, value}` entry of a D-Bus dictionary.
public struct DBusDictEntry: Equatable, Sendable {
    public var key: DBusValue
    public var value: DBusValue
}
