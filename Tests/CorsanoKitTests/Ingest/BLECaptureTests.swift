import CorsanoKit
import Testing

@Suite struct SFloatTests {
    @Test(arguments: [
        (UInt16(0x07FF), SFloat.Special.nan), (0x0800, .notAtThisResolution), (0x07FE, .positiveInfinity),
        (0x0802, .negativeInfinity), (0x0801, .reserved),
    ])
    func specialsAreNotNumbers(_ raw: UInt16, _ special: SFloat.Special) {
        #expect(SFloat(raw: raw).special == special)
        #expect(SFloat(raw: raw).value == nil)
    }

    @Test(arguments: [
        (UInt16(0x0078), 120.0), (0xF0BD, 18.9), (0x100C, 120), (0xF4B0, 120), (0x0FFF, -1), (0x07FD, 2045),
        (0x0803, -2045), (0x8001, 0.00000001), (0x7001, 10_000_000), (0x17FF, 20470), (0xF7FF, 204.7),
    ])
    func numbers(_ raw: UInt16, _ value: Double) {
        #expect(SFloat(raw: raw).value == value)
    }
}

@Suite struct BLECaptureLineTests {
    static let payload: [UInt8] = [0x00, 0x78, 0x00, 0x50, 0x00, 0x5D, 0x00]

    @Test(arguments: [
        "00780050005d00", "0x00780050005D00", "00 78 00 50 00 5d 00", "00-78-00-50-00-5d-00", "00:78:00:50:00:5D:00",
        "0x00 0x78 0x00 0x50 0x00 0x5d 0x00", "2A35 00780050005d00", "0x2a35 00 78 00 50 00 5d 00",
        "00002a35-0000-1000-8000-00805f9b34fb 00780050005d00", "  00780050005d00 \r",
    ])
    func hexForms(_ line: String) throws {
        // A line naming 0x2A35 is that; one naming nothing is read by layout.
        let named = line.lowercased().contains("2a35")
        #expect(try BLECaptureLine.parse(Array(line.utf8))
            == (named ? .measurement(payload: Self.payload, receivedAt: nil) : .untagged(payload: Self.payload, receivedAt: nil)))
    }

    @Test func receiveTimeIsKeptAsReceivedAtText() throws {
        let line = "2026-11-29T10:00:05Z\t2A35 00780050005d00"
        #expect(try BLECaptureLine.parse(Array(line.utf8))
            == .measurement(payload: Self.payload, receivedAt: "2026-11-29T10:00:05Z"))
    }

    @Test(arguments: [
        ("0078005g005d00", BLECaptureLine.ParseError.notHex(character: "g", column: 8)),
        ("0078005", .oddDigitCount(7)),
        ("2026-11-29T10:00:05Z\t", .emptyPayload),
        ("00002a49-0000-1000-8000-00805f9b34fb 0078", .otherCharacteristic("2A49")),
        ("notatime\t0078005000", .badTime("notatime")),
        ("2026-11-29 10:00:05\t0078005000", .badTime("2026-11-29 10:00:05")),
        ("2026-02-30T10:00:05Z\t0078005000", .badTime("2026-02-30T10:00:05Z")),
    ])
    func badLinesNameThePart(_ line: String, _ error: BLECaptureLine.ParseError) {
        #expect(throws: error) { try BLECaptureLine.parse(Array(line.utf8)) }
    }

    @Test func badTimeNamesReceivedAt() {
        #expect(BLECaptureLine.ParseError.badTime("notatime").reason
            == "receivedAt: 'notatime' (the capture's TIME column) is not an RFC 3339 time")
    }

    @Test(arguments: ["", "   ", "# capture of cuff 1", "\r"])
    func blankAndCommentLines(_ line: String) throws {
        #expect(try BLECaptureLine.parse(Array(line.utf8)) == .blank)
    }

    @Test func cuffErrSendsNaNEverywhereAndIsRejectedNever2047() throws {
        // flags: timestamp, pulse, status; NaN in every SFLOAT, status 0 (no bit set).
        let m = try BloodPressureMeasurement.decode(
            [0x16, 0xFF, 0x07, 0xFF, 0x07, 0xFF, 0x07, 0xEA, 0x07, 11, 29, 10, 0, 0, 0xFF, 0x07, 0, 0])
        #expect(throws: IngestIssue("systolic: not a number (SFLOAT NaN)")) {
            try BLEReadingConverter.reading(from: m, receivedAt: nil)
        }
    }

    @Test func nonNumberPulseAndMAPReadAsNotReported() throws {
        let m = try BloodPressureMeasurement.decode([0x04, 0x78, 0x00, 0x50, 0x00, 0xFF, 0x07, 0x00, 0x08])
        let r = try BLEReadingConverter.reading(from: m, receivedAt: nil)
        #expect(r.meanArterialPressure == nil)
        #expect(r.pulse == nil)
    }

    @Test func fractionalPulseRoundsAndIsNeverConvertedFromKPa() throws {
        // kPa flag + pulse 72.5 (0xF2D5 = 725e-1): pulse 73 bpm, not 544.
        let m = try BloodPressureMeasurement.decode([0x05, 0xA0, 0xF0, 0x6B, 0xF0, 0x7C, 0xF0, 0xD5, 0xF2])
        #expect(try BLEReadingConverter.reading(from: m, receivedAt: nil).pulse == 73)
    }

    @Test func userAndStatusBecomeProvenanceUnknownUserDoesNot() throws {
        let known = try BloodPressureMeasurement.decode([0x18, 0x78, 0, 0x50, 0, 0x5A, 0, 5, 0x0B, 0xC0])
        let r = try BLEReadingConverter.reading(from: known, receivedAt: "t")
        #expect(r.jsonLine() == #"{"systolic":120,"diastolic":80,"meanArterialPressure":90,"receivedAt":"t","isManualEntry":false,"userId":5,"status":{"bodyMovement":true,"cuffTooLoose":true,"irregularPulse":false,"pulseRateRange":"exceedsUpperLimit","improperPosition":false}}"#)
        let unknown = try BloodPressureMeasurement.decode([0x08, 0x78, 0, 0x50, 0, 0x5A, 0, 0xFF])
        #expect(try BLEReadingConverter.reading(from: unknown, receivedAt: nil).provenance.isEmpty)
    }

    @Test func reservedStatusBitsAreIgnored() {
        let s = MeasurementStatus(raw: 0xFFC0)
        #expect(!s.bodyMovement && !s.cuffTooLoose && !s.irregularPulse && !s.improperPosition)
        #expect(s.pulseRateRange == .withinRange)
    }

    @Test(arguments: [
        ([UInt8](arrayLiteral: 0xE8, 0x07, 2, 30, 7, 0, 0), "2024-2-30 7:0:0"),
        ([0xE9, 0x07, 2, 29, 7, 0, 0], "2025-2-29 7:0:0"),
        ([0xE8, 0x07, 13, 1, 7, 0, 0], "2024-13-1 7:0:0"),
        ([0xE8, 0x07, 1, 1, 24, 0, 0], "2024-1-1 24:0:0"),
        ([0xE8, 0x07, 1, 1, 0, 60, 0], "2024-1-1 0:60:0"),
    ])
    func impossibleDatesAreRejectedNamingTheTimestamp(_ time: [UInt8], _ text: String) {
        #expect(throws: BLEDecodeError.invalidTimestamp(text)) {
            try BloodPressureMeasurement.decode([0x02, 0x78, 0, 0x50, 0, 0x5A, 0] + time)
        }
    }

    @Test func trailingBytesAreTolerated() throws {
        let m = try BloodPressureMeasurement.decode([0x04, 0x78, 0, 0x50, 0, 0x5A, 0, 0x48, 0, 0xAA, 0xBB])
        #expect(m.pulse?.value == 72)
    }
}
