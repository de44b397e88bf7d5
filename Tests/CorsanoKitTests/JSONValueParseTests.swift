import CorsanoKit
import Testing

/// `JSONValue.parse`, the one JSON text parser, and `JSONNumber`, the one place that tells a
/// boolean from the numbers 0 and 1 and an integer from one too large to name.
@Suite struct JSONValueParseTests {
    static let cases: [(String, JSONValue)] = [
        ("true", .bool(true)), ("false", .bool(false)), ("1", .int(1)), ("0", .int(0)),
        ("-7", .int(-7)), ("1e2", .int(100)), ("2.5", .double(2.5)), ("null", .null),
        ("9223372036854775807", .int(Int.max)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ("18446744073709551616", .double(18_446_744_073_709_551_616)),
        ("9007199254740993.0", .double(9_007_199_254_740_992)),
        (#""a\"b""#, .string("a\"b")),
        (#"{"b":[1,true,{"z":0,"a":false}],"a":"x"}"#,
         .object([("a", .string("x")), ("b", .array([.int(1), .bool(true), .object([("a", .bool(false)), ("z", .int(0))])]))])),
    ]

    @Test(arguments: cases.indices)
    func parsesEachKindOfValue(_ i: Int) throws {
        let (text, expected) = Self.cases[i]
        #expect(try JSONValue.parse(Array(text.utf8)) == expected, "\(text)")
    }

    @Test func booleansAreNeverNumbersAndNumbersNeverBooleans() throws {
        let value = try JSONValue.parse(Array(#"[true,1,false,0,1.0]"#.utf8))
        #expect(value == .array([.bool(true), .int(1), .bool(false), .int(0), .int(1)]))
    }

    @Test func notJSONSaysWhereFoundationStopped() {
        for text in ["", "{", "{\"a\":}", "[1 2]", "tru"] {
            #expect(throws: JSONParseError.self) { try JSONValue.parse(Array(text.utf8)) }
        }
        do {
            _ = try JSONValue.parse(Array("{\"a\":".utf8))
            Issue.record("parsed")
        } catch {
            #expect(!error.message.isEmpty)
        }
    }
}
