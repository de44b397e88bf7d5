/// Enhanced Blood Pressure Measurement (0x2B34, Blood Pressure Service 1.1) and the rule that
/// tells an unnamed payload's layout.
///
/// Layout: Flags, the three SFLOAT pressures (as 0x2A35), then by flag: bit 1 Time Stamp (uint32
/// seconds since the epoch), bit 2 Pulse Rate (SFLOAT), bit 3 User ID (uint8), bit 4 Measurement
/// Status (16 bits), bit 5 User Facing Time (uint32 seconds since the epoch); bit 6 Epoch Start
/// 2000 (0: 1900-01-01, 1: 2000-01-01); bit 7 reserved. Source: Bluetooth GATT Specification
/// Supplement, org.bluetooth.characteristic.enhanced_blood_pressure_measurement (as reproduced by
/// the bluetooth-sig-python GSS implementation); Blood Pressure Service v1.1.1.
extension BloodPressureMeasurement {
    /// 1900-01-01T00:00:00 and 2000-01-01T00:00:00 as seconds since 1970 on a naive clock.
    static let epoch1900: Int64 = -2_208_988_800
    static let epoch2000: Int64 = 946_684_800

    /// Decodes a 0x2B34 payload into the same fields as 0x2A35 (the stamps as naive cuff-clock
    /// times). Trailing bytes are tolerated, as for 0x2A35.
    /// - Throws: `BLEDecodeError` when too short or truncated for its flags.
    public static func decodeEnhanced(_ bytes: some RandomAccessCollection<UInt8>) throws(BLEDecodeError) -> BloodPressureMeasurement {
        let b = Array(bytes)
        guard b.count >= 7 else { throw .tooShort(byteCount: b.count) }
        let flags = b[0]
        let needed = BLEPayloadLayout.enhancedLength(flags)
        guard b.count >= needed else { throw .truncated(byteCount: b.count, needed: needed, flags: flags) }
        func u16(_ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
        func u32(_ i: Int) -> Int64 { Int64(u16(i)) | Int64(u16(i + 2)) << 16 }
        let epoch = flags & 0x40 != 0 ? epoch2000 : epoch1900
        var m = BloodPressureMeasurement(
            unit: flags & 0x01 != 0 ? .kPa : .mmHg,
            systolic: SFloat(raw: u16(1)), diastolic: SFloat(raw: u16(3)), meanArterialPressure: SFloat(raw: u16(5)))
        var i = 7
        if flags & 0x02 != 0 { m.timestamp = NaiveDateTime(secondsSinceEpoch: epoch + u32(i)); i += 4 }
        if flags & 0x04 != 0 { m.pulse = SFloat(raw: u16(i)); i += 2 }
        if flags & 0x08 != 0 { m.userId = b[i]; i += 1 }
        if flags & 0x10 != 0 { m.status = MeasurementStatus(raw: u16(i)); i += 2 }
        if flags & 0x20 != 0 { m.userFacingTime = NaiveDateTime(secondsSinceEpoch: epoch + u32(i)) }
        return m
    }
}

/// Which layout an unnamed payload has: 0x2A35 unless only the 0x2B34 layout fits its length
/// and flags. Flags bits 5 and 6 are reserved in 0x2A35 and name User Facing Time
/// and the epoch in 0x2B34; a 0x2B34 Time Stamp is 3 bytes shorter than a 0x2A35 Date Time.
public enum BLEPayloadLayout: Equatable, Sendable {
    case measurement, enhancedMeasurement

    /// The layout of `payload` (0x2A35 when both or neither fit).
    public static func of(_ payload: [UInt8]) -> BLEPayloadLayout {
        guard let flags = payload.first else { return .measurement }
        let fitsMeasurement = flags & 0x60 == 0 && payload.count >= measurementLength(flags)
        let fitsEnhanced = payload.count >= enhancedLength(flags)
        return fitsEnhanced && !fitsMeasurement ? .enhancedMeasurement : .measurement
    }

    /// Bytes a 0x2A35 payload with `flags` needs.
    static func measurementLength(_ flags: UInt8) -> Int {
        7 + (flags & 0x02 != 0 ? 7 : 0) + (flags & 0x04 != 0 ? 2 : 0) + (flags & 0x08 != 0 ? 1 : 0) + (flags & 0x10 != 0 ? 2 : 0)
    }

    /// Bytes a 0x2B34 payload with `flags` needs.
    static func enhancedLength(_ flags: UInt8) -> Int {
        7 + (flags & 0x02 != 0 ? 4 : 0) + (flags & 0x04 != 0 ? 2 : 0) + (flags & 0x08 != 0 ? 1 : 0)
            + (flags & 0x10 != 0 ? 2 : 0) + (flags & 0x20 != 0 ? 4 : 0)
    }
}
