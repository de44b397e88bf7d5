/// One decoded Blood Pressure Measurement (characteristic 0x2A35), values as sent.
///
/// Values are the decoded SFLOATs before unit conversion or plausibility checks; turning them
/// into a `CuffReading` is `BLEReadingConverter`'s job. Source: Bluetooth GATT Specification
/// Supplement, "Blood Pressure Measurement"; Blood Pressure Profile 1.1.
public struct BloodPressureMeasurement: Equatable, Sendable {
    /// Pressure unit from flags bit 0.
    public enum Unit: Equatable, Sendable { case mmHg, kPa }

    public var unit: Unit
    public var systolic: SFloat
    public var diastolic: SFloat
    public var meanArterialPressure: SFloat
    /// The cuff's own clock at the measurement; nil when absent or marked unknown (a zero year,
    /// month or day).
    public var timestamp: NaiveDateTime?
    /// Pulse rate SFLOAT, always in beats per minute whatever the pressure unit.
    public var pulse: SFloat?
    /// User id as sent; 0xFF means "unknown user" (see `knownUserId`).
    public var userId: UInt8?
    public var status: MeasurementStatus?
    /// The time shown to the user (0x2B34 only, flags bit 5): the cuff's local wall clock, as
    /// 0x2A35's Date Time is; the reading's `deviceTime` when present (`timestamp` is then kept
    /// as `cuffTimeStamp`).
    public var userFacingTime: NaiveDateTime? = nil

    /// The user id, nil when absent or 0xFF (unknown user).
    public var knownUserId: Int? {
        guard let userId, userId != 0xFF else { return nil }
        return Int(userId)
    }
}

/// Why a 0x2A35 payload could not be decoded.
public enum BLEDecodeError: Error, Equatable, Sendable {
    /// Fewer than 7 bytes (flags + three SFLOATs).
    case tooShort(byteCount: Int)
    /// The flags announce optional fields the payload does not hold.
    case truncated(byteCount: Int, needed: Int, flags: UInt8)
    /// The Date Time field names no real calendar time (e.g. 2023-02-29, 25:00).
    case invalidTimestamp(String)
    /// A Blood Pressure Record (0x2B36) segment that does not continue a record, or a record too
    /// short for its sequence number and UUID; the text names the field.
    case record(String)

    /// One line of explanation naming the field.
    public var reason: String {
        switch self {
        case .tooShort(let n):
            return "payload: \(n) bytes, shorter than flags + systolic, diastolic, MAP (7 bytes)"
        case .truncated(let n, let needed, let flags):
            return "payload: \(n) bytes, flags 0x\(BLEHex.byte(flags)) announce \(needed)"
        case .invalidTimestamp(let text):
            return "timestamp: \(text) is not a real calendar time"
        case .record(let text):
            return text
        }
    }
}

extension BloodPressureMeasurement {
    /// Decodes a 0x2A35 payload. Flags bit 0 unit (0 mmHg, 1 kPa), bit 1 timestamp, bit 2 pulse,
    /// bit 3 user id, bit 4 status; fields in that order; bits 5-7 reserved and ignored.
    /// Trailing bytes beyond the announced fields are tolerated (some cuffs pad).
    /// - Throws: `BLEDecodeError` when too short, truncated, or the Date Time is not a real time.
    public static func decode(_ bytes: some RandomAccessCollection<UInt8>) throws(BLEDecodeError) -> BloodPressureMeasurement {
        let b = Array(bytes)
        guard b.count >= 7 else { throw .tooShort(byteCount: b.count) }
        let flags = b[0]
        let hasTime = flags & 0x02 != 0, hasPulse = flags & 0x04 != 0
        let hasUser = flags & 0x08 != 0, hasStatus = flags & 0x10 != 0
        let needed = BLEPayloadLayout.measurementLength(flags)
        guard b.count >= needed else { throw .truncated(byteCount: b.count, needed: needed, flags: flags) }

        func u16(_ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
        var m = BloodPressureMeasurement(
            unit: flags & 0x01 != 0 ? .kPa : .mmHg,
            systolic: SFloat(raw: u16(1)), diastolic: SFloat(raw: u16(3)), meanArterialPressure: SFloat(raw: u16(5)))
        var i = 7
        if hasTime {
            m.timestamp = try decodeDateTime(year: Int(u16(i)), month: Int(b[i + 2]), day: Int(b[i + 3]),
                                             hour: Int(b[i + 4]), minute: Int(b[i + 5]), second: Int(b[i + 6]))
            i += 7
        }
        if hasPulse { m.pulse = SFloat(raw: u16(i)); i += 2 }
        if hasUser { m.userId = b[i]; i += 1 }
        if hasStatus { m.status = MeasurementStatus(raw: u16(i)) }
        return m
    }

    /// The Date Time characteristic's fields: a zero year, month or day means "not known"
    /// (GATT Date Time 0x2A08), anything else must be a real calendar time.
    static func decodeDateTime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)
        throws(BLEDecodeError) -> NaiveDateTime? {
        if year == 0 || month == 0 || day == 0 { return nil }
        guard let t = NaiveDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else {
            throw .invalidTimestamp("\(year)-\(month)-\(day) \(hour):\(minute):\(second)")
        }
        return t
    }
}
