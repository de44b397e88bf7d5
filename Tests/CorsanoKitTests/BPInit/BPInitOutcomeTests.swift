import CorsanoKit
import Testing

/// Every way a calibration ends: the result, the plan restored, and `readings` then `finished`
/// on every outcome (seed "didCollectReadings ... on every terminal outcome").
@Suite struct BPInitOutcomeTests {
    typealias F = BPInitFixture
    static let twoGood = [F.reading(120, 80, offset: 10), F.reading(122, 81, offset: 20)]

    @Test func readingsEventOnEveryTerminalOutcome() async throws {
        let cases: [(Scenario, [CuffItem], BPInitializationResult, Int)] = [
            (Scenario(), Self.twoGood.map(CuffItem.reading), .success(measurementCount: 2), 2),
            (F.scenario(F.refusing(3)), (1...6).map { .reading(F.reading(120, 80, offset: Int64($0))) },
             .failedAfterRetries(attemptCount: 3), 6),
            (Scenario(), [.reading(Self.twoGood[0])], .cuffError(.noReading), 1),
            (Scenario(), [.failed(.unknown("cuff overheated"))], .cuffError(.unknown("cuff overheated")), 0),
            (F.scenario(faults: .init(disconnectAtStep: StepPoint(step: "measurementRecorded"))),
             Self.twoGood.map(CuffItem.reading), .braceletDisconnected, 1),
        ]
        for (scenario, items, expected, fedCount) in cases {
            let run = try await F.run(scenario, items)
            #expect(run.result == expected)
            #expect(run.endsWithReadingsThenFinished(), "\(expected)")
            #expect(run.collected.count == fedCount, "\(expected)")
        }
    }

    @Test func emptyReadingsWhenNoReadingWasFed() async throws {
        let run = try await F.run(Scenario(), [])
        #expect(run.result == .cuffError(.noReading))
        #expect(run.named("readings").first?["readings"] == .array([]))
        #expect(run.events.last?.json["result"]?.serialized == #"{"kind":"cuffError","error":{"kind":"noReading"}}"#)
        #expect(run.planRestored)
    }

    @Test(arguments: ["instructions", "measuring", "measurementRecorded", "retryPrompt"])
    func disconnectAtStepIsBraceletDisconnected(step: String) async throws {
        let scenario = F.scenario(F.refusing(1), faults: .init(disconnectAtStep: StepPoint(step: step)))
        let run = try await F.run(scenario, readings: (1...6).map { F.reading(120, 80, offset: Int64($0)) })
        #expect(run.result == .braceletDisconnected)
        #expect(run.steps.last == step)
        #expect(run.endsWithReadingsThenFinished())
        // The link is down, so the restore is left to the plan journal at the next connect.
        #expect(run.named("planRestored").isEmpty)
        #expect(run.bracelet.state.plan == (step == "instructions" ? BraceletPlan("monitoring") : .nibpCalibration))
    }

    @Test func disconnectWhileFeedingIsBraceletDisconnected() async throws {
        let scenario = F.scenario(faults: .init(disconnectAtMeasurement: MeasurementPoint(index: 2)))
        let run = try await F.run(scenario, readings: Self.twoGood)
        #expect(run.result == .braceletDisconnected)
        #expect(run.collected == [[1, 1, 120, 80]])
        #expect(run.endsWithReadingsThenFinished())
    }

    @Test func refusedPlanSwitchEndsTheFlowBeforeAnyMeasurement() async throws {
        let scenario = F.scenario(faults: .init(failPlanSwitch: PlanSwitchPoint(to: "nibpCalibration")))
        let run = try await F.run(scenario, readings: Self.twoGood)
        #expect(run.result == .braceletDisconnected)
        #expect(run.named("measurement").isEmpty)
        #expect(run.bracelet.state.plan == BraceletPlan("monitoring"))
    }

    @Test(arguments: ["needsCuffPairing", "instructions", "measuring", "measurementRecorded", "retryPrompt"])
    func cancellationAtStepIsCancelledByUserWithPlanRestored(step: String) async throws {
        let clock = VirtualClock(start: F.start)
        let bracelet = SimulatedBracelet(scenario: F.scenario(F.refusing(1), faults: .init(holdAtStep: HoldPoint(step: step))),
                                         clock: clock)
        let recorder = EventRecorder()
        let flow = BPInitializationFlow(
            bracelet: bracelet, clock: clock,
            cuff: ScriptedCuffSource(readings: (1...6).map { F.reading(120, 80, offset: Int64($0)) }),
            sink: recorder, pairing: ScriptedPairing(hookPairs: true), runID: "r")
        let task = Task { try await flow.run() }
        await bracelet.waitUntilHeld()
        #expect(bracelet.heldSteps == [step])
        task.cancel()
        #expect(try await task.value == .cancelledByUser)
        #expect(recorder.names.suffix(2) == ["readings", "finished"])
        #expect(bracelet.state.plan == BraceletPlan("monitoring"))
        let switched = step != "needsCuffPairing" && step != "instructions"
        #expect(recorder.names.filter { $0 == "planRestored" }.count == (switched ? 1 : 0))
    }

    @Test func holdAtFinalSuccessDoesNotUndoTheCalibration() async throws {
        let clock = VirtualClock(start: F.start)
        let bracelet = SimulatedBracelet(scenario: F.scenario(faults: .init(holdAtStep: HoldPoint(step: "finalSuccess"))),
                                         clock: clock)
        let recorder = EventRecorder()
        let flow = BPInitializationFlow(bracelet: bracelet, clock: clock,
                                        cuff: ScriptedCuffSource(readings: Self.twoGood), sink: recorder, runID: "r")
        let task = Task { try await flow.run() }
        await bracelet.waitUntilHeld()
        task.cancel()
        #expect(try await task.value == .success(measurementCount: 2))
        #expect(bracelet.state.plan == BraceletPlan("monitoring"))
        #expect(bracelet.state.calibrated)
    }

    @Test func unpairedCuffOpensOnPairingAndContinuesOncePaired() async throws {
        let pairing = ScriptedPairing(hookPairs: true)
        let run = try await F.run(Scenario(), Self.twoGood.map(CuffItem.reading), pairing: pairing)
        #expect(run.steps.prefix(2) == ["needsCuffPairing", "instructions"])
        #expect(pairing.hookCalls == 1)
        #expect(run.result == .success(measurementCount: 2))
    }

    @Test func stillUnpairedAfterTheHookIsCuffDisconnected() async throws {
        // A plan switch would fail here: the flow must end before trying one.
        let scenario = F.scenario(faults: .init(failPlanSwitch: PlanSwitchPoint(to: "nibpCalibration")))
        let run = try await F.run(scenario, Self.twoGood.map(CuffItem.reading), pairing: ScriptedPairing(hookPairs: false))
        #expect(run.result == .cuffError(.cuffDisconnected))
        #expect(run.steps == ["needsCuffPairing"])
        #expect(run.named("planRestored").isEmpty)
        #expect(run.endsWithReadingsThenFinished())
    }

    @Test func resultJSONSpellsEachCaseAsTheSDK() {
        #expect(BPInitializationResult.success(measurementCount: 3).json.serialized == #"{"kind":"success","measurementCount":3}"#)
        #expect(BPInitializationResult.cancelledByUser.json.serialized == #"{"kind":"cancelledByUser"}"#)
        #expect(BPInitializationResult.braceletDisconnected.json.serialized == #"{"kind":"braceletDisconnected"}"#)
        #expect(BPInitializationResult.failedAfterRetries(attemptCount: 3).json.serialized == #"{"kind":"failedAfterRetries","attemptCount":3}"#)
        #expect(BPInitializationResult.cuffError(.unknown("x\"y")).json.serialized ==
                #"{"kind":"cuffError","error":{"kind":"unknown","message":"x\"y"}}"#)
        #expect(BPInitializationResult.cuffError(.cuffDisconnected).json.serialized ==
                #"{"kind":"cuffError","error":{"kind":"cuffDisconnected"}}"#)
        #expect(BPInitializationResult.cuffError(.staleReading(age: 901.4)).json.serialized ==
                #"{"kind":"cuffError","error":{"kind":"staleReading","age":901}}"#)
    }
}

/// The plan switch is journaled before it happens and cleared after the restore (docs/design.md "Plan safety").
@Suite struct BPInitPlanJournalTests {
    typealias F = BPInitFixture

    @Test func journalEntryIsOpenDuringTheFlowAndClosedAfterCancellation() async throws {
        let journal = PlanJournal(store: try SQLiteStore(path: nil))
        let clock = VirtualClock(start: F.start)
        let scenario = F.scenario(faults: .init(holdAtStep: HoldPoint(step: "measuring", occurrence: 2)))
        let bracelet = SimulatedBracelet(scenario: scenario, clock: clock)
        let planGuard = PlanGuard(bracelet: bracelet, serial: scenario.serial, journal: journal, flow: "bp-init", clock: clock)
        let flow = BPInitializationFlow(bracelet: bracelet, clock: clock,
                                        cuff: ScriptedCuffSource(readings: BPInitOutcomeTests.twoGood),
                                        sink: EventRecorder(), planGuard: planGuard, runID: "r")
        let task = Task { try await flow.run() }
        await bracelet.waitUntilHeld()
        #expect(try journal.entry(serial: scenario.serial)?.previousPlan == BraceletPlan("monitoring"))
        #expect(bracelet.state.plan == .nibpCalibration)
        task.cancel()
        #expect(try await task.value == .cancelledByUser)
        #expect(try journal.entry(serial: scenario.serial) == nil)
        #expect(bracelet.state.plan == BraceletPlan("monitoring"))
    }
}
