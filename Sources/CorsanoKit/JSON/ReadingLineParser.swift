import Foundation

/// Parses one reading line (docs/design.md "Data on the wire") into a `ReadingLine`.
///
/// A hand-written byte scanner handles the shapes `cuff ingest` writes (plain keys, integers,
/// escape-free ASCII strings, flat provenance values) without allocating; anything else (escapes,
/// `1.0e2`, nested provenance, non-ASCII, a rejected field) goes to Foundation's
/// `JSONSerialization`, which decides. Both apply the same field rules (`ReadingFields`), so the
/// fast path changes speed, never the verdict. Pure and total: any bytes give a result, never a
/// trap (the fuzz target calls `parse` directly).
public enum ReadingLineParser {
    /// Parses one line (no terminator) of UTF-8 bytes.
    @inline(__always)
    public static func parse(_ bytes: UnsafeRawBufferPointer) -> Result<ReadingLine, ReadingLineError> {
        let typed = UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        if let line = FastReadingScanner.parse(typed) { return .success(line) }
        return parseWithFoundation(bytes)
    }

    /// Parses one line given as a string (tests, REPL input).
    public static func parse(_ text: String) -> Result<ReadingLine, ReadingLineError> {
        var copy = text
        return copy.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// The full parser: JSONSerialization, then the shared field rules.
    static func parseWithFoundation(_ bytes: UnsafeRawBufferPointer) -> Result<ReadingLine, ReadingLineError> {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .failure(.malformed("empty line")) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) else {
            return .failure(.malformed("not valid JSON"))
        }
        guard let members = object as? [String: Any] else { return .failure(.malformed("not a JSON object")) }
        var fields = ReadingFields()
        do {
            for known in ReadingFields.Known.allCases {
                guard let value = members[known.name] else { continue }
                try withValue(value) { v throws(ReadingLineError) in try fields.set(known, v) }
            }
            let knownNames = Set(ReadingFields.Known.allCases.map(\.name))
            for name in members.keys.sorted() where !knownNames.contains(name) {
                fields.provenance.append(ProvenanceField(name: name, rawJSON: serialized(members[name] as Any)))
            }
            return .success(try fields.result())
        } catch {
            return .failure(error)
        }
    }

    /// Hands `body` the `ReadingFields.Value` of a JSONSerialization value.
    private static func withValue(_ any: Any, _ body: (ReadingFields.Value) throws(ReadingLineError) -> Void) throws(ReadingLineError) {
        switch any {
        case is NSNull: try body(.null)
        case let text as String:
            var copy = text
            let outcome = copy.withUTF8 { utf8 -> ReadingLineError? in
                do throws(ReadingLineError) { try body(.string(utf8)) } catch { return error }
                return nil
            }
            if let outcome { throw outcome }
        case let number as NSNumber:
            switch JSONNumber(number) {
            case .bool(let b): try body(.bool(b))
            case .integer(let i): try body(.integer(i))
            case .hugeInteger: try body(.hugeInteger)
            case .fraction: try body(.fraction)
            }
        default: try body(.composite)
        }
    }

    private static func serialized(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
        else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
