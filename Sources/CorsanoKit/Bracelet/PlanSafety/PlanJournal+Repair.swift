extension PlanJournal {
    /// What a repair did with a bracelet's open journal entry.
    public enum Repair: Equatable, Sendable {
        /// No open entry for this bracelet.
        case nothingOpen
        /// The bracelet was still in the calibration plan: the previous plan was restored
        /// (stderr notice and a `planRestored` event).
        case restored(Entry)
        /// The bracelet had already left the calibration plan (now `current`); the entry was cleared.
        case alreadyLeft(Entry, current: BraceletPlan)
        /// The entry belongs to a process that still runs; left alone.
        case heldByLiveProcess(Entry)
    }

    /// Repairs an earlier run's open entry for this bracelet: run it first in every command that
    /// reaches a bracelet, before anything else touches the plan.
    ///
    /// When the bracelet is still in the NIBP-calibration plan, switches it back to the journaled
    /// previous plan, clears the entry, calls `notice` with a line for stderr, and emits
    /// `planRestored` (`previousPlan`, `why: "journal"`) to `sink` with this run's `flow`, `run`
    /// and `clock`. An entry of a process that still runs (other than this one) is left alone.
    /// - Returns: what was done.
    /// - Throws: `BraceletError` (the entry stays open), `StoreError`.
    @discardableResult
    public func repairOpenEntries(
        bracelet: any Bracelet, identity: BraceletIdentity, sink: any EventSink, flow: String, run: String,
        clock: any FlowClock, notice: (String) -> Void = { _ in },
        isAlive: (Int32) -> Bool = PlanJournal.processIsAlive
    ) async throws -> Repair {
        guard let entry = try entry(serial: identity.serial) else { return .nothingOpen }
        if entry.pid != Self.currentProcessID, isAlive(entry.pid) { return .heldByLiveProcess(entry) }
        let current = try await bracelet.currentPlan()
        guard current == .nibpCalibration else {
            try close(serial: entry.serial)
            return .alreadyLeft(entry, current: current)
        }
        try await bracelet.setPlan(entry.previousPlan)
        try close(serial: entry.serial)
        notice("bracelet \(entry.serial) was left in plan \(BraceletPlan.nibpCalibration) by \(entry.flow) "
               + "(pid \(entry.pid), \(RFC3339.format(entry.openedAt))); restored plan \(entry.previousPlan)")
        sink.emit(FlowEvent(flow: flow, run: run, at: clock.now(), .planRestored(previousPlan: entry.previousPlan, why: .journal)))
        return .restored(entry)
    }
}
