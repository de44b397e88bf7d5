import CorsanoKit
import Testing

/// The simulator's wearing model as the flow sees it, timed from event stamps in virtual time:
/// still ≈ 2 minutes, movement up to ≈ 4 (seed: "~2 minutes ... up to ~4 minutes").
@Suite struct WearingModelTests {
    @Test(arguments: [(WearingModel.Movement.still, 120.0), (.some, 180.0), (.restless, 240.0)])
    func optimizationTakesTheSeedsTime(_ movement: WearingModel.Movement, _ seconds: Double) async throws {
        let scenario = Scenario(wearing: WearingScenario(model: WearingModel(movement: movement)))
        let run = try await WearingRun.run(scenario)
        guard case .success(let quality, .seated) = run.result else {
            Issue.record("expected a seated success, got \(run.result)")
            return
        }
        #expect(quality >= 50)
        #expect(run.attemptDuration(1) == seconds)
        #expect(run.progress().last?[0] == 100)
        let motion = run.progress().map { $0[2] }
        #expect(movement == .still ? motion.allSatisfy { $0 == 0 } : motion.allSatisfy { $0 > 0 })
    }

    @Test func wholeRunIsWithinTheFinishBound() async throws {
        let run = try await WearingRun.run(Scenario(wearing: WearingScenario(model: WearingModel(movement: .restless))))
        let started = try #require(run.events.first?.at)
        let finished = try #require(run.events.last?.at)
        #expect(finished.seconds(since: started) == 240)
        #expect(240 < WearingOptimizationConfig.default.finishBoundSeconds)
    }

    @Test func looseStrapOnDarkSkinFailsOnQuality() async throws {
        let model = WearingModel(skinTone: 6, hairDensity: .high, strapFit: .loose)
        let run = try await WearingRun.run(Scenario(wearing: WearingScenario(model: model)),
                                           config: WearingOptimizationConfig(maxAttempts: 2))
        #expect(run.result == .failedAfterRetries(attemptCount: 2, lastReason: .ppgSignalQualityTooLow))
    }
}
