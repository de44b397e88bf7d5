/// A firmware version as dotted numbers, compared numerically (10.0 > 7.0, 7.10 > 7.9).
///
/// Missing trailing components count as 0 (`7` == `7.0`). Components are compared as digit
/// strings of any length (leading zeros aside), so `99999999999999999999.0` is newer than 7.0,
/// never "too old" for overflowing an integer. Source: docs/design.md "The bracelet port".
public struct FirmwareVersion: Comparable, Sendable, CustomStringConvertible {
    /// The components as decimal digit strings without leading zeros (`"0"` for zero), most
    /// significant first.
    public let digits: [String]

    /// The components as integers, most significant first; nil for one beyond `Int`.
    public var components: [Int?] { digits.map { Int($0) } }

    /// Parses `text` like `7.4` or `10.0.3`; nil when a component is not a non-negative integer.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var numbers: [String] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            let trimmed = part.drop { $0 == "0" }
            numbers.append(trimmed.isEmpty ? "0" : String(trimmed))
        }
        guard !numbers.isEmpty else { return nil }
        digits = numbers
    }

    public static func < (lhs: FirmwareVersion, rhs: FirmwareVersion) -> Bool {
        for i in 0..<max(lhs.digits.count, rhs.digits.count) {
            let a = i < lhs.digits.count ? lhs.digits[i] : "0"
            let b = i < rhs.digits.count ? rhs.digits[i] : "0"
            // Without leading zeros, the longer digit string is the larger number.
            if a.utf8.count != b.utf8.count { return a.utf8.count < b.utf8.count }
            if a != b { return a.utf8.lexicographicallyPrecedes(b.utf8) }
        }
        return false
    }

    public static func == (lhs: FirmwareVersion, rhs: FirmwareVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    public var description: String { digits.joined(separator: ".") }
}
