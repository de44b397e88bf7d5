import CorsanoKit
import Synchronization

/// One wearing-optimization run on the in-process simulator and a virtual clock, with its events.
struct WearingRun {
    /// 2026-11-29T10:00:00Z.
    static let start = Instant(secondsSinceEpoch: 1_795_946_400)
    static let profile = UserProfile(heightCm: 172, weightKg: 68, wrist: .left, gender: .female, unit: .metric,
                                     birthdate: "1990-04-01", skinTone: 3, hairDensity: .low)

    let result: WearingOptimizationResult
    let events: [FlowEvent]
    let sim: SimulatedBracelet

    /// Runs the flow against `scenario` (no preparation prompts: scripted answers by default).
    static func run(_ scenario: Scenario = Scenario(), config: WearingOptimizationConfig = .init(),
                    interaction: (any WearingOptInteraction)? = nil, profile: UserProfile? = profile,
                    profileStore: ProfileStore? = nil, sink: (any EventSink)? = nil) async throws -> WearingRun {
        let clock = VirtualClock(start: start)
        let sim = SimulatedBracelet(scenario: scenario, seed: 1, clock: clock)
        let recorder = EventRecorder()
        let flow = WearingOptimizationFlow(
            bracelet: sim, clock: clock, events: sink.map { EventFanOut([recorder, $0]) } ?? recorder,
            interaction: interaction ?? ScriptedWearingOptInteraction(position: config.position),
            config: config, serial: scenario.serial, profile: profile, profileStore: profileStore, run: "test-run")
        let result = try await flow.run()
        return WearingRun(result: result, events: recorder.events, sim: sim)
    }

    /// A scenario whose attempts follow the given poll scripts (the model after them).
    static func scripted(_ attempts: [[WearingPoll]], faults: FaultScenario = .init()) -> Scenario {
        Scenario(wearing: WearingScenario(attempts: attempts.map { WearingAttemptScript(polls: $0) }), faults: faults)
    }

    /// Events called `name`.
    func events(_ name: String) -> [FlowEvent] { events.filter { $0.event == name } }

    /// The `step` values in order.
    var steps: [String] { events("step").compactMap { if case .string(let s)? = $0["step"] { s } else { nil } } }

    /// Seconds of virtual time from the `running` step of `attempt` to that attempt's `attempt` event.
    func attemptDuration(_ attempt: Int) -> Double? {
        let running = events("step").first { $0["step"] == .string("running") && $0["attempt"] == .int(attempt) }
        let verdict = events("attempt").first { $0["attempt"] == .int(attempt) }
        guard let running, let verdict else { return nil }
        return verdict.at.seconds(since: running.at)
    }

    /// (percent, quality, motionLevel) of every `progress` event of `attempt`.
    func progress(_ attempt: Int = 1) -> [[Int]] {
        events("progress").filter { $0["attempt"] == .int(attempt) }.map { e in
            ["percent", "quality", "motionLevel"].map { if case .int(let v)? = e[$0] { v } else { -1 } }
        }
    }

    /// True when the simulator has no special mode running (a status poll is refused).
    func specialModeStopped() async -> Bool {
        do {
            _ = try await sim.specialModeStatus(type: 4)
            return false
        } catch BraceletError.refused {
            return true
        } catch {
            return false
        }
    }
}

/// Answers like a user at a terminal would, from a script: retry positions in order (nil = decline).
final class ScriptedUser: WearingOptInteraction {
    let retries: Mutex<[BraceletPosition?]>
    let choices: PreparationChoices?
    let asked = Mutex<[String]>([])

    init(retries: [BraceletPosition?] = [], choices: PreparationChoices? = nil) {
        self.retries = Mutex(retries)
        self.choices = choices
    }

    func pickPreparation(_ current: PreparationChoices) async throws -> PreparationChoices {
        asked.withLock { $0.append("pick") }
        return choices ?? current
    }
    func confirmStrapTightness() async throws -> Bool { asked.withLock { $0.append("strap") }; return true }
    func confirmPlacement(wrist: UserProfile.Wrist) async throws -> Bool { asked.withLock { $0.append("placement") }; return true }
    func confirmStart(attempt: Int, position: BraceletPosition) async throws -> Bool {
        asked.withLock { $0.append("start \(attempt) \(position.rawValue)") }
        return true
    }
    func retry(after attempt: Int, reason: FailureReason, position: BraceletPosition) async throws -> BraceletPosition? {
        asked.withLock { $0.append("retry \(attempt)") }
        return retries.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
