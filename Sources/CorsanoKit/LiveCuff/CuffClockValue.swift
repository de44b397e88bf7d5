/// A cuff's clock as read over GATT: Current Time (0x2A2B, Current Time Service 0x1805) or
/// Date Time (0x2A08).
///
/// Current Time is Exact Time 256 (Date Time, Day of Week, Fractions256) plus Adjust Reason:
/// 10 bytes; Date Time is year (uint16, little-endian), month, day, hours, minutes, seconds: 7
/// bytes; a zero year, month or day means "not known". Source: Bluetooth GATT Specification
/// Supplement, "Current Time", "Exact Time 256", "Date Time"; Current Time Service 1.1.
public struct CuffClockValue: Equatable, Sendable {
    /// Current Time.
    public static let currentTime: UInt16 = 0x2A2B
    /// Date Time.
    public static let dateTime: UInt16 = 0x2A08
    /// Current Time Service.
    public static let currentTimeService: UInt16 = 0x1805

    /// The clock's time, whole seconds.
    public var time: NaiveDateTime
    /// The part of a second past `time` (Fractions256 / 256), 0 when the cuff does not say.
    public var fraction: Double

    /// Creates a clock value.
    public init(time: NaiveDateTime, fraction: Double = 0) {
        self.time = time
        self.fraction = fraction
    }

    /// Why a clock value cannot be read.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Fewer bytes than the characteristic holds.
        case tooShort(characteristic: UInt16, byteCount: Int, needed: Int)
        /// The fields name no real calendar time (e.g. month 13).
        case notATime(String)

        public var description: String {
            switch self {
            case .tooShort(let c, let n, let needed):
                return "0x\(String(c, radix: 16, uppercase: true)): \(n) bytes, shorter than \(needed)"
            case .notATime(let text): return "cuff clock: \(text) is not a real calendar time"
            }
        }
    }

    /// Decodes the value of `characteristic` (0x2A2B or 0x2A08); nil when the cuff says its time is
    /// not known. - Throws: `Problem`.
    public static func decode(_ bytes: [UInt8], characteristic: UInt16) throws(Problem) -> CuffClockValue? {
        let needed = characteristic == currentTime ? 10 : 7
        guard bytes.count >= needed else { throw .tooShort(characteristic: characteristic, byteCount: bytes.count, needed: needed) }
        let year = Int(bytes[0]) | Int(bytes[1]) << 8
        let (month, day, hour, minute, second) = (Int(bytes[2]), Int(bytes[3]), Int(bytes[4]), Int(bytes[5]), Int(bytes[6]))
        let time: NaiveDateTime?
        do {
            time = try BloodPressureMeasurement.decodeDateTime(year: year, month: month, day: day, hour: hour,
                                                               minute: minute, second: second)
        } catch {
            throw .notATime("\(year)-\(month)-\(day) \(hour):\(minute):\(second)")
        }
        guard let time else { return nil }
        return CuffClockValue(time: time, fraction: characteristic == currentTime ? Double(bytes[8]) / 256 : 0)
    }

    /// The Current Time value that sets a cuff's clock to `time`: day of week filled in,
    /// fractions 0, adjust reason "manual time update" (bit 0).
    public static func currentTimeValue(_ time: NaiveDateTime) -> [UInt8] {
        [UInt8(time.year & 0xFF), UInt8(time.year >> 8), UInt8(time.month), UInt8(time.day),
         UInt8(time.hour), UInt8(time.minute), UInt8(time.second), UInt8(time.isoWeekday), 0, 0x01]
    }
}
