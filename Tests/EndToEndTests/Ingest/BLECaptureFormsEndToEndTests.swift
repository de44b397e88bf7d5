import Foundation
import Testing

/// `corsano cuff ingest` on BLE captures as people post them: an nRF Connect log,
/// detected without `--from`, and a Blood Pressure Service 1.1 capture with segmented records.
@Suite struct BLECaptureFormsEndToEndTests {
    static func fixture(_ name: String) -> String { Corsano.fixtures.appendingPathComponent(name).path }

    @Test func nRFConnectLogIsDetectedAndItsEchoLinesAreNotSecondReadings() throws {
        let file = Self.fixture("ble/nrf-connect-log.txt")
        let r = try Corsano.run(["cuff", "ingest", "--tz", "UTC", file])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines == [
            #"{"systolic":126,"diastolic":82,"pulse":72,"meanArterialPressure":96,"measuredAt":"2026-11-29T10:21:00Z","deviceTime":"2026-11-29T10:21:00","isManualEntry":false,"userId":1,"status":{"bodyMovement":false,"cuffTooLoose":false,"irregularPulse":false,"pulseRateRange":"withinRange","improperPosition":false}}"#,
            #"{"systolic":131,"diastolic":85,"pulse":70,"meanArterialPressure":100,"measuredAt":"2026-11-29T10:24:30Z","deviceTime":"2026-11-29T10:24:30","isManualEntry":false,"userId":1,"status":{"bodyMovement":false,"cuffTooLoose":false,"irregularPulse":false,"pulseRateRange":"withinRange","improperPosition":false}}"#,
        ])
        #expect(r.stderr.contains("\(file):21: skipped: values of 2AF0 skipped: not a blood pressure characteristic\n"))
        #expect(!r.stderr.contains(":23: skipped"), "named once")
        #expect(r.stderr.hasSuffix("cuff ingest: read 5, written 2, skipped 3 (intermediate cuff pressure (0x2A36): 1, another characteristic: 2), dropped 0, rejected 0\n"), "\(r.stderr)")
    }

    @Test func bls11CaptureReassemblesRecordsWithTheirSequence() throws {
        let r = try Corsano.run(["cuff", "ingest", "--tz", "UTC", Self.fixture("ble/bls11-records.txt")])
        #expect(r.status == 0, "\(r.stderr)")
        let sequences = r.lines.map { line -> Int? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["sequence"] as? Int
        }
        #expect(sequences == [nil, 41, 42])
        #expect(r.stderr.hasSuffix("cuff ingest: read 3, written 3, skipped 0, dropped 0, rejected 0\n"), "\(r.stderr)")
    }

    @Test func aRecordCutShortIsRejectedAt65NamingItsFirstLine() throws {
        let input = "2026-11-29T10:30:00Z\t2B36 15-29-00-34-2B-5E-7E-00-52-00-60-00-0C\n"
        let r = try Corsano.run(["cuff", "ingest", "--from", "ble"], stdin: input)
        #expect(r.status == 65)
        #expect(r.stderr.contains("<stdin>:1: segment: the input ended before the last segment of this record (0x2B36)"), "\(r.stderr)")
    }
}
