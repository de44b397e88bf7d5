/// The Measurement Status field of a Blood Pressure Measurement (0x2A35).
///
/// Bit 0 body movement, bit 1 cuff too loose, bit 2 irregular pulse, bits 3-4 one 2-bit
/// pulse-rate-range field, bit 5 improper measurement position; bits 6-15 are reserved and
/// ignored. Source: Bluetooth GATT Specification Supplement, "Blood Pressure Measurement".
public struct MeasurementStatus: Equatable, Sendable {
    /// The 16-bit field as sent, reserved bits included.
    public let raw: UInt16

    /// Creates a status from its 16-bit field.
    public init(raw: UInt16) { self.raw = raw }

    /// The 2-bit pulse-rate-range field.
    public enum PulseRateRange: Int, Equatable, Sendable {
        case withinRange = 0, exceedsUpperLimit = 1, belowLowerLimit = 2, reserved = 3

        /// camelCase name as written in reading lines.
        public var name: String {
            switch self {
            case .withinRange: return "withinRange"
            case .exceedsUpperLimit: return "exceedsUpperLimit"
            case .belowLowerLimit: return "belowLowerLimit"
            case .reserved: return "reserved"
            }
        }
    }

    public var bodyMovement: Bool { raw & 0x0001 != 0 }
    public var cuffTooLoose: Bool { raw & 0x0002 != 0 }
    public var irregularPulse: Bool { raw & 0x0004 != 0 }
    /// Bits 3-4 read as one field (never as two independent flags).
    public var pulseRateRange: PulseRateRange { PulseRateRange(rawValue: Int((raw >> 3) & 0x3)) ?? .reserved }
    public var improperPosition: Bool { raw & 0x0020 != 0 }

    /// The status as a JSON object text for the reading's `status` provenance field.
    public var json: String {
        "{\"bodyMovement\":\(bodyMovement),\"cuffTooLoose\":\(cuffTooLoose),\"irregularPulse\":\(irregularPulse),"
            + "\"pulseRateRange\":\"\(pulseRateRange.name)\",\"improperPosition\":\(improperPosition)}"
    }
}
