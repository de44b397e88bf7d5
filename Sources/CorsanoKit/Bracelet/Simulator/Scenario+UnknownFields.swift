import Foundation

extension Scenario {
    /// The first field of `input` (parsed JSON of a scenario that decoded as `self`) that the
    /// schema does not know, or that is given twice (JSONDecoder keeps one of the two silently),
    /// as `field PATH: unknown field` / `given twice`; nil when there is none.
    ///
    /// JSONDecoder ignores unknown keys, so a misspelt fault would silently not fire: the decoded
    /// scenario is encoded again and every input key must reappear (null-valued keys excepted:
    /// an absent optional encodes to nothing).
    func firstUnknownField(in input: Data) -> String? {
        guard let given = try? JSONValue.parse(input), let encoded = try? JSONEncoder().encode(self),
              let known = try? JSONValue.parse(encoded) else { return nil }
        return Self.firstUnknown(given, known, path: "")
    }

    private static func firstUnknown(_ given: JSONValue, _ known: JSONValue, path: String) -> String? {
        switch (given, known) {
        case let (.object(members), .object(schema)):
            var keys = Set<String>()
            for (key, _) in members where !keys.insert(key).inserted {
                return "field \(path.isEmpty ? key : path + "." + key): given twice"
            }
            for (key, value) in members where value != .null {
                let here = path.isEmpty ? key : path + "." + key
                guard let counterpart = schema.first(where: { $0.0 == key })?.1 else { return "field \(here): unknown field" }
                if let unknown = firstUnknown(value, counterpart, path: here) { return unknown }
            }
        case let (.array(items), .array(schema)):
            for (i, (item, counterpart)) in zip(items, schema).enumerated() {
                if let unknown = firstUnknown(item, counterpart, path: path + "[\(i)]") { return unknown }
            }
        default:
            break
        }
        return nil
    }
}
