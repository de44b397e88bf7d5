@testable import CorsanoKit
import Testing

/// `history --due`: which bracelets are due for recalibration (point 6).
@Suite struct CalibrationDueTests {
    static let now = RFC3339.parseInstant("2026-12-01T12:00:00Z")!

    static func run(_ serial: String, flow: String = "bp-init", ended: String?, kind: String?, firmware: String = "7.4") -> AuditRun {
        AuditRun(run: serial + (ended ?? "-"), flow: flow, bracelet: BraceletIdentity(model: "287-2", firmware: firmware, serial: serial),
                 startedAt: ended ?? "2026-01-01T00:00:00Z", endedAt: ended, configJSON: "{}",
                 resultJSON: kind.map { #"{"kind":"\#($0)"}"# }, readings: [])
    }

    @Test func dueExactlyWhenOlderThanTheDays() {
        let runs = [
            Self.run("A", ended: "2026-11-03T12:00:00Z", kind: "success"),   // exactly 28 days: not due
            Self.run("B", ended: "2026-11-03T11:59:59Z", kind: "success"),   // 28 days and 1 s: due
            Self.run("C", ended: "2026-11-30T12:00:00Z", kind: "success"),
        ]
        let checked = CalibrationDue.check(runs, days: 28, now: Self.now)
        #expect(checked.map(\.bracelet.serial) == ["A", "B", "C"])
        #expect(checked.map(\.due) == [false, true, false])
        #expect(checked.map(\.days) == [28, 28, 1])
    }

    @Test func onlySuccessfulCalibrationsCountAndTheLatestWins() {
        let runs = [
            Self.run("A", ended: "2026-10-01T00:00:00Z", kind: "success"),
            Self.run("A", ended: "2026-11-25T00:00:00Z", kind: "failedAfterRetries"),   // a failure does not renew it
            Self.run("A", flow: "wearing-opt", ended: "2026-11-28T00:00:00Z", kind: "success"),  // nor does wearing-opt
            Self.run("B", ended: "2026-11-29T00:00:00Z", kind: "success", firmware: "7.2"),
            Self.run("B", ended: nil, kind: nil, firmware: "7.5"),   // killed: no result
            Self.run("C", ended: "2026-11-30T00:00:00Z", kind: "cuffError"),
        ]
        let checked = CalibrationDue.check(runs, days: 28, now: Self.now)
        #expect(checked.map(\.due) == [true, false, true])
        #expect(checked[0].lastCalibratedAt == RFC3339.parseInstant("2026-10-01T00:00:00Z"))
        #expect(checked[1].bracelet.firmware == "7.5")  // as its latest run saw it
        #expect(checked[2].lastCalibratedAt == nil && checked[2].days == nil)
    }
}
