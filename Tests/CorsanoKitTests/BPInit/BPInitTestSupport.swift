import CorsanoKit
import Synchronization
import Testing

/// Builders shared by the bp-init flow tests.
enum BPInitFixture {
    static let start = RFC3339.parseInstant("2026-11-29T10:00:30Z")!

    /// A cuff reading stamped `at` (RFC 3339), or unstamped.
    static func reading(_ systolic: Int, _ diastolic: Int, _ pulse: Int? = 70, at: String? = nil,
                        deviceTime: String? = nil, manual: Bool = false) -> CuffReading {
        CuffReading(systolic: systolic, diastolic: diastolic, pulse: pulse,
                    measuredAt: at.flatMap { RFC3339.parseInstant($0) },
                    deviceTime: deviceTime.flatMap { RFC3339.parseNaive($0) }, isManualEntry: manual)
    }

    /// A reading stamped `offset` seconds from the start instant.
    static func reading(_ systolic: Int, _ diastolic: Int, offset: Int64) -> CuffReading {
        CuffReading(systolic: systolic, diastolic: diastolic, pulse: 70,
                    measuredAt: start.adding(seconds: offset))
    }

    /// jsonl/session-replay.jsonl after `cuff ingest` with its anchor (device 2025-01-01T00:03:10
    /// = phone 2026-11-29T10:00:05Z): two stored records, live #1, #1 replayed, live #2.
    static let sessionReplay: [CuffReading] = [
        reading(133, 86, 71, at: "2026-11-27T18:11:55Z", deviceTime: "2024-12-30T08:15:00"),
        reading(126, 84, 69, at: "2026-11-29T05:36:55Z", deviceTime: "2024-12-31T19:40:00"),
        reading(128, 82, 66, at: "2026-11-29T10:00:55Z", deviceTime: "2025-01-01T00:04:00"),
        reading(128, 82, 66, at: "2026-11-29T10:00:55Z", deviceTime: "2025-01-01T00:04:00"),
        reading(124, 80, 64, at: "2026-11-29T10:02:55Z", deviceTime: "2025-01-01T00:06:00"),
    ]

    /// A simulator scenario with scripted attempts (element 0 = attempt 1) and faults.
    static func scenario(_ attempts: [NIBPAttemptScript] = [], faults: FaultScenario = .init()) -> Scenario {
        Scenario(nibp: NIBPScenario(attempts: attempts), faults: faults)
    }

    /// Attempts the firmware refuses, then the default model.
    static func refusing(_ count: Int) -> [NIBPAttemptScript] {
        Array(repeating: NIBPAttemptScript(session: false), count: count)
    }

    /// What one flow run did.
    struct Run {
        let result: BPInitializationResult
        let events: [FlowEvent]
        let clock: VirtualClock
        let bracelet: SimulatedBracelet
        func named(_ name: String) -> [FlowEvent] { events.filter { $0.event == name } }
        var steps: [String] { named("step").compactMap { $0["step"]?.stringValue } }
        var dropReasons: [String] { named("cuffReadingDropped").compactMap { $0["reason"]?.stringValue } }
        /// The `readings` event's readings as [attempt, index, systolic, diastolic].
        var collected: [[Int]] {
            (named("readings").first?["readings"]?.arrayValue ?? []).compactMap { item in
                guard let a = item["attempt"]?.intValue, let i = item["index"]?.intValue,
                      let s = item["reading"]?["systolic"]?.intValue, let d = item["reading"]?["diastolic"]?.intValue else { return nil }
                return [a, i, s, d]
            }
        }
        /// True when the run switched the plan and restored `monitoring` (the scenario's start plan).
        var planRestored: Bool {
            named("planRestored").map { $0["previousPlan"] } == [.string("monitoring")]
                && bracelet.state.plan == BraceletPlan("monitoring")
        }
        /// The last two events are `readings` then `finished` with `result`.
        func endsWithReadingsThenFinished() -> Bool {
            events.suffix(2).map(\.event) == ["readings", "finished"] && events.last?["result"] == result.json
        }
    }

    /// Runs the flow on a simulated bracelet following `scenario`, with `items` from the cuff,
    /// on a virtual clock at `start`.
    static func run(_ scenario: Scenario = Scenario(), _ items: [CuffItem], config: BPInitializationConfig = .default,
                    interaction: any BPInitInteraction = NonInteractive(),
                    pairing: any CuffPairing = AssumedPairing()) async throws -> Run {
        let clock = VirtualClock(start: start)
        let bracelet = SimulatedBracelet(scenario: scenario, clock: clock)
        let recorder = EventRecorder()
        let flow = BPInitializationFlow(config: config, bracelet: bracelet, clock: clock,
                                        cuff: ScriptedCuffSource(items), sink: recorder,
                                        interaction: interaction, pairing: pairing, runID: "test-run")
        let result = try await flow.run()
        return Run(result: result, events: recorder.events, clock: clock, bracelet: bracelet)
    }

    static func run(_ scenario: Scenario = Scenario(), readings: [CuffReading], config: BPInitializationConfig = .default,
                    interaction: any BPInitInteraction = NonInteractive()) async throws -> Run {
        try await run(scenario, readings.map(CuffItem.reading), config: config, interaction: interaction)
    }
}

/// A person at the terminal who answers the retry question with `answer`.
struct AnswerRetry: BPInitInteraction {
    let answer: Bool
    func confirmStart() async throws -> Bool { true }
    func confirmRetry(nextAttempt: Int, maxAttempts: Int) async throws -> Bool { answer }
}

/// A pairing check that becomes paired after the hook only when `hookPairs`.
final class ScriptedPairing: CuffPairing {
    let hookPairs: Bool
    private let state = Mutex((paired: false, hookCalls: 0))
    init(hookPairs: Bool) { self.hookPairs = hookPairs }
    var hookCalls: Int { state.withLock { $0.hookCalls } }
    func isPaired() async -> Bool { state.withLock { $0.paired } }
    func requestPairing() async throws {
        state.withLock { $0 = (hookPairs, $0.hookCalls + 1) }
    }
}
