import CorsanoKit
import Foundation
import Testing

/// Issue 31: nRF Connect logs, Enhanced Blood Pressure Measurement (0x2B34) and segmented Blood
/// Pressure Records (0x2B36) in `--from ble` captures. Fixtures: Tests/Fixtures/ble (README).
@Suite struct BLS11CaptureTests {
    static let base = "-0000-1000-8000-00805f9b34fb"

    /// The outcomes of `lines` read in order by one reader, and its end.
    static func read(_ lines: [String]) -> (outcomes: [(Int, BLECaptureReader.Outcome)], end: (line: Int, issue: IngestIssue)?) {
        var reader = BLECaptureReader()
        var out: [(Int, BLECaptureReader.Outcome)] = []
        for (i, line) in lines.enumerated() {
            for outcome in reader.read(Array(line.utf8), number: i + 1) { out.append((i + 1, outcome)) }
        }
        return (out, reader.finish())
    }

    static func readings(_ outcomes: [(Int, BLECaptureReader.Outcome)]) -> [(Int, CuffReading)] {
        outcomes.compactMap { if case .record(.success(.reading(let r))) = $0.1 { ($0.0, r) } else { nil } }
    }

    static func fixtureLines(_ name: String) throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/ble/\(name)")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    // MARK: nRF Connect logs

    @Test func nRFConnectValueLineIsItsCharacteristicAndTheEchoIsNot() throws {
        let value = "I\t10:21:03.512\tIndication received from 00002a35\(Self.base), value: (0x) 00-78-00-50-00-5D-00"
        #expect(try BLECaptureLine.parse(Array(value.utf8)) == .measurement(payload: [0, 0x78, 0, 0x50, 0, 0x5D, 0], receivedAt: nil))
        let echo = "A\t10:21:03.514\t\"(0x) 00-78-00-50-00-5D-00\" received"
        #expect(try BLECaptureLine.parse(Array(echo.utf8)) == .logText)
        let other = "I\t22:02:00.493\tNotification received from 00002af0\(Self.base), value: (0x) 02-40-DD-02-31-AD-03"
        #expect(try BLECaptureLine.parse(Array(other.utf8)) == .otherCharacteristic("2AF0"))
        let cuffPressure = "I\t10:21:01.904\tNotification received from 00002a36\(Self.base), value: (0x) 00-8C-00-FF-07-FF-07"
        #expect(try BLECaptureLine.parse(Array(cuffPressure.utf8)) == .intermediateCuffPressure)
        #expect(try BLECaptureLine.parse(Array("nRF Connect, 2026-11-29".utf8)) == .logText)
        // The level letter is not a capture time (it was read as one before issue 31).
        #expect(try BLECaptureLine.parse(Array("I\t10:20:59.310\tConnected to A0:9E:1A:00:00:01".utf8)) == .logText)
        #expect(IngestFormat.detect(firstLine: Array("nRF Connect, 2026-11-29".utf8)) == .ble)
        #expect(IngestFormat.detect(firstLine: Array(value.utf8)) == .ble)
    }

    @Test func badHexInAnNRFValueLineNamesItsColumn() {
        let line = "I\t10:21:03.512\tIndication received from 00002a35\(Self.base), value: (0x) 00-7G"
        #expect(throws: BLECaptureLine.ParseError.notHex(character: "G", column: line.utf8.count)) {
            try BLECaptureLine.parse(Array(line.utf8))
        }
    }

    /// The layout of a capture as people post it (header, device line, multi-line service list,
    /// `A` echo after every value, another device characteristic notifying; see the README).
    @Test func nRFConnectLogFixtureGivesTwoReadingsAndNamesTheOtherCharacteristicOnce() throws {
        let (outcomes, end) = Self.read(try Self.fixtureLines("nrf-connect-log.txt"))
        #expect(end == nil)
        let readings = Self.readings(outcomes)
        #expect(readings.map(\.0) == [19, 25])
        #expect(readings.map { [$0.1.systolic, $0.1.diastolic, $0.1.pulse ?? 0] } == [[126, 82, 72], [131, 85, 70]])
        #expect(readings.map { $0.1.deviceTime?.description } == ["2026-11-29T10:21:00", "2026-11-29T10:24:30"])
        #expect(readings.allSatisfy { $0.1.receivedAt == nil })
        let skips = outcomes.compactMap { if case .skipped(let why, let message) = $0.1 { "\($0.0) \(why.rawValue) \(message ?? "-")" } else { nil } }
        #expect(skips == ["21 another characteristic values of 2AF0 skipped: not a blood pressure characteristic",
                          "23 another characteristic -"])
        let failures = outcomes.filter { if case .record(.failure) = $0.1 { true } else { false } }
        #expect(failures.isEmpty, "\(failures)")
        #expect(outcomes.contains { $0.0 == 17 && $0.1 == .record(.success(.skipped(.intermediateCuffPressure))) })
    }

    @Test func aLineThatIsNoLogTextRightAfterAValueIsStillReadAndRejected() {
        let (outcomes, _) = Self.read([
            "I\t10:21:03.512\tIndication received from 00002a35\(Self.base), value: (0x) 00-78-00-50-00-5D-00",
            "not a log line",
        ])
        #expect(outcomes.last?.1 == .record(.failure(IngestIssue("payload: 'n' at column 1 is not a hex digit"))))
    }

    // MARK: 0x2B34

    @Test func enhancedMeasurementDecodesEpoch2000TimeStampAndUserFacingTime() throws {
        // flags 0x7E: time stamp, pulse, user, status, user facing time, epoch 2000.
        let m = try BloodPressureMeasurement.decodeEnhanced(BLEHexTests.bytes("7E80005400630 0FCAA9E32460001000 00CB99E32"))
        #expect(m.systolic.value == 128 && m.diastolic.value == 84 && m.meanArterialPressure.value == 99)
        #expect(m.timestamp?.description == "2026-11-29T09:21:00")
        #expect(m.userFacingTime?.description == "2026-11-29T10:21:00")
        let r = try BLEReadingConverter.reading(from: m, receivedAt: nil)
        #expect(r.deviceTime?.description == "2026-11-29T10:21:00", "the user-facing time is the cuff's wall clock")
        #expect(r.provenance.map(\.name) == ["userId", "status", "cuffTimeStamp"])
        // Epoch 1900 (bit 6 clear): seconds counted from 1900-01-01T00:00:00.
        let old = try BloodPressureMeasurement.decodeEnhanced([0x02, 0x78, 0, 0x50, 0, 0x5D, 0] + [0x40, 0x5C, 0x3C, 0xE9])
        #expect(old.timestamp == NaiveDateTime(secondsSinceEpoch: -2_208_988_800 + 0xE93C_5C40))
    }

    @Test(arguments: [
        // Time stamp without user facing time: 3 bytes shorter than 0x2A35's Date Time.
        ("1E7E005200600090B99E3248000100 00", BLEPayloadLayout.enhancedMeasurement),
        // Epoch 2000 flag (reserved in 0x2A35).
        ("5E7E00520060000CB99E324800010000", .enhancedMeasurement),
        // The same bytes fit both (no time): 0x2A35.
        ("1C7E005200600048000100 00", .measurement),
        // A 0x2A35 with its Date Time.
        ("1E7E00520060 00EA070B1D0A1500480001 0000", .measurement),
    ])
    func anUnnamedPayloadIs2B34OnlyWhenOnlyThatLayoutFits(_ hex: String, _ layout: BLEPayloadLayout) {
        #expect(BLEPayloadLayout.of(BLEHexTests.bytes(hex)) == layout)
    }

    @Test func enhancedPayloadsAreNoLongerRejectedForLengthOrCalendar() throws {
        let (outcomes, _) = Self.read(["5E7E00520060000CB99E324800010000", "2B34 5E-7E-00-52-00-60-00-0C-B9-9E-32-48-00-01-00-00"])
        #expect(Self.readings(outcomes).map { $0.1.deviceTime?.description } == ["2026-11-29T10:21:00", "2026-11-29T10:21:00"])
    }

    // MARK: 0x2B36

    @Test func bls11FixtureReassemblesSegmentsAndKeepsTheSequence() throws {
        let (outcomes, end) = Self.read(try Self.fixtureLines("bls11-records.txt"))
        #expect(end == nil)
        let readings = Self.readings(outcomes)
        #expect(readings.map(\.0) == [4, 6, 7], "a record's reading comes at its last segment's line")
        #expect(readings.map(\.1.sequence) == [nil, 41, 42])
        #expect(readings.map(\.1.systolic) == [126, 126, 131])
        #expect(readings[1].1.receivedAt == "2026-11-29T10:30:00Z")
        #expect(readings[1].1.jsonLine().hasSuffix(#""userId":1,"status":{"bodyMovement":false,"cuffTooLoose":false,"irregularPulse":false,"pulseRateRange":"withinRange","improperPosition":false},"sequence":41}"#))
    }

    @Test(arguments: [
        // The second segment alone: its first is missing.
        (["2B36 1A-B9-9E-32-48-00-01-00-00"], 1, "segment: counter 6 continues no record (its first segment is missing)"),
        // Counter 5 then 7: a segment lost.
        (["2B36 15-29-00-34-2B-5E-7E-00-52-00-60-00-0C", "2B36 1E-B9-9E-32-48-00-01-00-00"], 2,
         "segment: counter 7, expected 6 (a segment is missing; the record is dropped)"),
        // A first segment again before the last: the earlier record is dropped.
        (["2B36 15-29-00-34-2B-5E-7E-00-52-00-60-00-0C", "2B36 15-29-00-34-2B-5E-7E-00-52-00-60-00-0C"], 2,
         "segment: a new record began before the last segment of the one before (that one is dropped)"),
        (["2B36 03-29-00"], 1, "record: 2 bytes, shorter than sequence number + UUID (4 bytes)"),
    ] as [([String], Int, String)])
    func brokenSegmentsAreRejectedNamingWhy(_ lines: [String], _ line: Int, _ reason: String) {
        let (outcomes, _) = Self.read(lines)
        #expect(outcomes.contains { $0.0 == line && $0.1 == .record(.failure(IngestIssue(reason))) }, "\(outcomes)")
    }

    @Test func anInputEndingInsideARecordSaysSoAtItsFirstLine() {
        let (_, end) = Self.read(["# c", "2B36 15-29-00-34-2B-5E-7E-00-52-00-60-00-0C"])
        #expect(end?.line == 2)
        #expect(end?.issue == IngestIssue("segment: the input ended before the last segment of this record (0x2B36)"))
    }
}

enum BLEHexTests {
    /// Hex digits (spaces ignored) to bytes.
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.filter { $0 != " " })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }
}
