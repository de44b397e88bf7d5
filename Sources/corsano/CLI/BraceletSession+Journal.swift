import CorsanoKit

extension BraceletSession {
    /// Repairs an earlier run's open plan-journal entry for this bracelet (DESIGN "Plan safety"):
    /// run it right after `BraceletConnector.connect`, before the flow touches the bracelet.
    /// A restore is said on stderr and emitted as `planRestored` (`why: "journal"`) to `sink`.
    /// - Throws: `BraceletError` (the entry stays open), `StoreError`.
    @discardableResult
    func repairJournal(store: StateStore, sink: any EventSink, flow: String, run: String,
                       _ ctx: CommandContext) async throws -> PlanJournal.Repair {
        try await PlanJournal(store: store).repairOpenEntries(
            bracelet: bracelet, identity: identity, sink: sink, flow: flow, run: run, clock: clock,
            notice: { ctx.diagnose($0) })
    }

    /// A plan guard for a flow on this bracelet, journaled in `store` (DESIGN "Plan safety"):
    /// `enter()` where the flow switches to nibpCalibration, `restore()` on every way out.
    func planGuard(store: StateStore, flow: String) -> PlanGuard {
        PlanGuard(bracelet: bracelet, serial: identity.serial, journal: PlanJournal(store: store), flow: flow, clock: clock)
    }
}
