/// A firmware version as dotted numbers, compared numerically (10.0 > 7.0, 7.10 > 7.9).
///
/// Missing trailing components count as 0 (`7` == `7.0`). Source: DESIGN "The bracelet port".
public struct FirmwareVersion: Comparable, Sendable, CustomStringConvertible {
    /// The numeric components, most significant first.
    public let components: [Int]

    /// Parses `text` like `7.4` or `10.0.3`; nil when a component is not a non-negative integer.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let n = Int(part) else { return nil }
            numbers.append(n)
        }
        guard !numbers.isEmpty else { return nil }
        components = numbers
    }

    public static func < (lhs: FirmwareVersion, rhs: FirmwareVersion) -> Bool {
        for i in 0..<max(lhs.components.count, rhs.components.count) {
            let a = i < lhs.components.count ? lhs.components[i] : 0
            let b = i < rhs.components.count ? rhs.components[i] : 0
            if a != b { return a < b }
        }
        return false
    }

    public static func == (lhs: FirmwareVersion, rhs: FirmwareVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    public var description: String { components.map(String.init).joined(separator: ".") }
}
