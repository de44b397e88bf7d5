/// An IEEE-11073 16-bit SFLOAT: a signed 4-bit exponent (high nibble) and a signed 12-bit mantissa.
///
/// Five mantissa values are not numbers: NaN 0x07FF, NRes 0x0800, +INF 0x07FE, -INF 0x0802 and
/// the reserved 0x0801. A cuff showing "Err" sends NaN, which must never be read as 2047.
/// Source: IEEE 11073-20601 §F.8 "SFLOAT-Type"; Bluetooth GATT Specification Supplement.
public struct SFloat: Equatable, Sendable {
    /// The two bytes as sent (little-endian on the wire, already assembled).
    public let raw: UInt16

    /// Creates an SFLOAT from its 16-bit pattern.
    public init(raw: UInt16) { self.raw = raw }

    /// The special values that are not numbers.
    public enum Special: Equatable, Sendable {
        case nan, notAtThisResolution, positiveInfinity, negativeInfinity, reserved

        /// The name used in reject reasons (`NaN`, `NRes`, `+INF`, `-INF`, `reserved`).
        public var name: String {
            switch self {
            case .nan: return "NaN"
            case .notAtThisResolution: return "NRes"
            case .positiveInfinity: return "+INF"
            case .negativeInfinity: return "-INF"
            case .reserved: return "reserved"
            }
        }
    }

    /// The signed 12-bit mantissa (-2048...2047).
    public var mantissa: Int {
        let m = Int(raw & 0x0FFF)
        return m >= 0x0800 ? m - 0x1000 : m
    }

    /// The signed 4-bit base-10 exponent (-8...7).
    public var exponent: Int {
        let e = Int(raw >> 12)
        return e >= 0x8 ? e - 0x10 : e
    }

    /// Which special value this is, or nil for a number. Specials are defined on the mantissa
    /// with exponent 0 (the spec reserves exactly those five bit patterns).
    public var special: Special? {
        switch raw {
        case 0x07FF: return .nan
        case 0x0800: return .notAtThisResolution
        case 0x07FE: return .positiveInfinity
        case 0x0802: return .negativeInfinity
        case 0x0801: return .reserved
        default: return nil
        }
    }

    /// The value as a Double, or nil when not a number. Negative exponents divide by an exact
    /// power of ten, so 189e-1 reads as exactly the Double nearest 18.9.
    public var value: Double? {
        guard special == nil else { return nil }
        let m = Double(mantissa)
        let e = exponent
        return e < 0 ? m / SFloat.powersOfTen[-e] : m * SFloat.powersOfTen[e]
    }

    private static let powersOfTen: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8]
}
