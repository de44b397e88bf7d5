import Foundation

/// Any JSON text as a `JSONValue` (objects keep no particular order when read).
struct BridgeJSON: Decodable {
    let value: JSONValue

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(BridgeJSON.self).value) }
            value = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            value = .object(try object.allKeys.map { ($0.stringValue, try object.decode(BridgeJSON.self, forKey: $0).value) })
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
