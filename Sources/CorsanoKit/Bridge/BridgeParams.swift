/// Typed access to a bridge message's `params` (or `result`) object; a missing or mistyped
/// member throws `BridgeProtocolError.invalidParams` naming it.
struct BridgeParams: Sendable {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    /// True when the value is a JSON object.
    var isObject: Bool { if case .object = value { return true } else { return false } }

    /// True when the object has member `key`, even `null`.
    func contains(_ key: String) -> Bool { value[key] != nil }

    func has(_ key: String) -> Bool { if let v = value[key], v != .null { return true } else { return false } }

    func int(_ key: String) throws -> Int {
        switch value[key] {
        case .int(let n)?: return n
        case .double(let d)? where d == d.rounded() && abs(d) < 1e15: return Int(d)
        default: throw BridgeProtocolError.invalidParams(key)
        }
    }

    /// `int(key)` inside `range`. - Throws: `.invalidParams` naming the key and the range.
    func int(_ key: String, in range: ClosedRange<Int>) throws -> Int {
        let n = try int(key)
        guard range.contains(n) else { throw BridgeProtocolError.invalidParams("\(key) (\(n) is outside \(range.lowerBound)-\(range.upperBound))") }
        return n
    }

    /// `double(key)`, finite and inside `range`. - Throws: `.invalidParams` naming the key and the range.
    func double(_ key: String, in range: ClosedRange<Double>) throws -> Double {
        let d = try double(key)
        guard d.isFinite, range.contains(d) else {
            throw BridgeProtocolError.invalidParams("\(key) (\(d) is outside \(range.lowerBound) to \(range.upperBound))")
        }
        return d
    }

    func double(_ key: String) throws -> Double {
        switch value[key] {
        case .int(let n)?: return Double(n)
        case .double(let d)?: return d
        default: throw BridgeProtocolError.invalidParams(key)
        }
    }

    func string(_ key: String) throws -> String {
        guard case .string(let s)? = value[key] else { throw BridgeProtocolError.invalidParams(key) }
        return s
    }

    func bool(_ key: String) throws -> Bool {
        guard case .bool(let b)? = value[key] else { throw BridgeProtocolError.invalidParams(key) }
        return b
    }

    func object(_ key: String) throws -> BridgeParams {
        guard case .object? = value[key] else { throw BridgeProtocolError.invalidParams(key) }
        return BridgeParams(value[key] ?? .null)
    }

    /// Member `key` when present and not null.
    func optional<T>(_ key: String, _ read: (String) throws -> T) throws -> T? {
        has(key) ? try read(key) : nil
    }
}
