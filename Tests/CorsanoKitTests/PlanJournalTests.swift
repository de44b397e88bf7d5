import CorsanoKit
import Foundation
import Testing
import TestSupport

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
        let planGuard = PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock, owner: PlanJournal.Owner(gateway: "", pid: 4242, startTime: 77, bootID: "b1"))
        #expect(try await planGuard.enter() == BraceletPlan("sleep"))
        #expect(sim.state.plan == .nibpCalibration)
        #expect(try journal.openEntries() == [PlanJournal.Entry(
            serial: "SIM-287-0001", previousPlan: BraceletPlan("sleep"), flow: "bp-init",
            owner: PlanJournal.Owner(gateway: "", pid: 4242, startTime: 77, bootID: "b1"), openedAt: Instant(secondsSinceEpoch: 1_795_000_000))])
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
                                      journal: PlanJournal(store: store), flow: "bp-init", clock: clock, owner: PlanJournal.Owner(gateway: "", pid: 999_999, startTime: 5, bootID: "b1"))
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
            bracelet: next, identity: try await next.identify(), sink: events, flow: .wearingOpt, run: "r2",
            clock: clock, diagnostics: notices.diagnostics, probe: .gone)
        let entry = PlanJournal.Entry(serial: "SIM-287-0001", previousPlan: BraceletPlan("monitoring"), flow: "bp-init",
                                      owner: PlanJournal.Owner(gateway: "", pid: 999_999, startTime: 5, bootID: "b1"), openedAt: Instant(secondsSinceEpoch: 1_795_000_000))
        #expect(repair == .restored(entry))
        #expect(bracelet.plan == BraceletPlan("monitoring"))
        #expect(try journal.openEntries() == [])
        #expect(events.events.map(\.json.serialized) == [
            #"{"event":"planRestored","flow":"wearing-opt","run":"r2","at":"2026-11-18T11:16:40Z","previousPlan":"monitoring","why":"journal"}"#,
        ])
        #expect(notices.lines == ["bracelet SIM-287-0001 was left in plan nibpCalibration by bp-init (pid 999999, 2026-11-18T11:06:40Z); restored plan monitoring"])
        let again = try await journal.repairOpenEntries(bracelet: next, identity: try await next.identify(), sink: events,
                                                        flow: .wearingOpt, run: "r2", clock: clock)
        #expect(again == .nothingOpen)
        #expect(events.events.count == 1)
    }

    @Test func anEntryOfALiveProcessIsLeftAlone() async throws {
        let journal = PlanJournal(store: try SQLiteStore(path: path))
        let sim = simulator()
        try await PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock,
                             owner: PlanJournal.Owner(gateway: "", pid: 31337, startTime: 9, bootID: "b1")).enter()
        let events = EventRecorder()
        let repair = try await journal.repairOpenEntries(bracelet: sim, identity: try await sim.identify(), sink: events,
                                                         flow: .bpInit, run: "r", clock: clock, probe: .fake(running: [31337: 9]))
        guard case .heldByLiveProcess(let entry) = repair else { Issue.record("\(repair)"); return }
        #expect(entry.pid == 31337)
        #expect(sim.state.plan == .nibpCalibration)
        #expect(events.events.isEmpty)
    }

    @Test func aBraceletThatAlreadyLeftCalibrationOnlyClearsTheEntry() async throws {
        let journal = PlanJournal(store: try SQLiteStore(path: path))
        let sim = simulator()
        try await PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock, owner: PlanJournal.Owner(gateway: "", pid: 7)).enter()
        sim.state.plan = BraceletPlan("sleep")
        let events = EventRecorder()
        let repair = try await journal.repairOpenEntries(bracelet: sim, identity: try await sim.identify(), sink: events,
                                                         flow: .bpInit, run: "r", clock: clock, probe: .gone)
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

    /// A second run never adopts a live run's entry (issue 25: both were admitted, and the
    /// first run's restore pulled the plan from under the second): it is refused, and the first
    /// run's entry and plan are left as they are.
    @Test func aSecondRunIsRefusedNotAdopted() async throws {
        let journal = PlanJournal(store: try SQLiteStore(path: path))
        let sim = simulator()
        let first = PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock,
                              owner: PlanJournal.Owner.current(gateway: ""))
        try await first.enter()
        let second = PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock,
                               owner: PlanJournal.Owner(gateway: "", pid: 2))
        await #expect(throws: BraceletError.self) { try await second.enter() }
        #expect(sim.state.plan == .nibpCalibration)
        #expect(try journal.openEntries().map(\.owner) == [PlanJournal.Owner.current(gateway: "")])
        try await first.restore()
        #expect(sim.state.plan == BraceletPlan("monitoring"))
    }

    /// The journal refuses a claim while another live run's entry is open, with no bridge to
    /// say so (an in-process bracelet per run): busy (75), its message naming that run, its
    /// `retryAfter` the lease's end.
    @Test func aClaimOnALiveRunsEntryIsRefused() async throws {
        let journal = PlanJournal(store: try SQLiteStore(path: path))
        let me = PlanJournal.Owner.current(gateway: "")
        _ = try journal.open(PlanJournal.Entry(serial: "SIM-287-0001", previousPlan: BraceletPlan("monitoring"), flow: "bp-init",
                                               owner: me, openedAt: Instant(secondsSinceEpoch: 0)))
        let other = PlanGuard(bracelet: simulator(), serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock,
                              owner: PlanJournal.Owner(gateway: "", pid: 2))
        await #expect { try await other.claim() } throws: { error in
            guard case BraceletError.busy(let message, let retryAfter) = error else { return false }
            return message.contains("held by a live run of bp-init (pid \(me.pid)") && retryAfter != nil
        }
        #expect(try journal.openEntries().map(\.owner) == [me])
    }
}

extension PlanJournalTests {
    /// A journal entry of a run that died in calibration, owned by `owner`.
    func leftInCalibration(by owner: PlanJournal.Owner) async throws -> (PlanJournal, SimulatedBracelet) {
        let journal = PlanJournal(store: try SQLiteStore(path: path))
        let sim = simulator()
        try await PlanGuard(bracelet: sim, serial: "SIM-287-0001", journal: journal, flow: "bp-init", clock: clock,
                            owner: owner).enter()
        #expect(sim.state.plan == .nibpCalibration)
        return (journal, sim)
    }

    @Test func aReusedPidDoesNotHoldTheEntry() async throws {
        // The run (pid 31337, started at tick 9) died; another process got pid 31337 later.
        let (journal, sim) = try await leftInCalibration(by: PlanJournal.Owner(gateway: "", pid: 31337, startTime: 9, bootID: "b1"))
        let repair = try await journal.repairOpenEntries(bracelet: sim, identity: try await sim.identify(), sink: EventRecorder(),
                                                         flow: .bpInit, run: "r", clock: clock,
                                                         probe: .fake(running: [31337: 12_000]))
        guard case .restored(let entry) = repair else { Issue.record("\(repair)"); return }
        #expect(entry.owner == PlanJournal.Owner(gateway: "", pid: 31337, startTime: 9, bootID: "b1"))
        #expect(sim.state.plan == BraceletPlan("monitoring"))
        #expect(try journal.openEntries() == [])
    }

    @Test func anEntryFromAnEarlierBootIsRepaired() async throws {
        let (journal, sim) = try await leftInCalibration(by: PlanJournal.Owner(gateway: "", pid: 31337, startTime: 9, bootID: "b0"))
        let repair = try await journal.repairOpenEntries(bracelet: sim, identity: try await sim.identify(), sink: EventRecorder(),
                                                         flow: .bpInit, run: "r", clock: clock,
                                                         probe: .fake(running: [31337: 9]))
        guard case .restored = repair else { Issue.record("\(repair)"); return }
        #expect(sim.state.plan == BraceletPlan("monitoring"))
    }

    @Test func anUnconfirmedOwnerIsLeftAloneWithTheRepairCommandNamed() async throws {
        // An entry written before owners were recorded: a pid alone, and that pid runs.
        let (journal, sim) = try await leftInCalibration(by: PlanJournal.Owner(gateway: "", pid: 31337))
        let notices = NoticeBox()
        let repair = try await journal.repairOpenEntries(bracelet: sim, identity: try await sim.identify(), sink: EventRecorder(),
                                                         flow: .wearingOpt, run: "r", clock: clock,
                                                         diagnostics: notices.diagnostics, probe: .fake(running: [31337: 9]))
        guard case .ownerUnconfirmed(_, let why) = repair else { Issue.record("\(repair)"); return }
        #expect(why == "pid 31337 runs, and the entry has no start time to tell it from a reused pid")
        #expect(sim.state.plan == .nibpCalibration)
        #expect(notices.lines.isEmpty, "the caller says it")
        #expect(PlanJournal.unconfirmedMessage(try #require(try journal.entry(serial: "SIM-287-0001")), me: .current(gateway: ""), why: why)
                == "bracelet SIM-287-0001 was left in plan nibpCalibration by bp-init (pid 31337, 2026-11-18T11:06:40Z), and that run "
                + "cannot be confirmed over: pid 31337 runs, and the entry has no start time to tell it from a reused pid; plan left "
                + "alone (once it is over, `corsano bracelet repair` restores plan monitoring)")
        // `corsano bracelet repair` overrides an unconfirmed owner, not a running one.
        let forced = try await journal.repairOpenEntries(bracelet: sim, identity: try await sim.identify(), sink: EventRecorder(),
                                                         flow: .braceletRepair, run: "r", clock: clock,
                                                         probe: .fake(running: [31337: 9]), policy: .unlessRunning)
        guard case .restored = forced else { Issue.record("\(forced)"); return }
        #expect(sim.state.plan == BraceletPlan("monitoring"))
    }

    @Test func onlyForceOverridesARunningOwner() async throws {
        let owner = PlanJournal.Owner(gateway: "", pid: 31337, startTime: 9, bootID: "b1")
        let (journal, sim) = try await leftInCalibration(by: owner)
        let probe = OwnerProbe.fake(running: [31337: 9])
        let kept = try await journal.repairOpenEntries(bracelet: sim, identity: try await sim.identify(), sink: EventRecorder(),
                                                       flow: .braceletRepair, run: "r", clock: clock, probe: probe,
                                                       policy: .unlessRunning)
        #expect(kept == .heldByLiveProcess(try #require(try journal.entry(serial: "SIM-287-0001"))))
        #expect(sim.state.plan == .nibpCalibration)
        let forced = try await journal.repairOpenEntries(bracelet: sim, identity: try await sim.identify(), sink: EventRecorder(),
                                                         flow: .braceletRepair, run: "r", clock: clock, probe: probe,
                                                         policy: .always)
        guard case .restored = forced else { Issue.record("\(forced)"); return }
        #expect(sim.state.plan == BraceletPlan("monitoring"))
    }

    @Test func thisProcessIsItsOwnTupleFromProc() throws {
        let me = PlanJournal.Owner.current(gateway: "")
        #expect(me.pid == getpid())
        #expect(me.startTime != nil)
        #expect(me.bootID?.count == 36)
        #expect(OwnerProbe.system.liveness(of: me) == .running)
        var reused = me
        reused.startTime = me.startTime.map { $0 + 1 }
        #expect(OwnerProbe.system.liveness(of: reused) == .gone)
        var rebooted = me
        rebooted.bootID = "00000000-0000-0000-0000-000000000000"
        #expect(OwnerProbe.system.liveness(of: rebooted) == .gone)
    }

}

extension OwnerProbe {
    /// Boot "b1", where every process is gone.
    static let gone = fake(running: [:])

    /// Boot "b1", where the processes of `running` (pid: start time) run.
    static func fake(running: [Int32: UInt64]) -> OwnerProbe {
        OwnerProbe(bootID: { "b1" }, startTime: { running[$0] }, exists: { running[$0] != nil })
    }
}

/// Lines collected by a test's notice closure.
final class NoticeBox: @unchecked Sendable {
    var lines: [String] = []
    /// A sink keeping the notices' messages in `lines` (the level the executable prints without `-v`).
    var diagnostics: Diagnostics { Diagnostics(level: .notice) { self.lines.append($0.message) } }
}

/// A run killed but not yet reaped by its parent (a zombie) runs no more: its journal entry is
/// repaired, not left alone as a running owner's (found by the issue 15 man-page examples).
@Suite struct ZombieOwnerTests {
    @Test func aZombieIsNotAlive() throws {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("true"), nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0)
        // Not reaped yet: the kernel keeps it as a zombie.
        let zombie = TestSupport.Wait.until(seconds: 20) { ProcessIdentity.isZombie(pid) }
        #expect(zombie)
        #expect(!PlanJournal.processIsAlive(pid))
        #expect(PlanJournal.processIsAlive(getpid()))
        #expect(!ProcessIdentity.isZombie(getpid()))
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(!PlanJournal.processIsAlive(pid))
    }
}
