import CorsanoKit
import Testing

/// The calibration flow's measurement and attempt rules (seed "The two-measurement rule",
/// "Result handling", "Flow reference").
@Suite struct BPInitFlowTests {
    typealias F = BPInitFixture

    @Test func fixtureSessionDropsHistoryAndReplayAndSucceedsWithTwo() async throws {
        let run = try await F.run(readings: F.sessionReplay)
        #expect(run.result == .success(measurementCount: 2))
        #expect(run.dropReasons == ["replayed", "replayed", "duplicate"])
        #expect(run.collected == [[1, 1, 128, 82], [1, 2, 124, 80]])
        #expect(run.steps == ["instructions", "measuring", "measurementRecorded", "measuring",
                              "measurementRecorded", "finalSuccess"])
        #expect(run.named("attempt").map { $0["succeeded"] } == [.bool(true)])
        #expect(run.planRestored)
        #expect(run.bracelet.state.calibrated)
        #expect(run.clock.now() == RFC3339.parseInstant("2026-11-29T10:02:55Z"))
        #expect(run.endsWithReadingsThenFinished())
        #expect(run.events.first?.event == "started")
    }

    @Test func measurementEventCarriesReadingAsFedWithDerivedMAP() async throws {
        let run = try await F.run(readings: [F.reading(128, 82, offset: 10), F.reading(124, 80, offset: 20)])
        let first = run.named("measurement").first
        #expect(first?["attempt"] == .int(1))
        #expect(first?["index"] == .int(1))
        #expect(first?["braceletAccepted"] == .bool(true))
        // 82 + (128 - 82) / 3 = 97 (integer division).
        #expect(first?["reading"]?["meanArterialPressure"] == .int(97))
    }

    @Test(arguments: [
        // (first, second, third expected) — systolic alone, diastolic alone, both at the boundary.
        ((120, 80), (130, 80), false), ((120, 80), (131, 80), true),
        ((120, 80), (110, 80), false), ((120, 80), (109, 80), true),
        ((120, 80), (120, 90), false), ((120, 80), (120, 91), true),
        ((120, 80), (120, 70), false), ((120, 80), (120, 69), true),
        ((120, 80), (130, 90), false),
    ])
    func thirdMeasurementOnlyWhenDeviationExceedsThreshold(first: (Int, Int), second: (Int, Int), third: Bool) async throws {
        let readings = [F.reading(first.0, first.1, offset: 10), F.reading(second.0, second.1, offset: 20),
                        F.reading(125, 85, offset: 30)]
        let run = try await F.run(readings: readings)
        #expect(run.result == .success(measurementCount: third ? 3 : 2))
        #expect(run.named("measurement").count == (third ? 3 : 2))
    }

    @Test func thresholdIsConfigurable() async throws {
        let readings = [F.reading(120, 80, offset: 10), F.reading(126, 80, offset: 20), F.reading(125, 85, offset: 30)]
        let run = try await F.run(readings: readings, config: .init(deviationThresholdMmHg: 5))
        #expect(run.result == .success(measurementCount: 3))
    }

    @Test func rejectedMeasurementIsReportedLikeAnAcceptedOne() async throws {
        // Measurement 1 refused, the attempt still accepted by script.
        let scenario = F.scenario([NIBPAttemptScript(measurements: [false], session: true)])
        let run = try await F.run(scenario, readings: [F.reading(120, 80, offset: 10), F.reading(122, 80, offset: 20)])
        #expect(run.named("measurement").map { $0["braceletAccepted"] } == [.bool(false), .bool(true)])
        #expect(run.steps.filter { $0 == "measurementRecorded" }.count == 2)
        #expect(run.result == .success(measurementCount: 2))
    }

    @Test func maxAttemptsOneHasNoRetryPrompt() async throws {
        let run = try await F.run(F.scenario(F.refusing(1)), readings: (1...6).map { F.reading(120, 80, offset: Int64($0 * 10)) },
                              config: .init(maxAttempts: 1), interaction: AnswerRetry(answer: true))
        #expect(run.result == .failedAfterRetries(attemptCount: 1))
        #expect(!run.steps.contains("retryPrompt"))
        #expect(run.steps.last == "finalFailure")
        #expect(run.collected.count == 2)
        #expect(run.planRestored)
    }

    @Test func failureThenSuccessOnSecondAttempt() async throws {
        let run = try await F.run(F.scenario(F.refusing(1)), readings: (1...4).map { F.reading(120 + $0, 80, offset: Int64($0 * 10)) })
        #expect(run.result == .success(measurementCount: 2))
        #expect(run.named("attempt").map { [$0["attempt"], $0["succeeded"]] } ==
                [[.int(1), .bool(false)], [.int(2), .bool(true)]])
        #expect(run.steps.filter { $0 == "retryPrompt" }.count == 1)
        #expect(run.collected.map { [$0[0], $0[1]] } == [[1, 1], [1, 2], [2, 1], [2, 2]])
    }

    @Test func exhaustedBudgetIsFailedAfterRetries() async throws {
        let run = try await F.run(F.scenario(F.refusing(3)), readings: (1...6).map { F.reading(120, 80, offset: Int64($0 * 10)) })
        #expect(run.result == .failedAfterRetries(attemptCount: 3))
        #expect(run.steps.filter { $0 == "retryPrompt" }.count == 2)
        #expect(run.steps.last == "finalFailure")
        #expect(run.planRestored)
        #expect(!run.bracelet.state.calibrated)
    }

    @Test func decliningTheRetryIsCancelledByUserNotFailedAfterRetries() async throws {
        let run = try await F.run(F.scenario(F.refusing(1)), readings: (1...6).map { F.reading(120, 80, offset: Int64($0 * 10)) },
                              interaction: AnswerRetry(answer: false))
        #expect(run.result == .cancelledByUser)
        #expect(run.named("attempt").count == 1)
        #expect(run.steps.last == "retryPrompt")
        #expect(run.collected.count == 2)
        #expect(run.planRestored)
    }

    @Test func outOfRangeSettingsNeverTrap() async throws {
        var config = BPInitializationConfig()
        config.maxAttempts = 0             // acts as 1
        config.deviationThresholdMmHg = -5 // acts as 0: any difference calls a third
        let run = try await F.run(F.scenario(F.refusing(1)), readings: [F.reading(120, 80, offset: 1), F.reading(121, 80, offset: 2),
                                                                     F.reading(122, 80, offset: 3)], config: config)
        #expect(run.result == .failedAfterRetries(attemptCount: 1))
        #expect(run.collected.count == 3)
        #expect(BPInitializationConfig(maxReadingAge: .infinity).json["maxReadingAge"] == .int(Int.max))
    }

    @Test func preparationToggleIsOnTheInstructionsStep() async throws {
        for include in [true, false] {
            let run = try await F.run(readings: [F.reading(120, 80, offset: 1), F.reading(121, 80, offset: 2)],
                                  config: .init(includePreparation: include))
            let instructions = run.named("step").first { $0["step"] == .string("instructions") }
            #expect(instructions?["preparation"] == .bool(include))
            #expect(run.named("started").first?["config"]?["includePreparation"] == .bool(include))
        }
    }
}
