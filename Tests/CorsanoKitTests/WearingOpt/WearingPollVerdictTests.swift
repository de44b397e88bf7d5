import CorsanoKit
import Testing

/// The issue's scripted poll sequences on the in-process simulator (virtual clock, 5 s polls).
@Suite struct WearingPollVerdictTests {
    static let one = WearingOptimizationConfig(maxAttempts: 1)

    @Test func qualityExactly50WithIsSuccessSucceedsAtThatPoll() async throws {
        let run = try await WearingRun.run(WearingRun.scripted([[
            WearingPoll(percent: 30, quality: 41),
            WearingPoll(percent: 60, quality: 50, isSuccess: true),
            WearingPoll(percent: 100, quality: 95, isSuccess: true, finished: true),
        ]]))
        #expect(run.result == .success(spo2Quality: 50, position: .seated))
        #expect(run.progress() == [[30, 41, 0], [60, 50, 0]])
        #expect(run.attemptDuration(1) == 10)
        #expect(await run.specialModeStopped())
    }

    @Test func quality90WithoutIsSuccessKeepsPolling() async throws {
        let run = try await WearingRun.run(WearingRun.scripted([[
            WearingPoll(percent: 40, quality: 90),
            WearingPoll(percent: 80, quality: 90, motionLevel: 2),
            WearingPoll(percent: 100, quality: 72, isSuccess: true, finished: true),
        ]]))
        #expect(run.progress() == [[40, 90, 0], [80, 90, 2], [100, 72, 0]])
        #expect(run.result == .success(spo2Quality: 72, position: .seated))
    }

    @Test func isSuccessWithQuality49IsNotSuccess() async throws {
        let run = try await WearingRun.run(WearingRun.scripted([[
            WearingPoll(percent: 50, quality: 49, isSuccess: true),
            WearingPoll(percent: 100, quality: 49, isSuccess: true, finished: true),
        ]]), config: Self.one)
        #expect(run.progress() == [[50, 49, 0], [100, 49, 0]])
        #expect(run.result == .failedAfterRetries(attemptCount: 1, lastReason: .ppgSignalQualityTooLow))
        #expect(await run.specialModeStopped())
    }

    @Test func pollsThatStopAnsweringAreBleTimeoutWithinTheBound() async throws {
        var scenario = Scenario()
        scenario.faults.pollTimeoutFrom = PollPoint(poll: 3)
        let run = try await WearingRun.run(scenario, config: Self.one)
        #expect(run.result == .failedAfterRetries(attemptCount: 1, lastReason: .bleTimeout))
        #expect(run.progress().count == 2)
        // 2 answered polls, then 3 missed ones (missedPollLimit) at 5 s each.
        #expect(run.attemptDuration(1) == 25)
        #expect(try #require(run.attemptDuration(1)) <= Self.one.finishBoundSeconds)
        #expect(run.events("attempt").last?["reason"] == .object([("kind", .string("bleTimeout"))]))
        #expect(await run.specialModeStopped())
    }

    @Test func noFinishWithinTheBoundIsBleTimeoutAtTheBound() async throws {
        let run = try await WearingRun.run(WearingRun.scripted([[WearingPoll(percent: 50, quality: 40)]]),
                                           config: Self.one)
        #expect(run.result == .failedAfterRetries(attemptCount: 1, lastReason: .bleTimeout))
        #expect(run.attemptDuration(1) == 300)
        #expect(run.progress().count == 60)
    }

    @Test func disconnectMidRunIsBraceletDisconnectedNotBleTimeout() async throws {
        var scenario = Scenario()
        scenario.faults.disconnectAtPoll = PollPoint(poll: 4)
        let run = try await WearingRun.run(scenario)
        #expect(run.result == .braceletDisconnected)
        #expect(run.progress().count == 3)
        #expect(run.events("attempt").isEmpty)
        #expect(run.events("finished").last?["result"] == .object([("kind", .string("braceletDisconnected"))]))
        #expect(!run.sim.isConnected)
    }

    @Test func failureThenSuccessOnAttempt2Supine() async throws {
        let run = try await WearingRun.run(
            Scenario(wearing: WearingScenario(attempts: [
                WearingAttemptScript(polls: [WearingPoll(percent: 100, quality: 31, finished: true)]),
                WearingAttemptScript(model: WearingModel()),
            ])),
            config: WearingOptimizationConfig(position: .supine))
        guard case .success(let quality, let position) = run.result else {
            Issue.record("expected success, got \(run.result)")
            return
        }
        #expect(quality >= 50)
        #expect(position == .supine)
        #expect(run.events("attempt").map { $0["succeeded"] } == [.bool(false), .bool(true)])
        #expect(run.events("attempt").first?["reason"] == .object([("kind", .string("ppgSignalQualityTooLow"))]))
        #expect(run.steps == ["preparation", "armedPreparing", "running", "retryPrompt", "armedPreparing", "running",
                              "finalSuccess"])
        let armed = run.events("step").filter { $0["step"] == .string("armedPreparing") }
        #expect(armed.last?["instructions"] == .array([.string("lieOnBack"), .string("armAlongsideBody")]))
        #expect(await run.specialModeStopped())
    }

    @Test func maxAttempts1MakesTheFirstMissTerminal() async throws {
        let user = ScriptedUser(retries: [.seated])
        let run = try await WearingRun.run(
            WearingRun.scripted([[WearingPoll(percent: 100, quality: 70, finished: true, worn: false)]]),
            config: Self.one, interaction: user)
        #expect(run.result == .failedAfterRetries(attemptCount: 1, lastReason: .braceletNotWornCorrectly))
        #expect(!run.steps.contains("retryPrompt"))
        #expect(run.steps.last == "finalFailure")
        #expect(!user.asked.withLock { $0 }.contains("retry 1"))
    }

    @Test func threeFailuresExhaustTheDefaultBudget() async throws {
        let bad = [WearingPoll(percent: 100, quality: 80, finished: true)]
        let run = try await WearingRun.run(WearingRun.scripted([bad, bad, bad, [WearingPoll(quality: 90, isSuccess: true)]]))
        #expect(run.result == .failedAfterRetries(
            attemptCount: 3, lastReason: .unknown("finished without isSuccess at quality 80")))
        #expect(run.events("finished").last?["result"]?.serialized ==
                #"{"kind":"failedAfterRetries","attemptCount":3,"lastReason":{"kind":"unknown","message":"finished without isSuccess at quality 80"}}"#)
    }
}
