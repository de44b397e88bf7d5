import CorsanoKit
import Foundation
import Testing

/// `BraceletSession.run`, the protocol every command on a bracelet follows: connect → gate →
/// repair the plan journal → the command's work → close on every way out.
@Suite struct BraceletSessionTests {
    let store: StateStore
    let clock = VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000))

    init() throws { store = try SQLiteStore(path: nil) }

    func target(_ scenario: Scenario = Scenario(), asked: NoticeBox? = nil) -> BraceletTarget {
        let clock = self.clock
        return BraceletTarget(address: .simulator(scenario: nil), scenario: scenario) { simulated in
            asked?.lines.append("simulated \(simulated)")
            return clock
        }
    }

    /// A run that died in calibration left this entry; its process is gone.
    func leaveOpenEntry(previous: String = "sleep") throws {
        _ = try PlanJournal(store: store).open(PlanJournal.Entry(
            serial: "SIM-287-0001", previousPlan: BraceletPlan(previous), flow: "bp-init", pid: 999_999,
            openedAt: Instant(secondsSinceEpoch: 1_794_999_000)))
    }

    @Test func theJournalIsRepairedBeforeTheBodyAndTheBraceletClosedAfter() async throws {
        try leaveOpenEntry()
        let events = EventRecorder(), notices = NoticeBox(), asked = NoticeBox()
        var sinkFor: String?
        let (bracelet, planInBody, openInBody) = try await BraceletSession.run(
            target(Scenario(plan: BraceletPlan.nibpCalibration.name), asked: asked), flow: .wearingOpt, store: store, run: "r1",
            events: { session in sinkFor = session.identity.serial; return events },
            diagnostics: notices.diagnostics
        ) { session, sink in
            // The run's sink stamps each event with the serial, then hands it to `events`.
            #expect((sink as? BraceletStampedSink)?.next as? EventRecorder === events)
            #expect((sink as? BraceletStampedSink)?.serial == "SIM-287-0001")
            return (session.bracelet as! SimulatedBracelet, try await session.bracelet.currentPlan(),
                    try PlanJournal(store: store).openEntries())
        }
        #expect(asked.lines == ["simulated true"])
        #expect(sinkFor == "SIM-287-0001")
        #expect(planInBody == BraceletPlan("sleep"))
        #expect(openInBody == [])
        #expect(events.names == ["planRestored"])
        #expect(events.events.map(\.bracelet) == ["SIM-287-0001"])
        #expect(events.events.first?.json.serialized.contains(#""at":"2026-11-18T11:06:40Z","bracelet":"SIM-287-0001","previousPlan""#) == true,
                "\(events.events.first?.json.serialized ?? "")")
        #expect(events.events.first?.flow == .wearingOpt)
        #expect(notices.lines.count == 1)
        #expect(!bracelet.isConnected)
    }

    @Test func aBodyThatThrowsStillClosesTheBracelet() async throws {
        struct Failed: Error {}
        let held = NoticeBox()
        nonisolated(unsafe) var bracelet: SimulatedBracelet?
        await #expect(throws: Failed.self) {
            try await BraceletSession.run(target(), flow: .bpInit, store: store, run: "r1",
                                          events: { _ in EventRecorder() }, diagnostics: held.diagnostics) { session, _ in
                bracelet = session.bracelet as? SimulatedBracelet
                throw Failed()
            }
        }
        #expect(bracelet?.isConnected == false)
        #expect(held.lines.isEmpty)
    }

    @Test func theGateRefusesBeforeTheJournalOrTheBodyIsTouched() async throws {
        try leaveOpenEntry()
        var reached = false
        await #expect(throws: BraceletGateError.firmwareTooOld(flow: "wearing-opt", found: "6.9", required: "7.0")) {
            try await BraceletSession.run(target(Scenario(firmware: "6.9")), flow: .wearingOpt, store: store, run: "r1",
                                          events: { _ in reached = true; return EventRecorder() }, diagnostics: .none) { _, _ in
                reached = true
            }
        }
        #expect(!reached)
        #expect(try PlanJournal(store: store).openEntries().count == 1, "the entry waits for a bracelet that may run")
        // A command without requirements (profile-push) is not gated, and repairs.
        try await BraceletSession.run(target(Scenario(firmware: "6.9")), flow: .profilePush, store: store, run: "r2",
                                      events: { _ in EventRecorder() }, diagnostics: .none) { _, _ in }
        #expect(try PlanJournal(store: store).openEntries() == [])
    }
}
