import Synchronization

/// Switches a bracelet into the NIBP-calibration plan for a flow and gives the previous plan
/// back on every way out: journal first, then switch; restore, then clear the journal.
///
/// Call `enter()` where the flow switches, and `restore()` on EVERY way out (success, failure,
/// cuff error, disconnect, SIGINT/SIGTERM cancellation). `restore()` is idempotent and runs its
/// bracelet call outside the caller's cancellation, so it works from a cancelled task.
/// Source: seeds/bp-initialization.txt ("switches to the NIBP-calibration plan for the duration of
/// the flow and restores the previous plan when it ends"), DESIGN "The bracelet port".
public final class PlanGuard: Sendable {
    let bracelet: any Bracelet
    let serial: String
    let journal: PlanJournal?
    let flow: String
    let clock: any FlowClock
    let pid: Int32
    private let state = Mutex<State>(.idle)

    enum State: Equatable {
        case idle
        case entered(previous: BraceletPlan)
        case restored(previous: BraceletPlan)
    }

    /// A guard for bracelet `serial`; `journal` nil runs without one (no state store).
    public init(bracelet: any Bracelet, serial: String, journal: PlanJournal?, flow: String, clock: any FlowClock,
                pid: Int32 = PlanJournal.currentProcessID) {
        self.bracelet = bracelet
        self.serial = serial
        self.journal = journal
        self.flow = flow
        self.clock = clock
        self.pid = pid
    }

    /// Reads the current plan, journals it, and switches to `nibpCalibration`.
    /// When the switch fails the previous plan is restored (best effort) before rethrowing.
    /// - Returns: the plan that will be restored.
    /// - Throws: `BraceletError` (`.refused` when the switch fails), `StoreError`.
    @discardableResult
    public func enter() async throws -> BraceletPlan {
        let current = try await bracelet.currentPlan()
        var previous = current
        if let journal {
            let entry = PlanJournal.Entry(serial: serial, previousPlan: current, flow: flow, pid: pid, openedAt: clock.now())
            previous = try journal.open(entry).previousPlan
        }
        state.withLock { $0 = .entered(previous: previous) }
        do {
            try await bracelet.setPlan(.nibpCalibration)
        } catch {
            try? await restore()
            throw error
        }
        return previous
    }

    /// Switches back to the previous plan and clears the journal entry; a no-op before `enter()`
    /// and after a successful restore. On failure the entry stays open for the next repair.
    /// - Throws: `BraceletError`, `StoreError`.
    public func restore() async throws {
        guard case .entered(let previous) = state.withLock({ $0 }) else { return }
        let bracelet = self.bracelet
        // A fresh task: the caller may be cancelled (SIGINT), the restore must still happen.
        try await Task { try await bracelet.setPlan(previous) }.value
        try journal?.close(serial: serial)
        state.withLock { $0 = .restored(previous: previous) }
    }

    /// The plan `restore()` gives (or gave) back; nil before `enter()`.
    public var previousPlan: BraceletPlan? {
        switch state.withLock({ $0 }) {
        case .idle: return nil
        case .entered(let p), .restored(let p): return p
        }
    }

    /// True once the previous plan was given back.
    public var isRestored: Bool {
        if case .restored = state.withLock({ $0 }) { return true }
        return false
    }
}
