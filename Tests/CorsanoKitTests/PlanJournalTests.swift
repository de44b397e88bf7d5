import CorsanoKit
import Foundation
import Testing

/// Plan safety against a real SQLite file: journal before the switch, restore on every way out,
/// repair after a run that died without restoring.
@Suite struct PlanJournalTests {
    let directory: URL
    let path: String
    let clock = VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000))

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("state.sqlite3").path
    }

    func simulator(_ scenario: Scenario = Scenario(), state: SimulatedBraceletState? = nil) -> SimulatedBracelet {
        SimulatedBracelet(scenario: scenario, seed: 1, clock: clock, state: state)
    }

    @Test func guardJournalsBeforeSwitchingAndClearsAfterRestoring() async throws {
        let store = try SQLiteStore(path: path)
        let journal = PlanJournal(store: store)
        let sim = simulator(Scenario(plan: "sleep"))
        let planGuard = PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock, pid: 4242)
        #expect(try await planGuard.enter() == BraceletPlan("sleep"))
        #expect(sim.state.plan == .nibpCalibration)
        #expect(try journal.openEntries() == [PlanJournal.Entry(
            serial: "SIM-287-0001", previousPlan: BraceletPlan("sleep"), flow: "bp-init", pid: 4242,
            openedAt: Instant(secondsSinceEpoch: 1_795_000_000))])
        try await planGuard.restore()
        #expect(sim.state.plan == BraceletPlan("sleep"))
        #expect(try journal.openEntries() == [])
        #expect(planGuard.isRestored)
        sim.state.plan = BraceletPlan("other")
        try await planGuard.restore()
        #expect(sim.state.plan == BraceletPlan("other"), "a second restore does nothing")
    }

    @Test func aRunThatDiedInCalibrationIsRepairedByTheNextCommand() async throws {
        let bracelet = SimulatedBraceletState(scenario: Scenario())
        do {
            // The run that dies: switched, never restored; its store connection simply goes away.
            let store = try SQLiteStore(path: path)
            let planGuard = PlanGuard(bracelet: simulator(state: bracelet), serial: bracelet.serial,
                                      journal: PlanJournal(store: store), flow: "bp-init", clock: clock, pid: 999_999)
            try await planGuard.enter()
        }
        #expect(bracelet.plan == .nibpCalibration)
        let store = try SQLiteStore(path: path)
        let journal = PlanJournal(store: store)
        let next = simulator(state: bracelet)
        let events = EventRecorder()
        let notices = NoticeBox()
        clock.advance(to: Instant(secondsSinceEpoch: 1_795_000_600))
        let repair = try await journal.repairOpenEntries(
            bracelet: next, identity: try await next.identify(), sink: events, flow: "wearing-opt", run: "r2",
            clock: clock, notice: { notices.lines.append($0) }, isAlive: { _ in false })
        let entry = PlanJournal.Entry(serial: "SIM-287-0001", previousPlan: BraceletPlan("monitoring"), flow: "bp-init",
                                      pid: 999_999, openedAt: Instant(secondsSinceEpoch: 1_795_000_000))
        #expect(repair == .restored(entry))
        #expect(bracelet.plan == BraceletPlan("monitoring"))
        #expect(try journal.openEntries() == [])
        #expect(events.events.map(\.json.serialized) == [
            #"{"event":"planRestored","flow":"wearing-opt","run":"r2","at":"2026-11-18T11:16:40Z","previousPlan":"monitoring","why":"journal"}"#,
        ])
        #expect(notices.lines == ["bracelet SIM-287-0001 was left in plan nibpCalibration by bp-init (pid 999999, 2026-11-18T11:06:40Z); restored plan monitoring"])
        let again = try await journal.repairOpenEntries(bracelet: next, identity: try await next.identify(), sink: events,
                                                        flow: "wearing-opt", run: "r2", clock: clock)
        #expect(again == .nothingOpen)
        #expect(events.events.count == 1)
    }

    @Test func anEntryOfALiveProcessIsLeftAlone() async throws {
        let journal = PlanJournal(store: try SQLiteStore(path: path))
        let sim = simulator()
        try await PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock, pid: 31337).enter()
        let events = EventRecorder()
        let repair = try await journal.repairOpenEntries(bracelet: sim, identity: try await sim.identify(), sink: events,
                                                         flow: "bp-init", run: "r", clock: clock, isAlive: { $0 == 31337 })
        guard case .heldByLiveProcess(let entry) = repair else { Issue.record("\(repair)"); return }
        #expect(entry.pid == 31337)
        #expect(sim.state.plan == .nibpCalibration)
        #expect(events.events.isEmpty)
    }

    @Test func aBraceletThatAlreadyLeftCalibrationOnlyClearsTheEntry() async throws {
        let journal = PlanJournal(store: try SQLiteStore(path: path))
        let sim = simulator()
        try await PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock, pid: 7).enter()
        sim.state.plan = BraceletPlan("sleep")
        let events = EventRecorder()
        let repair = try await journal.repairOpenEntries(bracelet: sim, identity: try await sim.identify(), sink: events,
                                                         flow: "bp-init", run: "r", clock: clock, isAlive: { _ in false })
        guard case .alreadyLeft(_, let current) = repair else { Issue.record("\(repair)"); return }
        #expect(current == BraceletPlan("sleep"))
        #expect(sim.state.plan == BraceletPlan("sleep"))
        #expect(try journal.openEntries() == [])
        #expect(events.events.isEmpty)
    }

    @Test func aRefusedSwitchLeavesThePlanAndNoEntry() async throws {
        let journal = PlanJournal(store: try SQLiteStore(path: path))
        let sim = simulator(Scenario(faults: FaultScenario(failPlanSwitch: PlanSwitchPoint(to: "nibpCalibration"))))
        let planGuard = PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock)
        await #expect(throws: BraceletError.refused("switch to plan nibpCalibration failed")) { try await planGuard.enter() }
        #expect(sim.state.plan == BraceletPlan("monitoring"))
        #expect(try journal.openEntries() == [])
    }

    @Test func aFailedRestoreKeepsTheEntryAndCanBeRetried() async throws {
        let journal = PlanJournal(store: try SQLiteStore(path: path))
        let sim = simulator(Scenario(faults: FaultScenario(failPlanSwitch: PlanSwitchPoint(to: "monitoring", occurrence: 1))))
        let planGuard = PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock)
        try await planGuard.enter()
        await #expect(throws: BraceletError.refused("switch to plan monitoring failed")) { try await planGuard.restore() }
        #expect(try journal.openEntries().map(\.previousPlan) == [BraceletPlan("monitoring")])
        #expect(!planGuard.isRestored)
        try await planGuard.restore()
        #expect(sim.state.plan == BraceletPlan("monitoring"))
        #expect(try journal.openEntries() == [])
    }

    @Test func restoreWorksFromACancelledTask() async throws {
        let journal = PlanJournal(store: try SQLiteStore(path: path))
        let sim = simulator(Scenario(faults: FaultScenario(holdAtStep: HoldPoint(step: "measuring"))))
        let planGuard = PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock)
        let flow = Task {
            try await planGuard.enter()
            do {
                try await sim.enterStep(flow: "bp-init", step: "measuring")
            } catch {
                try await planGuard.restore()
                throw error
            }
        }
        await sim.waitUntilHeld()
        flow.cancel()
        await #expect(throws: CancellationError.self) { try await flow.value }
        #expect(sim.state.plan == BraceletPlan("monitoring"))
        #expect(try journal.openEntries() == [])
    }

    @Test func aSecondSwitchKeepsTheOlderPreviousPlan() async throws {
        let journal = PlanJournal(store: try SQLiteStore(path: path))
        let sim = simulator()
        try await PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock, pid: 1).enter()
        let second = PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock, pid: 2)
        #expect(try await second.enter() == BraceletPlan("monitoring"))
        try await second.restore()
        #expect(sim.state.plan == BraceletPlan("monitoring"))
    }
}

/// Lines collected by a test's notice closure.
final class NoticeBox: @unchecked Sendable {
    var lines: [String] = []
}
