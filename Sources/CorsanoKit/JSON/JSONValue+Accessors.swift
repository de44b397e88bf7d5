extension JSONValue {
    /// The value as an integer: an `.int`, or a `.double` with no fraction that fits `Int`.
    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d): return d.rounded() == d && abs(d) < 9e15 ? Int(d) : nil
        default: return nil
        }
    }

    /// The value as a number of seconds or other measure, integer or not.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The text of a `.string`.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The truth value of a `.bool`.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The elements of an `.array`.
    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// A short human rendering: strings unquoted, numbers as written, anything else as JSON.
    public var displayText: String {
        switch self {
        case .string(let s): return s
        default: return serialized
        }
    }
}
