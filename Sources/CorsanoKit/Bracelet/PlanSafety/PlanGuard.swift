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
/// the flow and restores the previous plan when it ends"), docs/design.md "The bracelet port".
public final class PlanGuard: Sendable {
    let bracelet: any Bracelet
    let serial: String
    let journal: PlanJournal?
    let flow: String
    let clock: any FlowClock
    let owner: PlanJournal.Owner
    /// Hears each plan switch and restore with its reason (`.info`, docs/design.md "Diagnostics").
    let diagnostics: Diagnostics
    private let state = Mutex<State>(.idle)
    private let renewal = Mutex<Task<Void, Never>?>(nil)
    private let firstStoreError = Mutex<StoreError?>(nil)

    private let restoreError = Mutex<BraceletError?>(nil)

    enum State: Equatable {
        case idle
        /// Claimed for this run (journal entry written, nothing switched yet).
        case claimed(previous: BraceletPlan)
        case entered(previous: BraceletPlan)
        case restored(previous: BraceletPlan)
        /// The claim ended without a switch (journal entry cleared).
        case released
    }

    /// A guard for bracelet `serial` owned by `owner`; `journal` nil runs without one (no state store).
    public init(bracelet: any Bracelet, serial: String, journal: PlanJournal?, flow: String, clock: any FlowClock,
                owner: PlanJournal.Owner = .current(gateway: ""), diagnostics: Diagnostics = .none) {
        self.diagnostics = diagnostics
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

    /// Claims the bracelet for this run, before anything else touches it: reads the
    /// plan and its holder and writes the journal entry in one statement (a second run finds it
    /// and is refused). Idempotent. A bracelet already in `nibpCalibration` is refused unless an
    /// entry of a run that is gone records what it ran before: never is the calibration plan
    /// taken for the previous plan.
    /// - Returns: the plan that will be restored.
    /// - Throws: `BraceletError.held` (a bridge's live holder), `.unavailable` (another live
    ///   run's journal entry; a calibration plan nothing records; both exit 69), `StoreError`.
    @discardableResult
    public func claim() async throws -> BraceletPlan {
        switch state.withLock({ $0 }) {
        case .claimed(let p), .entered(let p), .restored(let p): return p
        case .idle, .released: break
        }
        let status = try await bracelet.planStatus()
        if status.plan == .nibpCalibration, let holder = status.holder { throw BraceletError.held(holder) }
        var previous = status.plan
        if let journal {
            let entry = PlanJournal.Entry(serial: serial, previousPlan: status.plan, flow: flow, owner: owner, openedAt: clock.now())
            let inEffect = try journal.claim(entry)
            if inEffect.owner == owner, status.plan == .nibpCalibration {
                try journal.close(serial: serial)
                throw BraceletError.unavailable(Self.unrecordedMessage(serial: serial))
            }
            previous = inEffect.previousPlan
            startRenewing(journal)
        } else if status.plan == .nibpCalibration {
            throw BraceletError.unavailable(Self.unrecordedMessage(serial: serial))
        }
        state.withLock { $0 = .claimed(previous: previous) }
        diagnostics.info(.plan, "claimed bracelet \(serial) for \(flow): plan \(previous) will be restored"
                         + (journal == nil ? " (no state store: not journaled)" : " (journaled)"))
        return previous
    }

    /// Why a bracelet found in the calibration plan is refused, and how to fix it.
    public static func unrecordedMessage(serial: String) -> String {
        "bracelet \(serial) is in \(BraceletPlan.nibpCalibration) and nothing records what it ran before "
            + "(a run killed without a state store, or a failed restore); restore it with 'corsano bracelet repair --plan PLAN'"
    }

    /// Claims the bracelet (`claim()`, when not yet), checks nobody changed its plan since, and
    /// switches to `nibpCalibration`. When the switch fails the previous plan is restored (best
    /// effort) before rethrowing; a switch refused because a live run holds the plan (`held`)
    /// changes nothing and restores nothing.
    /// - Returns: the plan that will be restored.
    /// - Throws: `BraceletError` (`.refused` when the switch fails, `.held`, `.unavailable` when
    ///   the plan changed since the claim), `StoreError`.
    @discardableResult
    public func enter() async throws -> BraceletPlan {
        let previous = try await claim()
        let status = try await bracelet.planStatus()
        if status.plan == .nibpCalibration, let holder = status.holder { throw BraceletError.held(holder) }
        if status.plan != previous, status.plan != .nibpCalibration {
            throw BraceletError.unavailable("bracelet \(serial): plan changed by another gateway or app since this run began "
                                            + "(now \(status.plan), was \(previous)); left alone")
        }
        state.withLock { $0 = .entered(previous: previous) }
        diagnostics.info(.plan, "switching bracelet \(serial) from plan \(previous) to \(BraceletPlan.nibpCalibration) "
                         + "for \(flow) (seeds bp-initialization: the calibration runs in that plan)")
        do {
            try await bracelet.setPlan(.nibpCalibration)
        } catch BraceletError.held(let holder) {
            state.withLock { $0 = .claimed(previous: previous) }
            throw BraceletError.held(holder)
        } catch {
            try? await restore()
            throw error
        }
        return previous
    }

    /// Switches back to the previous plan and clears the journal entry; a no-op before `enter()`
    /// and after a successful restore. On failure the entry stays open for the next repair and
    /// the failure is kept in `restoreFailure`.
    /// - Throws: `BraceletError`, `StoreError`.
    public func restore() async throws {
        guard case .entered(let previous) = state.withLock({ $0 }) else { return }
        let bracelet = self.bracelet
        // A fresh task: the caller may be cancelled (SIGINT), the restore must still happen. Its
        // bound is the request's own absolute timeout (`working` does not extend `setPlan`).
        do {
            try await Task { try await bracelet.setPlan(previous) }.value
        } catch let error as BraceletError {
            restoreError.withLock { $0 = error }
            throw error
        }
        restoreError.withLock { $0 = nil }
        state.withLock { $0 = .restored(previous: previous) }
        diagnostics.info(.plan, "restored plan \(previous) on bracelet \(serial) (\(flow) ended)")
        // The plan is back; a store error leaves the entry for the next repair (which finds the plan left).
        try closeEntry()
    }

    /// Ends a claim that never switched: clears the journal entry. A no-op once switched (the
    /// entry then stays until the restore) or when nothing was claimed.
    /// - Throws: `StoreError`.
    public func release() throws {
        let wasClaimed = state.withLock { s -> Bool in
            guard case .claimed = s else { return false }
            s = .released
            return true
        }
        guard wasClaimed else { return }
        try closeEntry()
    }

    /// Stops renewing the lease and clears the journal entry; a store error is remembered for
    /// `storeFailure` and rethrown.
    private func closeEntry() throws {
        renewal.withLock { $0?.cancel(); $0 = nil }
        do {
            try journal?.close(serial: serial)
        } catch let error as StoreError {
            remember(error)
            throw error
        }
    }

    /// Why the last restore failed (refused, timed out, the link died); nil when it did not.
    public var restoreFailure: BraceletError? { restoreError.withLock { $0 } }

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
        case .idle, .released, .claimed: return nil
        case .entered(let p), .restored(let p): return p
        }
    }

    /// True once the previous plan was given back.
    public var isRestored: Bool {
        if case .restored = state.withLock({ $0 }) { return true }
        return false
    }
}
