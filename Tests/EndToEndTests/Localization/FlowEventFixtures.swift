import CorsanoKit
import Synchronization

/// Both flows' events as the flows emit them: each fixture is a real run of the core's flow on
/// the in-process simulator and a virtual clock, with a scripted cuff and scripted answers
/// (docs/design.md "Events"). Nothing here is a hand-written copy of an event.
enum FlowEventFixtures {
    static let start = Instant(secondsSinceEpoch: 1_795_946_400) // 2026-11-29T10:00:00Z

    static func reading(_ sys: Int, _ dia: Int, _ pulse: Int, at: String, manual: Bool = false) -> CuffReading {
        CuffReading(systolic: sys, diastolic: dia, pulse: pulse, measuredAt: RFC3339.parseInstant(at), isManualEntry: manual)
    }

    /// A calibration whose first attempt the firmware rejects (its second measurement refused),
    /// with a replayed reading and a line that is not a reading dropped on the way, then a
    /// second attempt accepted with a typed-in reading.
    static func bpInit() async throws -> [FlowEvent] {
        let clock = VirtualClock(start: start)
        let scenario = Scenario(nibp: NIBPScenario(attempts: [NIBPAttemptScript(measurements: [true, false], session: false)]))
        let bracelet = SimulatedBracelet(scenario: scenario, clock: clock)
        let cuff = ScriptedCuffSource([
            .reading(reading(135, 88, 71, at: "2025-01-01T09:00:00Z")),
            .reading(reading(121, 79, 64, at: "2026-11-29T10:01:00Z")),
            .reading(reading(128, 82, 66, at: "2026-11-29T10:03:00Z")),
            .invalid(line: "120/abc 70", problem: "line 4: not a reading"),
            .reading(reading(118, 78, 70, at: "2026-11-29T10:06:00Z", manual: true)),
            .reading(reading(120, 80, 68, at: "2026-11-29T10:08:00Z")),
        ])
        let recorder = EventRecorder()
        let flow = BPInitializationFlow(bracelet: bracelet, clock: clock, cuff: cuff, sink: recorder, runID: "run-1")
        _ = try await flow.run()
        return recorder.events
    }

    /// Retries supine, as a person at the retry prompt would after a seated attempt failed.
    struct RetrySupine: WearingOptInteraction {
        func pickPreparation(_ current: PreparationChoices) async throws -> PreparationChoices { current }
        func confirmStrapTightness() async throws -> Bool { true }
        func confirmPlacement(wrist: UserProfile.Wrist) async throws -> Bool { true }
        func confirmStart(attempt: Int, position: BraceletPosition) async throws -> Bool { true }
        func retry(after attempt: Int, reason: FailureReason, position: BraceletPosition) async throws -> BraceletPosition? {
            .supine
        }
    }

    /// An optimization that fails on signal quality seated, then succeeds supine.
    static func wearingOpt() async throws -> [FlowEvent] {
        let clock = VirtualClock(start: start)
        let scenario = Scenario(wearing: WearingScenario(attempts: [
            WearingAttemptScript(polls: [
                WearingPoll(percent: 20, quality: 31, motionLevel: 0), WearingPoll(percent: 55, quality: 41, motionLevel: 2),
                WearingPoll(percent: 100, quality: 44, isSuccess: false, motionLevel: 1, finished: true),
            ]),
            WearingAttemptScript(polls: [
                WearingPoll(percent: 35, quality: 48, motionLevel: 0),
                WearingPoll(percent: 100, quality: 72, isSuccess: true, motionLevel: 0, finished: true),
            ]),
        ]))
        let bracelet = SimulatedBracelet(scenario: scenario, clock: clock)
        let profile = UserProfile(heightCm: 178, weightKg: 74, wrist: .left, gender: .male, unit: .metric,
                                  birthdate: "1980-04-02", skinTone: 3, hairDensity: .low)
        let recorder = EventRecorder()
        let flow = WearingOptimizationFlow(bracelet: bracelet, clock: clock, events: recorder, interaction: RetrySupine(),
                                           config: .default, serial: scenario.serial, profile: profile, profileStore: nil,
                                           run: "run-1")
        _ = try await flow.run()
        return recorder.events
    }
}
