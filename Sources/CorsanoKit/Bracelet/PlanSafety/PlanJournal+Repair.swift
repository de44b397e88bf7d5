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
        /// A wearing optimization's entry: special mode 4 was stopped (stderr notice), the plan
        /// checked as for any entry, and the entry cleared.
        case stoppedSpecialMode(Entry)
        /// The entry belongs to a run that still lives (a process on this gateway — same pid,
        /// start time and boot — or a lease another gateway renews); left alone.
        case heldByLiveProcess(Entry)
        /// The entry's owner on this gateway can be confirmed neither running nor gone (`why`):
        /// left alone; `corsano bracelet repair` restores it.
        case ownerUnconfirmed(Entry, why: String)
    }

    /// Which owners a repair may override.
    public enum RepairPolicy: Sendable {
        /// Only entries whose run is gone (every command that reaches a bracelet).
        case ownerGone
        /// Also entries whose owner cannot be confirmed (`corsano bracelet repair`).
        case unlessRunning
        /// Every entry, even one whose run still lives (`corsano bracelet repair --force`).
        case always
    }

    /// Repairs an earlier run's open entry for this bracelet: run it first in every command that
    /// reaches a bracelet, before anything else touches the plan.
    ///
    /// When the bracelet is still in the NIBP-calibration plan, switches it back to the journaled
    /// previous plan, clears the entry, says so as a notice to `diagnostics`, and emits
    /// `planRestored` (`previousPlan`, `why: "journal"`) to `sink` with this run's `flow`, `run`
    /// and `clock`. An entry of a run that still lives is left alone (`isHeld`).
    /// - Parameter me: this run (its gateway decides whose processes this machine can see).
    /// - Returns: what was done.
    /// - Throws: `BraceletError` (the entry stays open), `StoreError`.
    @discardableResult
    public func repairOpenEntries(
        bracelet: any Bracelet, identity: BraceletIdentity, sink: any EventSink, flow: FlowName, run: String,
        clock: any FlowClock, diagnostics: Diagnostics = .none, me: Owner = .current(gateway: ""),
        probe: OwnerProbe = .system, policy: RepairPolicy = .ownerGone
    ) async throws -> Repair {
        guard let entry = try entry(serial: identity.serial) else { return .nothingOpen }
        if policy != .always {
            switch Self.ownerState(entry, me: me, probe: probe) {
            case .gone: break
            case .running: return .heldByLiveProcess(entry)
            case .unconfirmed(let why) where policy == .ownerGone:
                return .ownerUnconfirmed(entry, why: why)  // the caller says so (`unconfirmedMessage`)
            case .unconfirmed: break
            }
        }
        if entry.flow == Self.specialModeFlow {
            // A wearing optimization journals special mode 4 as bp-init journals the plan: a
            // killed one left it running.
            try await bracelet.stopSpecialMode()
            diagnostics.notice(.plan, "bracelet \(entry.serial) was left in special mode 4 by \(entry.flow) "
                   + "(\(Self.describe(entry.owner, me: me)), \(RFC3339.format(entry.openedAt))); stopped it")
        }
        let current = try await bracelet.currentPlan()
        guard current == .nibpCalibration else {
            try close(serial: entry.serial)
            return entry.flow == Self.specialModeFlow ? .stoppedSpecialMode(entry) : .alreadyLeft(entry, current: current)
        }
        try await bracelet.setPlan(entry.previousPlan)
        try close(serial: entry.serial)
        diagnostics.notice(.plan, "bracelet \(entry.serial) was left in plan \(BraceletPlan.nibpCalibration) by \(entry.flow) "
               + "(\(Self.describe(entry.owner, me: me)), \(RFC3339.format(entry.openedAt))); restored plan \(entry.previousPlan)")
        sink.emit(FlowEvent(flow: flow, run: run, at: clock.now(), .planRestored(previousPlan: entry.previousPlan, why: .journal)))
        return .restored(entry)
    }

    /// The flow whose journal entries mean "special mode 4 may run" (wearing optimization; seed
    /// wearing-optimization: `startSpecialModeCustom(value: 4)`).
    public static let specialModeFlow = FlowName.wearingOpt.rawValue

    /// Whether `entry`'s run still lives, as judged by `me`: on the same gateway (or an entry from
    /// before gateways) by its process — `me` itself never holds one against itself; on another
    /// gateway, whose processes this machine cannot see, by the lease on the store's clock.
    public static func isHeld(_ entry: Entry, me: Owner, isAlive: (Int32) -> Bool) -> Bool {
        if entry.owner.gateway.isEmpty || entry.owner.gateway == me.gateway {
            return entry.owner.pid != me.pid && isAlive(entry.owner.pid)
        }
        return (entry.leaseRemaining ?? 0) > 0
    }

    /// Whether `entry`'s run still lives, as judged by `me`: on the same gateway (or an entry from
    /// before gateways) by its process — pid, start time and boot id all compared, so a reused pid
    /// is not the owner; `me` itself never holds one against itself — on another gateway, whose
    /// processes this machine cannot see, by the lease on the store's clock.
    public static func ownerState(_ entry: Entry, me: Owner, probe: OwnerProbe) -> OwnerProbe.Liveness {
        if entry.owner.gateway.isEmpty || entry.owner.gateway == me.gateway {
            if entry.owner.pid == me.pid, entry.owner.startTime == nil || entry.owner.startTime == me.startTime { return .gone }
            return probe.liveness(of: entry.owner)
        }
        return (entry.leaseRemaining ?? 0) > 0 ? .running : .gone
    }

    /// Why an entry whose owner cannot be confirmed was left alone, and how to repair it.
    public static func unconfirmedMessage(_ entry: Entry, me: Owner, why: String) -> String {
        "bracelet \(entry.serial) was left in plan \(BraceletPlan.nibpCalibration) by \(entry.flow) "
            + "(\(describe(entry.owner, me: me)), \(RFC3339.format(entry.openedAt))), and that run cannot be confirmed over: "
            + "\(why); plan left alone (once it is over, `corsano bracelet repair` restores plan \(entry.previousPlan))"
    }

    /// `pid N` on this gateway, `gateway G pid N` on another.
    static func describe(_ owner: Owner, me: Owner) -> String {
        owner.gateway.isEmpty || owner.gateway == me.gateway ? "pid \(owner.pid)" : "gateway \(owner.gateway) pid \(owner.pid)"
    }

    /// The refusal of a run that finds `entry` held by a live run: 75, retry after its lease.
    public static func busy(_ entry: Entry, me: Owner) -> BraceletError {
        .busy(heldMessage(entry, me: me), retryAfter: entry.leaseEndsAt)
    }

    /// Why a held entry was left alone, for stderr: whose it is and how long its lease has left.
    public static func heldMessage(_ entry: Entry, me: Owner) -> String {
        var text = "bracelet \(entry.serial) is held by a live run of \(entry.flow) "
            + "(\(describe(entry.owner, me: me)), since \(RFC3339.format(entry.openedAt)))"
        if !(entry.owner.gateway.isEmpty || entry.owner.gateway == me.gateway), let left = entry.leaseRemaining {
            text += ", lease ends in \(Int(left.rounded(.up))) s"
        }
        return text + "; left alone"
    }
}
