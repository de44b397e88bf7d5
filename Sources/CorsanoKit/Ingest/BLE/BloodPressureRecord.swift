/// A stored record of a Blood Pressure Service 1.1 cuff (Blood Pressure Record, 0x2B36), once
/// its segments are put together.
///
/// Each indication is one segment: a Segmentation Header byte (bit 0 first segment, bit 1 last
/// segment, bits 2-7 a rolling segment counter, +1 per segment modulo 64) followed by the next
/// part of the record value. The record value is the Sequence Number (uint16, per user, 0 after
/// 65535), the UUID (uint16) of the recorded characteristic (0x2A35 or 0x2B34 here), the recorded
/// characteristic's value and, when the cuff's Blood Pressure Feature says so, a 2-byte E2E-CRC
/// (left as trailing bytes, which the measurement decoders tolerate). Sources: Bluetooth GATT
/// Specification Supplement, org.bluetooth.characteristic.blood_pressure_record (fields as
/// reproduced in the GSS-generated docs of trouble-host `BLOOD_PRESSURE_RECORD` and
/// bluetooth-sig-python); Blood Pressure Service v1.1.1.
public struct BloodPressureRecord: Equatable, Sendable {
    /// The record's sequence number (a natural de-duplication key, kept as `sequence`).
    public var sequence: UInt16
    /// The 16-bit UUID of the recorded characteristic.
    public var characteristic: UInt16
    /// The recorded characteristic's value (and the E2E-CRC, if the cuff sends one).
    public var value: [UInt8]

    /// Creates a record.
    public init(sequence: UInt16, characteristic: UInt16, value: [UInt8]) {
        (self.sequence, self.characteristic, self.value) = (sequence, characteristic, value)
    }

    /// The record of a complete record value. - Throws: `BLEDecodeError.record` when shorter
    /// than the sequence number and UUID.
    public static func decode(_ bytes: [UInt8]) throws(BLEDecodeError) -> BloodPressureRecord {
        guard bytes.count >= 4 else {
            throw .record("record: \(bytes.count) bytes, shorter than sequence number + UUID (4 bytes)")
        }
        return BloodPressureRecord(sequence: UInt16(bytes[0]) | UInt16(bytes[1]) << 8,
                                   characteristic: UInt16(bytes[2]) | UInt16(bytes[3]) << 8,
                                   value: Array(bytes[4...]))
    }
}

/// Puts 0x2B36 segments back together, in arrival order (one per capture or connection).
public struct BloodPressureRecordAssembler: Sendable {
    private var pending: [UInt8]?
    private var counter: UInt8 = 0

    /// Creates an assembler with no record begun.
    public init() {}

    /// True while a record's first segment arrived and its last did not.
    public var isPending: Bool { pending != nil }

    /// Forgets a record begun (a disconnect ends it).
    public mutating func reset() { pending = nil }

    /// Why the record begun before was dropped, once: a first segment arrived before its last
    /// one. Callers check it after each `add` (the new segment itself was taken).
    public private(set) var dropped: String?

    /// Returns and clears `dropped`.
    public mutating func takeDropped() -> String? {
        defer { dropped = nil }
        return dropped
    }

    /// Adds one segment; returns the record when it was the last one.
    /// - Throws: `BLEDecodeError.record` for an empty segment, a segment that continues no record,
    ///   a counter that skips (a segment lost: the record is dropped), or a record too short. A
    ///   record begun again before its last segment drops the earlier one (`dropped`).
    public mutating func add(_ segment: [UInt8]) throws(BLEDecodeError) -> BloodPressureRecord? {
        guard let header = segment.first else { throw .record("segment: empty") }
        let first = header & 0x01 != 0, last = header & 0x02 != 0, count = header >> 2
        let part = segment.dropFirst()
        if first {
            if pending != nil {
                dropped = "segment: a new record began before the last segment of the one before (that one is dropped)"
            }
            pending = Array(part)
            counter = count
        } else {
            guard pending != nil else {
                throw .record("segment: counter \(count) continues no record (its first segment is missing)")
            }
            let expected = (counter + 1) & 0x3F
            guard count == expected else {
                pending = nil
                throw .record("segment: counter \(count), expected \(expected) (a segment is missing; the record is dropped)")
            }
            counter = count
            pending! += part
        }
        guard last, let bytes = pending else { return nil }
        pending = nil
        return try BloodPressureRecord.decode(bytes)
    }
}

/// What one characteristic value (or stored record) is: a reading, a skip, or why it is not one.
/// Shared by `cuff ingest --from ble` and the live collector so both read a value alike.
public enum BLEValueReader {
    /// The outcome of one value.
    public enum Outcome: Equatable, Sendable {
        case reading(CuffReading)
        /// Intermediate cuff pressure (0x2A36, 0x2B35): progress, never a reading.
        case intermediateCuffPressure
        /// A record of another characteristic, named as `2A9D`.
        case otherCharacteristic(String)
    }

    /// The reading of a 0x2A35 (`enhanced` false) or 0x2B34 payload.
    /// - Throws: `BLEDecodeError` or `IngestIssue` naming the field.
    public static func reading(_ payload: [UInt8], enhanced: Bool, receivedAt: String?) throws -> CuffReading {
        let m = enhanced ? try BloodPressureMeasurement.decodeEnhanced(payload) : try BloodPressureMeasurement.decode(payload)
        return try BLEReadingConverter.reading(from: m, receivedAt: receivedAt)
    }

    /// What a stored record holds; a reading gets its `sequence`.
    /// - Throws: `BLEDecodeError` or `IngestIssue` naming the field.
    public static func outcome(of record: BloodPressureRecord, receivedAt: String?) throws -> Outcome {
        switch record.characteristic {
        case 0x2A35, 0x2B34:
            var reading = try reading(record.value, enhanced: record.characteristic == 0x2B34, receivedAt: receivedAt)
            reading.provenance.append(ProvenanceField(name: "sequence", rawJSON: String(record.sequence)))
            return .reading(reading)
        case 0x2A36, 0x2B35:
            return .intermediateCuffPressure
        default:
            return .otherCharacteristic(BLEHex.characteristic(record.characteristic))
        }
    }
}

extension CuffReading {
    /// The Blood Pressure Record sequence number this reading came with (`sequence`), if any.
    public var sequence: UInt16? {
        provenance.first { $0.name == "sequence" }.flatMap { UInt16($0.rawJSON) }
    }
}
