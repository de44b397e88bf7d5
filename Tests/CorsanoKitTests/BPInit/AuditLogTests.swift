import CorsanoKit
import Testing

/// The audit log records each run's bracelet, config, every reading fed with its verdict, and result.
@Suite struct AuditLogTests {
    typealias F = BPInitFixture

    static func calibrate(_ log: AuditLog, run: String, scenario: Scenario, readings: [CuffReading],
                          start: Instant = F.start) async throws -> BPInitializationResult {
        let clock = VirtualClock(start: start)
        let bracelet = SimulatedBracelet(scenario: scenario, clock: clock)
        let identity = BraceletIdentity(model: scenario.model, firmware: scenario.firmware, serial: scenario.serial)
        let flow = BPInitializationFlow(bracelet: bracelet, clock: clock, cuff: ScriptedCuffSource(readings: readings),
                                        sink: AuditLogSink(log: log, bracelet: identity), runID: run)
        return try await flow.run()
    }

    @Test func recordsEveryReadingFedWithVerdictAndTheResult() async throws {
        let log = AuditLog(store: try SQLiteStore(path: nil))
        let manual = F.reading(131, 85, 70, at: "2026-11-29T10:00:40Z", manual: true)
        let scenario = F.scenario([NIBPAttemptScript(measurements: [true, false], session: false)])
        let result = try await Self.calibrate(log, run: "run-1", scenario: scenario,
                                          readings: [manual, F.reading(120, 80, offset: 30), F.reading(125, 82, offset: 40),
                                                     F.reading(124, 80, offset: 50), F.reading(123, 81, offset: 60)])
        #expect(result == .success(measurementCount: 2))
        let runs = try log.runs()
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        #expect(run.bracelet == BraceletIdentity(model: "287-2", firmware: "7.4", serial: "SIM-287-0001"))
        #expect(run.startedAt == "2026-11-29T10:00:30Z")
        #expect(run.endedAt == "2026-11-29T10:01:30Z")
        #expect(run.resultJSON == #"{"kind":"success","measurementCount":2}"#)
        #expect(run.configJSON.contains(#""maxAttempts":3"#))
        // 131/85 vs 120/80 differ by 11 systolic: a third measurement in attempt 1.
        #expect(run.readings.map { [$0.attempt, $0.index] } == [[1, 1], [1, 2], [1, 3], [2, 1], [2, 2]])
        #expect(run.readings.map(\.accepted) == [true, false, true, true, true])
        #expect(run.readings.map(\.manual) == [true, false, false, false, false])
        #expect(run.readings[0].readingJSON ==
                #"{"systolic":131,"diastolic":85,"pulse":70,"meanArterialPressure":100,"measuredAt":"2026-11-29T10:00:40Z","isManualEntry":true}"#)
    }

    @Test func filtersBySinceAndBracelet() async throws {
        let log = AuditLog(store: try SQLiteStore(path: nil))
        let good = [F.reading(120, 80, offset: 10), F.reading(121, 80, offset: 20)]
        var other = Scenario()
        other.serial = "SIM-287-0002"
        _ = try await Self.calibrate(log, run: "a", scenario: Scenario(), readings: good)
        _ = try await Self.calibrate(log, run: "b", scenario: other, readings: good.map {
            var r = $0
            r.measuredAt = r.measuredAt?.adding(seconds: 3600)
            return r
        }, start: F.start.adding(seconds: 3600)!)
        _ = try await Self.calibrate(log, run: "c", scenario: Scenario(), readings: [])
        #expect(try log.runs().map(\.run) == ["a", "c", "b"])
        #expect(try log.runs(serial: "SIM-287-0002").map(\.run) == ["b"])
        #expect(try log.runs(since: F.start.adding(seconds: 1)).map(\.run) == ["b"])
        #expect(try log.runs(serial: "SIM-287-0001").last?.resultJSON == #"{"kind":"cuffError","error":{"kind":"noReading"}}"#)
        #expect(try log.runs(serial: "SIM-287-0001").last?.readings == [])
    }
}
