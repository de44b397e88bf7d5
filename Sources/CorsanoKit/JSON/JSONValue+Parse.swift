import Foundation

/// A number as Foundation's `JSONSerialization` hands it over (an `NSNumber`), told apart once
/// for every reader of JSON text: a boolean, an integer that fits `Int`, an integer-valued
/// number that does not, or a fraction.
public enum JSONNumber: Equatable, Sendable {
    case bool(Bool)
    case integer(Int)
    /// An integer-valued number outside `Int`, or one written as a float beyond 2^53, where a
    /// double no longer names one integer: out of range, never a guess.
    case hugeInteger(Double)
    /// A number with a fractional part (or not finite).
    case fraction(Double)

    private static let boolType = type(of: NSNumber(value: true))

    /// Classifies `number`. On Linux `number is Bool` also holds for the numbers 0 and 1; the
    /// class of the boxed value is what tells `true`/`false` from a number.
    public init(_ number: NSNumber) {
        if type(of: number) == Self.boolType { self = .bool(number.boolValue); return }
        let objCType = String(cString: number.objCType)
        if !(number is NSDecimalNumber), objCType != "d", objCType != "f" {
            // "Q": 2^63..<2^64 arrives unsigned; `intValue` would wrap it negative.
            if objCType == "Q" {
                self = Int(exactly: number.uint64Value).map(JSONNumber.integer) ?? .hugeInteger(number.doubleValue)
            } else {
                self = .integer(Int(number.int64Value))
            }
            return
        }
        let d = number.doubleValue
        if d.magnitude < 9_007_199_254_740_992, let i = Int(exactly: d) { self = .integer(i) }
        else if d.isFinite, d == d.rounded() { self = .hugeInteger(d) }
        else { self = .fraction(d) }
    }
}

/// JSON text that is not JSON, with Foundation's description of where.
public struct JSONParseError: Error, Equatable, Sendable {
    /// What the parser said (e.g. `Unexpected end of file during JSON parse.`).
    public let message: String
}

extension JSONValue {
    /// The one JSON text parser behind every `JSONValue` read from text (bridge messages,
    /// scenario checks, the audit log): Foundation's `JSONSerialization` (RFC 8259, fragments
    /// allowed), object members in key order (JSON objects are unordered), numbers as
    /// `JSONNumber` says (a huge integer or a fraction as `.double`).
    /// - Throws: `JSONParseError`.
    public static func parse(_ text: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        do {
            return JSONValue(foundation: try JSONSerialization.jsonObject(with: Data(text), options: [.fragmentsAllowed]))
        } catch {
            throw JSONParseError(message: (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "syntax error")
        }
    }

    /// A value `JSONSerialization` produced.
    public init(foundation value: Any) {
        switch value {
        case let number as NSNumber:
            switch JSONNumber(number) {
            case .bool(let b): self = .bool(b)
            case .integer(let i): self = .int(i)
            case .hugeInteger(let d), .fraction(let d): self = .double(d)
            }
        case let text as String: self = .string(text)
        case let items as [Any]: self = .array(items.map(JSONValue.init(foundation:)))
        case let members as [String: Any]:
            self = .object(members.keys.sorted().map { ($0, JSONValue(foundation: members[$0] as Any)) })
        default: self = .null
        }
    }
}
