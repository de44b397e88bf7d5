import CorsanoKit
import Testing

/// Scripted faults fire where the scenario says, whichever way the simulator is reached.
@Suite struct BraceletFaultContractTests {
    typealias T = BraceletSubject.Transport

    /// Runs `body` against a simulator whose scenario scripts `faults`, reached over `transport`
    /// (the subject, and its bracelet), and tears the subject down after.
    static func withFaults(_ transport: T, _ faults: FaultScenario,
                           _ body: (BraceletSubject, any Bracelet) async throws -> Void) async throws {
        let s = try await BraceletSubject.make(transport, Scenario(faults: faults))
        defer { s.teardown() }
        try await body(s, s.bracelet)
    }

    @Test(arguments: T.allCases)
    func disconnectAtTheNamedStepOccurrence(transport: T) async throws {
        try await Self.withFaults(transport, FaultScenario(
            disconnectAtStep: StepPoint(flow: "bp-init", step: "measuring", occurrence: 2))) { s, b in
            try await b.enterStep(flow: "wearing-opt", step: "measuring")
            try await b.enterStep(flow: "bp-init", step: "measuring")
            try await b.enterStep(flow: "bp-init", step: "measurementRecorded")
            await #expect(throws: BraceletError.disconnected) { try await b.enterStep(flow: "bp-init", step: "measuring") }
            await #expect(throws: BraceletError.disconnected) { _ = try await b.currentPlan() }
        }
    }

    @Test(arguments: T.allCases)
    func disconnectAtTheNamedMeasurement(transport: T) async throws {
        try await Self.withFaults(transport, FaultScenario(
            disconnectAtMeasurement: MeasurementPoint(attempt: 2, index: 1))) { s, b in
            try await b.setPlan(.nibpCalibration)
            #expect(try await b.feedCalibrationReading(.cuff(120, 80, 60), attempt: 1, index: 1))
            #expect(try await b.feedCalibrationReading(.cuff(120, 80, 60), attempt: 1, index: 2))
            await #expect(throws: BraceletError.disconnected) {
                _ = try await b.feedCalibrationReading(.cuff(120, 80, 60), attempt: 2, index: 1)
            }
            await #expect(throws: BraceletError.disconnected) { try await b.setPlan(BraceletPlan("monitoring")) }
        }
    }

    @Test(arguments: T.allCases)
    func disconnectAtTheNamedPoll(transport: T) async throws {
        try await Self.withFaults(transport, FaultScenario(disconnectAtPoll: PollPoint(poll: 3))) { s, b in
            try await b.startSpecialMode(value: 4)
            _ = try await b.specialModeStatus(type: 4)
            _ = try await b.specialModeStatus(type: 4)
            await #expect(throws: BraceletError.disconnected) { _ = try await b.specialModeStatus(type: 4) }
            await #expect(throws: BraceletError.disconnected) { try await b.stopSpecialMode() }
        }
    }

    @Test(arguments: T.allCases)
    func pollsStopAnsweringFromPollNWhileTheLinkLives(transport: T) async throws {
        try await Self.withFaults(transport, FaultScenario(pollTimeoutFrom: PollPoint(attempt: 1, poll: 2))) { s, b in
            try await b.startSpecialMode(value: 4)
            _ = try await b.specialModeStatus(type: 4)
            for _ in 0..<3 { await #expect(throws: BraceletError.timeout) { _ = try await b.specialModeStatus(type: 4) } }
            try await b.stopSpecialMode()
            try await b.startSpecialMode(value: 4)
            #expect(try await b.specialModeStatus(type: 4).worn)
            #expect(try await b.currentPlan() == BraceletPlan("monitoring"))
        }
    }

    @Test(arguments: T.allCases)
    func aPlanSwitchThatFails(transport: T) async throws {
        try await Self.withFaults(transport, FaultScenario(
            failPlanSwitch: PlanSwitchPoint(to: "monitoring", occurrence: 1))) { s, b in
            try await b.setPlan(.nibpCalibration)
            await #expect(throws: BraceletError.refused("switch to plan monitoring failed")) {
                try await b.setPlan(BraceletPlan("monitoring"))
            }
            #expect(try await b.currentPlan() == .nibpCalibration)
            try await b.setPlan(BraceletPlan("monitoring"))
            #expect(try await b.currentPlan() == BraceletPlan("monitoring"))
        }
    }

    @Test(arguments: T.allCases)
    func anUnavailableBracelet(transport: T) async throws {
        try await Self.withFaults(transport, FaultScenario(unavailable: "out of range")) { s, b in
            await #expect(throws: BraceletError.unavailable("out of range")) { _ = try await b.identify() }
        }
    }

    @Test(arguments: T.allCases)
    func aHeldStepBlocksUntilItsTaskIsCancelled(transport: T) async throws {
        try await Self.withFaults(transport, FaultScenario(holdAtStep: HoldPoint(step: "running"))) { s, b in
            try await b.enterStep(flow: "wearing-opt", step: "armedPreparing")
            let held = Task { try await b.enterStep(flow: "wearing-opt", step: "running") }
            try await s.waitUntilHeld()
            // The link lives while the step is held: other calls still answer.
            #expect(try await b.currentPlan() == BraceletPlan("monitoring"))
            held.cancel()
            await #expect(throws: CancellationError.self) { try await held.value }
            #expect(try await b.currentPlan() == BraceletPlan("monitoring"))
        }
    }

    @Test(arguments: T.allCases)
    func aHeldStepEndsInADisconnectWhenTheLinkDrops(transport: T) async throws {
        try await Self.withFaults(transport, FaultScenario(
            holdAtStep: HoldPoint(flow: "bp-init", step: "measurementRecorded", occurrence: 2))) { s, b in
            try await b.enterStep(flow: "bp-init", step: "measurementRecorded")
            let held = Task { try await b.enterStep(flow: "bp-init", step: "measurementRecorded") }
            try await s.waitUntilHeld()
            try await s.dropLink()
            await #expect(throws: BraceletError.disconnected) { try await held.value }
            await #expect(throws: BraceletError.disconnected) { _ = try await b.identify() }
        }
    }
}
