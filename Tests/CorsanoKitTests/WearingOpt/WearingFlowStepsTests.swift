import CorsanoKit
import Synchronization
import Testing

/// Preparation, the forced profile push, events, retry prompt and the ways out.
@Suite struct WearingFlowStepsTests {
    @Test func preparationPushesThePickedProfileForcedAtStrapTightness() async throws {
        let user = ScriptedUser(choices: PreparationChoices(skinTone: 5, hairDensity: .high, wrist: .right))
        let run = try await WearingRun.run(interaction: user)
        var expected = WearingRun.profile
        (expected.skinTone, expected.hairDensity, expected.wrist) = (5, .high, .right)
        #expect(run.sim.state.profile == expected)
        #expect(user.asked.withLock { $0 } == ["pick", "strap", "placement", "start 1 seated"])
        #expect(run.events.map(\.event).prefix(4) == ["started", "step", "profile", "step"])
        let profile = try #require(run.events("profile").first)
        #expect(profile["why"] == .string("strapTightness"))
        #expect(profile["forced"] == .bool(true))
        #expect(profile["values"] == expected.json)
    }

    @Test func flagValuesOverrideTheStoredProfileWithoutPrompts() async throws {
        let config = WearingOptimizationConfig(skinTone: 6, hairDensity: .medium)
        let run = try await WearingRun.run(config: config)
        #expect(run.sim.state.profile?.skinTone == 6)
        #expect(run.sim.state.profile?.hairDensity == .medium)
        #expect(run.sim.state.profile?.wrist == .left)
    }

    @Test func noPreparationPushesTheStoredProfileAndSaysSo() async throws {
        let store = ProfileStore(store: try SQLiteStore(path: nil))
        let run = try await WearingRun.run(config: WearingOptimizationConfig(includePreparation: false),
                                           profileStore: store)
        #expect(!run.steps.contains("preparation"))
        #expect(run.steps.first == "armedPreparing")
        #expect(run.events("profile").first?["why"] == .string("noPreparation"))
        #expect(run.sim.state.profile == WearingRun.profile)
        #expect(try store.load(serial: "SIM-287-0001") == WearingRun.profile)
    }

    @Test func noProfileIsRefusedBeforeAnythingStarts() async throws {
        await #expect(throws: WearingOptError.noProfile(serial: "SIM-287-0001", missing: ProfileRules.fields)) {
            _ = try await WearingRun.run(config: WearingOptimizationConfig(includePreparation: false), profile: nil)
        }
    }

    @Test func startedCarriesTheEffectiveConfigAndFinishedTheResult() async throws {
        let run = try await WearingRun.run()
        #expect(run.events.first?.json.serialized ==
                #"{"event":"started","flow":"wearing-opt","run":"test-run","at":"2026-11-29T10:00:00Z","config":{"maxAttempts":3,"includePreparation":true,"position":"seated","pollInterval":5,"finishBound":300,"missedPollLimit":3}}"#)
        #expect(run.events.last?.event == "finished")
        #expect(run.events.allSatisfy { $0.flow == .wearingOpt && $0.run == "test-run" })
    }

    @Test func positionComesFromTheAccelerometerNotTheAnnouncement() async throws {
        // Told to lie down, but the bracelet lies flat, display up: the inference says seated.
        let run = try await WearingRun.run(
            WearingRun.scripted([[WearingPoll(percent: 100, quality: 77, isSuccess: true, finished: true,
                                              gravity: GravityVector(x: 0.02, y: 0.05, z: -1.0))]]),
            config: WearingOptimizationConfig(position: .supine))
        #expect(run.result == .success(spo2Quality: 77, position: .seated))
    }

    @Test func decliningTheRetryIsCancelledByUser() async throws {
        let user = ScriptedUser(retries: [nil])
        let run = try await WearingRun.run(
            WearingRun.scripted([[WearingPoll(percent: 100, quality: 20, finished: true)]]), interaction: user)
        #expect(run.result == .cancelledByUser)
        #expect(run.steps.last == "retryPrompt")
        #expect(run.events("finished").last?["result"] == .object([("kind", .string("cancelledByUser"))]))
    }

    @Test func retryPickerChangesThePositionAndItsInstructions() async throws {
        let user = ScriptedUser(retries: [.supine])
        let run = try await WearingRun.run(
            WearingRun.scripted([[WearingPoll(percent: 100, quality: 20, finished: true)]]), interaction: user)
        #expect(user.asked.withLock { $0 }.suffix(3) == ["start 1 seated", "retry 1", "start 2 supine"])
        let armed = run.events("step").filter { $0["step"] == .string("armedPreparing") }
        #expect(armed.map { $0["instructions"] } == [
            .array(["sitUpright", "forearmOnDesk", "handFlatOnDesk"].map { .string($0) }),
            .array(["lieOnBack", "armAlongsideBody"].map { .string($0) }),
        ])
        #expect(run.result == .success(spo2Quality: try #require(Self.quality(run)), position: .supine))
    }

    @Test func cancellationWhilePollingStopsSpecialModeAndIsCancelledByUser() async throws {
        let canceller = CancelOnProgress(after: 3)
        // The run starts only once the canceller holds its task: on a loaded machine the third
        // poll could otherwise come before the handle was stored, and nothing would cancel.
        let (started, start) = AsyncStream<Void>.makeStream()
        let task = Task {
            for await _ in started { break }
            return try await WearingRun.run(sink: canceller)
        }
        canceller.task.withLock { $0 = task }
        start.yield()
        let run = try await task.value
        #expect(run.result == .cancelledByUser)
        #expect(run.progress().count == 3)
        #expect(run.events("attempt").isEmpty)
        #expect(await run.specialModeStopped())
    }

    @Test func cancellationWhileHeldAtAStepIsCancelledByUser() async throws {
        var scenario = Scenario()
        scenario.faults.holdAtStep = HoldPoint(flow: "wearing-opt", step: "running")
        let clock = VirtualClock(start: WearingRun.start)
        let sim = SimulatedBracelet(scenario: scenario, clock: clock)
        let recorder = EventRecorder()
        let flow = WearingOptimizationFlow(bracelet: sim, clock: clock, events: recorder,
                                           interaction: ScriptedWearingOptInteraction(position: .seated),
                                           config: .init(), serial: "S", profile: WearingRun.profile,
                                           profileStore: nil, run: "r")
        let task = Task { try await flow.run() }
        await sim.waitUntilHeld()
        task.cancel()
        #expect(try await task.value == .cancelledByUser)
        #expect(recorder.names.last == "finished")
    }

    static func quality(_ run: WearingRun) -> Int? {
        if case .success(let q, _) = run.result { return q }
        return nil
    }
}

/// Cancels the running flow's task when it sees the n-th `progress` event (a SIGINT mid-run).
final class CancelOnProgress: EventSink {
    let after: Int
    let seen = Mutex(0)
    let task = Mutex<Task<WearingRun, any Error>?>(nil)

    init(after: Int) { self.after = after }

    func emit(_ event: FlowEvent) {
        guard event.event == "progress" else { return }
        let n = seen.withLock { $0 += 1; return $0 }
        if n == after { task.withLock { $0 }?.cancel() }
    }
}
