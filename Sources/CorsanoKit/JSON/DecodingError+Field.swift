/// `DecodingError` as words a user can act on: the field's path and what it should hold, never
/// Swift's type names (`Expected to decode Array<Any> but found a string instead.`).
extension DecodingError {
    /// `field nibp.verdicts: expected an array, found a string`; `not valid JSON` at the top level.
    public var fieldMessage: String {
        switch self {
        case .typeMismatch(let type, let ctx):
            var text = "field \(Self.path(ctx.codingPath)): expected \(Self.kind(of: type))"
            if let found = Self.found(in: ctx.debugDescription) { text += ", found \(found)" }
            return text
        case .valueNotFound(let type, let ctx):
            return "field \(Self.path(ctx.codingPath)): expected \(Self.kind(of: type)), found null"
        case .keyNotFound(let key, let ctx):
            return "field \(Self.path(ctx.codingPath + [key])): missing"
        case .dataCorrupted(let ctx):
            return ctx.codingPath.isEmpty ? "not valid JSON" : "field \(Self.path(ctx.codingPath)): \(ctx.debugDescription)"
        @unknown default:
            return "not readable as expected"
        }
    }

    /// `nibp.verdicts[2]`; `(top level)` for the document itself.
    static func path(_ keys: [any CodingKey]) -> String {
        let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "(top level)" : text)
    }

    /// The JSON kind a Swift type is read from.
    static func kind(of type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Array") || name.hasPrefix("[") && !name.contains(":") { return "an array" }
        if name.hasPrefix("Dictionary") || name.hasPrefix("[") { return "an object" }
        switch name {
        case "String", "Substring": return "a string"
        case "Bool": return "true or false"
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64": return "a whole number"
        case "Double", "Float", "Decimal": return "a number"
        default: return "an object"
        }
    }

    /// What Foundation says it found (`a string`, `a number`), from its `... but found X instead.` text.
    static func found(in description: String) -> String? {
        guard let start = description.range(of: "but found "), let end = description.range(of: " instead", range: start.upperBound..<description.endIndex)
        else { return nil }
        let found = description[start.upperBound..<end.lowerBound]
        return found.isEmpty || found.count > 40 ? nil : String(found)
    }
}
