import CorsanoKit
import Testing

/// The multi-set due and expiry rules as functions of the stored calibration and an
/// injected instant: due one interval after the previous set ended, expired `maxGapSeconds` after that.
@Suite struct MultiSetScheduleTests {
    static let t0 = RFC3339.parseInstant("2026-11-29T10:00:00Z")!

    static func calibration(setsEndedAt ends: [Double], gap: Double = 86_400) -> MultiSetCalibration {
        MultiSetCalibration(id: "run-1", serial: "S1", parameters: .corsano(maxGapSeconds: gap), startedAt: t0,
                            sets: ends.enumerated().map { i, end in
                                CalibrationSetRecord(set: i + 1, run: "run-\(i + 1)", endedAt: t0.adding(interval: end), cuff: nil,
                                                     readings: [CalibrationSetReading(systolic: 120, diastolic: 80, accepted: true)])
                            })
    }

    @Test func theFirstSetIsDueAtOnce() {
        #expect(Self.calibration(setsEndedAt: []).schedule(at: Self.t0) == .due(set: 1))
    }

    @Test func theNextSetIsDueOneIntervalAfterThePreviousEnded() {
        let c = Self.calibration(setsEndedAt: [90])
        #expect(c.schedule(at: Self.t0.adding(interval: 3689)) == .notYet(set: 2, dueAt: Self.t0.adding(interval: 3690)))
        #expect(c.schedule(at: Self.t0.adding(interval: 3690)) == .due(set: 2))
    }

    @Test func aSetLaterThanTheMaximumGapExpiresTheCalibration() {
        let c = Self.calibration(setsEndedAt: [0, 3600], gap: 7200)
        #expect(c.schedule(at: Self.t0.adding(interval: 7200 + 7200)) == .due(set: 3), "exactly at the gap: still due")
        #expect(c.schedule(at: Self.t0.adding(interval: 7200 + 7201)) == .expired(at: Self.t0.adding(interval: 14_400)))
    }

    @Test func otherParametersConflictAndAnExpiredCalibrationIsReplaced() {
        let c = Self.calibration(setsEndedAt: [0], gap: 600)
        let other = MultiSetProtocol(kind: .sets, sets: 4)
        #expect(MultiSetPlanner.decide(open: c, asked: other, serial: "S1", run: "r", now: Self.t0) == .conflict(c))
        guard case .run(let fresh, true, let expired?) = MultiSetPlanner.decide(
            open: c, asked: .corsano(), serial: "S1", run: "r2", now: Self.t0.adding(interval: 5000)) else {
            Issue.record("an expired calibration is replaced by a new one")
            return
        }
        #expect(fresh.id == "r2" && fresh.sets.isEmpty)
        #expect(expired.status == .expired && expired.closedAt == Self.t0.adding(interval: 4200))
    }

    @Test func meansOfAllReadingsAndOfTheLastTwo() {
        let record = CalibrationSetRecord(set: 1, run: "r", endedAt: Self.t0, cuff: nil, readings: [
            CalibrationSetReading(systolic: 121, diastolic: 81, accepted: true),
            CalibrationSetReading(systolic: 122, diastolic: 82, accepted: true),
            CalibrationSetReading(systolic: 125, diastolic: 80, accepted: false),
        ])
        #expect(record.meanAll?.systolic == 122.7 && record.meanAll?.diastolic == 81)
        #expect(record.meanLast2?.systolic == 123.5 && record.meanLast2?.diastolic == 81)
    }

    @Test func theStoredRecordReadsBack() {
        var c = Self.calibration(setsEndedAt: [0, 3700])
        c.cuff = "AA:BB:CC:DD:EE:01"
        #expect(MultiSetCalibration(json: c.json) == c)
    }
}
