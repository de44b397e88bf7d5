@testable import CorsanoKit
import Testing

/// `validate --state`: differences by days since the bracelet's last successful calibration.
@Suite struct CalibrationDriftTests {
    static let calibrated = RFC3339.parseInstant("2026-11-01T08:00:00Z")!

    /// A pair of `subject` on bracelet `serial`, `days` after the calibration, device − reference = (sys, dia).
    static func pair(_ subject: String, _ serial: String?, days: Double, _ sys: Int, _ dia: Int) -> ValidationPair {
        let at = calibrated.adding(interval: days * 86_400)
        return ValidationPair(subject: subject,
                              references: [ValidationReading(subject: subject, systolic: 120, diastolic: 80, measuredAt: at, origin: "r")],
                              device: ValidationReading(subject: subject, systolic: 120 + sys, diastolic: 80 + dia, measuredAt: at,
                                                        origin: "d", bracelet: serial))
    }

    @Test func spansSlopesAndTheIntervalTheDataSupport() throws {
        let pairs = [
            Self.pair("A", "B1", days: 0.5, 1, 0), Self.pair("B", "B1", days: 0.5, 3, 1),
            Self.pair("A", "B1", days: 3, 2, 0), Self.pair("B", "B1", days: 3, 4, 1),
            Self.pair("A", "B1", days: 20, 9, 5), Self.pair("B", "B1", days: 20, 11, 6),
            Self.pair("A", nil, days: 1, 0, 0),            // no serial
            Self.pair("A", "B2", days: 1, 0, 0),           // never calibrated
            Self.pair("A", "B1", days: -1, 0, 0),          // before the calibration
        ]
        let drift = CalibrationDrift(pairs: pairs, calibrations: ["B1": [Self.calibrated]])
        #expect(drift.unmatched == 3)
        #expect(drift.spans.map(\.fromDays) == [0, 1, 14])
        #expect(drift.spans.map(\.toDays) == [1, 7, 28])
        #expect(drift.spans.map(\.pairs) == [2, 2, 2])
        // By hand: span 0-1 d systolic +1, +3 → mean 2, SD √2; span 14-28 d mean 10 fails criterion 1.
        #expect(drift.spans[0].systolic?.meanDifference == 2)
        #expect(abs((drift.spans[0].systolic?.sdDifference ?? 0) - 2.0.squareRoot()) < 1e-12)
        #expect(drift.spans.map(\.criterion1Pass) == [true, true, false])
        // Spans 0-1 and 1-7 hold, 7-14 has no pairs: the data support 7 days, no more.
        #expect(drift.supportedIntervalDays == 7)
        // numpy.polyfit on (0.5, 1), (0.5, 3), (3, 2), (3, 4), (20, 9), (20, 11): 0.41080680977054024;
        // diastolic (0, 1, 0, 1, 5, 6): 0.27017024426350844.
        #expect(abs((drift.systolicSlopePerDay ?? 0) - 0.41080680977054024) < 1e-12)
        #expect(abs((drift.diastolicSlopePerDay ?? 0) - 0.27017024426350844) < 1e-12)
        #expect(drift.json["drift"]?["supportedIntervalDays"] == .double(7))
    }

    @Test func eachPairIsMeasuredFromTheLatestCalibrationBeforeIt() {
        // Calibrations 30 days apart: a value 1 day before the later one is 29 days after the earlier.
        let drift = CalibrationDrift(pairs: [Self.pair("A", "B1", days: -1, 0, 0), Self.pair("A", "B1", days: 2, 0, 0)],
                                     calibrations: ["B1": [Self.calibrated, Self.calibrated.adding(interval: -30 * 86_400)]])
        #expect(drift.spans.map(\.fromDays) == [1, 28])
        #expect(drift.spans.last?.toDays == nil)
        #expect(drift.unmatched == 0)
    }

    @Test func aFirstSpanThatFailsSupportsNoInterval() {
        let drift = CalibrationDrift(pairs: [Self.pair("A", "B1", days: 0.2, 9, 9), Self.pair("B", "B1", days: 0.3, 11, 11)],
                                     calibrations: ["B1": [Self.calibrated]])
        #expect(drift.supportedIntervalDays == nil)
        #expect(drift.systolicSlopePerDay != nil)
        let none = CalibrationDrift(pairs: [Self.pair("A", "B1", days: 2, 1, 1)], calibrations: [:])
        #expect(none.spans.isEmpty && none.unmatched == 1 && none.systolicSlopePerDay == nil)
    }

    @Test func onlySuccessfulBPInitRunsAreCalibrations() {
        func run(_ serial: String, flow: String = "bp-init", kind: String?, ended: String?) -> AuditRun {
            AuditRun(run: serial + (ended ?? "-") + flow, flow: flow, bracelet: BraceletIdentity(model: "287-2", firmware: "7.4", serial: serial),
                     startedAt: "2026-10-01T00:00:00Z", endedAt: ended, configJSON: "{}",
                     resultJSON: kind.map { #"{"kind":"\#($0)"}"# }, readings: [])
        }
        let found = CalibrationDrift.calibrations(in: [
            run("A", kind: "success", ended: "2026-11-01T08:00:00Z"),
            run("A", kind: "failedAfterRetries", ended: "2026-11-02T08:00:00Z"),
            run("A", flow: "wearing-opt", kind: "success", ended: "2026-11-03T08:00:00Z"),
            run("B", kind: nil, ended: nil),
        ])
        #expect(found == ["A": [Self.calibrated]])
    }
}
