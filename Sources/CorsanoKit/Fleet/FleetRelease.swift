extension PlanJournal {
    /// What releasing a gateway's journal entries did (`corsano fleet release`).
    public enum Release: Equatable, Sendable {
        /// The leases of `entries` (every open entry of the gateway) were ended; `expired` of them
        /// still ran. The rows stay: each keeps the plan to restore, and the next command that
        /// reaches its bracelet on another gateway repairs it.
        case released(entries: [Entry], expired: Int)
        /// Nothing was changed: the owners of `running` run on this machine (same boot, pid and
        /// start time), so the gateway is not dead.
        case ownersRun(running: [Entry])
    }

    /// Ends the leases of every open entry of `gateway` (never deleting one), so that its
    /// bracelets are repaired at once instead of after their leases run out: for a gateway PC
    /// that crashed or lost its network, whose processes this machine cannot see. Refused while
    /// one of those owners still runs on this machine, unless `force`.
    /// Source: docs/design.md "Fleet status" (release) and "Plan safety".
    /// - Parameter probe: this machine's processes (an owner whose boot id is not this boot's
    ///   cannot be seen from here: whether its machine is down is the person's to confirm).
    /// - Throws: `StoreError`.
    public func release(gateway: String, force: Bool, probe: OwnerProbe = .system) throws -> Release {
        let entries = try openEntries().filter { $0.owner.gateway == gateway }
        let running = entries.filter { entry in
            guard let boot = entry.owner.bootID, boot == probe.bootID() else { return false }
            return probe.liveness(of: entry.owner) == .running
        }
        if !running.isEmpty, !force { return .ownersRun(running: running) }
        return .released(entries: entries, expired: try store.journalExpire(gateway: gateway))
    }
}
