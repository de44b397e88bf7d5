import Synchronization

/// Switches a bracelet into the NIBP-calibration plan for a flow and gives the previous plan
/// back on every way out: journal first, then switch; restore, then clear the journal.
///
/// Call `enter()` where the flow switches, and `restore()` on EVERY way out (success, failure,
/// cuff error, disconnect, SIGINT/SIGTERM cancellation). `restore()` is idempotent and runs its
/// bracelet call outside the caller's cancellation, so it works from a cancelled task. While
/// entered, the journal entry's lease is renewed every third of its length (real time), so
/// another gateway leaves the entry alone; a store that fails meanwhile (connection lost) does
/// not stop the flow: the error is kept in `storeFailure` for the command's exit status (74).
/// Source: seeds/bp-initialization.txt ("switches to the NIBP-calibration plan for the duration of
/// the flow and restores the previous plan when it ends"), DESIGN "The bracelet port".
public final class PlanGuard: Sendable {
    let bracelet: any Bracelet
    let serial: String
    let journal: PlanJournal?
    let flow: String
    let clock: any FlowClock
    let owner: PlanJournal.Owner
    private let state = Mutex<State>(.idle)
    private let renewal = Mutex<Task<Void, Never>?>(nil)
    private let firstStoreError = Mutex<StoreError?>(nil)

    enum State: Equatable {
        case idle
        case entered(previous: BraceletPlan)
        case restored(previous: BraceletPlan)
    }

    /// A guard for bracelet `serial` owned by `owner`; `journal` nil runs without one (no state store).
    public init(bracelet: any Bracelet, serial: String, journal: PlanJournal?, flow: String, clock: any FlowClock,
                owner: PlanJournal.Owner = .current(gateway: "")) {
        self.bracelet = bracelet
        self.serial = serial
        self.journal = journal
        self.flow = flow
        self.clock = clock
        self.owner = owner
    }

    /// A guard whose entries name process `pid` on no gateway (tests).
    public convenience init(bracelet: any Bracelet, serial: String, journal: PlanJournal?, flow: String,
                            clock: any FlowClock, pid: Int32) {
        self.init(bracelet: bracelet, serial: serial, journal: journal, flow: flow, clock: clock,
                  owner: PlanJournal.Owner(gateway: "", pid: pid))
    }

    /// The first store error met after `enter()` (lease renewal, closing the entry), if any.
    public var storeFailure: StoreError? { firstStoreError.withLock { $0 } }

    /// Reads the current plan, journals it, and switches to `nibpCalibration`.
    /// When the switch fails the previous plan is restored (best effort) before rethrowing.
    /// - Returns: the plan that will be restored.
    /// - Throws: `BraceletError` (`.refused` when the switch fails), `StoreError`.
    @discardableResult
    public func enter() async throws -> BraceletPlan {
        let current = try await bracelet.currentPlan()
        var previous = current
        if let journal {
            let entry = PlanJournal.Entry(serial: serial, previousPlan: current, flow: flow, owner: owner, openedAt: clock.now())
            previous = try journal.open(entry).previousPlan
            startRenewing(journal)
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
        state.withLock { $0 = .restored(previous: previous) }
        renewal.withLock { $0?.cancel(); $0 = nil }
        do {
            try journal?.close(serial: serial)
        } catch let error as StoreError {
            // The plan is back; the entry stays for the next repair (which finds the plan left).
            remember(error)
            throw error
        }
    }

    /// Renews the lease every third of its length until `restore()` (real time: a lease is
    /// judged on the store's clock, not the run's virtual one).
    private func startRenewing(_ journal: PlanJournal) {
        let serial = serial, owner = owner
        let interval = UInt64(max(journal.leaseSeconds / 3, 0.05) * 1_000_000_000)
        let task = Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: interval)
                guard !Task.isCancelled else { return }
                do {
                    try journal.renew(serial: serial, owner: owner)
                } catch let error as StoreError {
                    self?.remember(error)
                    return
                } catch {
                    return
                }
            }
        }
        renewal.withLock { $0?.cancel(); $0 = task }
    }

    private func remember(_ error: StoreError) {
        firstStoreError.withLock { $0 = $0 ?? error }
    }

    deinit { renewal.withLock { $0?.cancel() } }

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
