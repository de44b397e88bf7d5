import Foundation

/// Any value inside a `Decodable` type as a `JSONValue` (a scenario's `profile` block, which is
/// read in the profile's own JSON shape). JSON text is read by `JSONValue.parse`, not by this.
struct DecodedJSON: Decodable {
    let value: JSONValue

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(DecodedJSON.self).value) }
            value = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            value = .object(try object.allKeys.map { ($0.stringValue, try object.decode(DecodedJSON.self, forKey: $0).value) })
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { value = .null }
        else if let b = try? single.decode(Bool.self) { value = .bool(b) }
        else if let i = try? single.decode(Int.self) { value = .int(i) }
        else if let d = try? single.decode(Double.self) { value = .double(d) }
        else { value = .string(try single.decode(String.self)) }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
