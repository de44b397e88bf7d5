#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The plan journal in the state store: which bracelets a run switched into the NIBP-calibration
/// plan, and the plan to give back. Written before the switch, cleared after the restore, so a
/// run killed with SIGKILL is repaired by the next command that reaches the bracelet.
///
/// One open entry per serial; opening keeps an older open entry (its previous plan is the true
/// one). Each entry names its owner (gateway, pid, process start time, boot id) and holds a lease
/// on the store's clock that the run renews: another gateway cannot see the owner's processes, so
/// it repairs an entry only once its lease ran out. Use it with no seen-set batch open on the same
/// store: entries are committed at once.
/// Source: docs/design.md "The bracelet port" (plan safety) and "State store".
public struct PlanJournal: Sendable {
    /// Seconds a lease lasts unless `--lease` says otherwise; the run renews it every third of that.
    public static let defaultLeaseSeconds: Double = 60

    /// Who switched a bracelet: the gateway (host name or `--gateway ID`), and on it the process
    /// (pid, start time in clock ticks after boot from /proc, boot id), so a reused pid is not
    /// taken for the owner.
    public struct Owner: Equatable, Sendable {
        /// The gateway PC; '' in entries recorded before gateways (read as this machine).
        public var gateway: String
        public var pid: Int32
        /// Field 22 of /proc/PID/stat; nil where /proc is not there.
        public var startTime: UInt64?
        /// /proc/sys/kernel/random/boot_id; nil where /proc is not there.
        public var bootID: String?

        /// Creates an owner.
        public init(gateway: String, pid: Int32, startTime: UInt64? = nil, bootID: String? = nil) {
            self.gateway = gateway
            self.pid = pid
            self.startTime = startTime
            self.bootID = bootID
        }

        /// This process on `gateway`.
        public static func current(gateway: String) -> Owner {
            let pid = PlanJournal.currentProcessID
            return Owner(gateway: gateway, pid: pid, startTime: ProcessIdentity.startTime(of: pid),
                         bootID: ProcessIdentity.bootID())
        }
    }

    /// Who a run is in the journal, and the lease its entries hold.
    public struct Ownership: Sendable {
        public var owner: Owner
        public var leaseSeconds: Double

        /// This process on `gateway` with a lease of `leaseSeconds`.
        public init(owner: Owner = .current(gateway: ""), leaseSeconds: Double = PlanJournal.defaultLeaseSeconds) {
            self.owner = owner
            self.leaseSeconds = leaseSeconds
        }
    }

    /// One open journal entry.
    public struct Entry: Equatable, Sendable {
        /// The bracelet's serial.
        public var serial: String
        /// The plan to restore.
        public var previousPlan: BraceletPlan
        /// The flow that switched (`bp-init`).
        public var flow: String
        /// The run that switched.
        public var owner: Owner
        /// When it switched, by that run's clock (UTC).
        public var openedAt: Instant
        /// Seconds the owner's lease had left on the store's clock when read (negative: ran out);
        /// nil for an entry not read from a store. Not part of the entry's identity.
        public var leaseRemaining: Double?
        /// When the owner's lease ends on the store's clock (UTC), as read; nil for an entry not
        /// read from a store. What a run refused by this entry is told to wait for (`retryAfter`).
        public var leaseEndsAt: Instant?

        /// A lease's end read as Unix seconds, rounded up to the whole second (a run told to
        /// retry then finds the lease over); nil for a value no instant holds.
        public static func leaseEnd(_ unixSeconds: Double) -> Instant? {
            guard unixSeconds.isFinite, abs(unixSeconds) < 1e15 else { return nil }
            return Instant(secondsSinceEpoch: Int64(unixSeconds.rounded(.up)))
        }

        /// The process that switched.
        public var pid: Int32 { owner.pid }

        /// Creates an entry.
        public init(serial: String, previousPlan: BraceletPlan, flow: String, owner: Owner, openedAt: Instant,
                    leaseRemaining: Double? = nil, leaseEndsAt: Instant? = nil) {
            self.serial = serial
            self.previousPlan = previousPlan
            self.flow = flow
            self.owner = owner
            self.openedAt = openedAt
            self.leaseRemaining = leaseRemaining
            self.leaseEndsAt = leaseEndsAt
        }

        /// Creates an entry owned by process `pid` on gateway `gateway`.
        public init(serial: String, previousPlan: BraceletPlan, flow: String, pid: Int32, gateway: String = "",
                    openedAt: Instant) {
            self.init(serial: serial, previousPlan: previousPlan, flow: flow, owner: Owner(gateway: gateway, pid: pid),
                      openedAt: openedAt)
        }

        public static func == (a: Entry, b: Entry) -> Bool {
            a.serial == b.serial && a.previousPlan == b.previousPlan && a.flow == b.flow && a.owner == b.owner
                && a.openedAt == b.openedAt
        }
    }

    /// The store holding the journal.
    public let store: any StateStore
    /// Lease length of entries this journal opens and renews, in seconds.
    public let leaseSeconds: Double

    /// A journal in `store` whose entries hold leases of `leaseSeconds`.
    public init(store: any StateStore, leaseSeconds: Double = PlanJournal.defaultLeaseSeconds) {
        self.store = store
        self.leaseSeconds = leaseSeconds
    }

    /// Records `entry` unless the bracelet already has an open one; returns the entry in effect.
    /// - Throws: `StoreError`.
    @discardableResult
    public func open(_ entry: Entry) throws -> Entry {
        try store.journalOpen(entry, leaseSeconds: leaseSeconds)
    }

    /// Claims bracelet `entry.serial` for `entry.owner` in one statement (the insert of the
    /// journal row, which the store keys by serial): the entry in effect is this one, or an
    /// older one whose run is gone (its previous plan is the true one, and it is kept).
    /// - Returns: the entry in effect.
    /// - Throws: `BraceletError.busy` (exit 75, retry after its lease) when a run that still lives
    ///   holds it, `.unavailable` (69) when its owner cannot be confirmed over — never adopted
    ///  ; `StoreError`.
    public func claim(_ entry: Entry, probe: OwnerProbe = .system) throws -> Entry {
        let inEffect = try open(entry)
        guard inEffect.owner != entry.owner else { return inEffect }
        switch Self.ownerState(inEffect, me: entry.owner, probe: probe) {
        case .gone: return inEffect
        case .running: throw Self.busy(inEffect, me: entry.owner)
        case .unconfirmed(let why): throw BraceletError.unavailable(Self.unconfirmedMessage(inEffect, me: entry.owner, why: why))
        }
    }

    /// The open entry of bracelet `serial`, if any. - Throws: `StoreError`.
    public func entry(serial: String) throws -> Entry? {
        try store.journalEntries(serial: serial).first
    }

    /// Every open entry, oldest serial first. - Throws: `StoreError`.
    public func openEntries() throws -> [Entry] { try store.journalEntries(serial: nil) }

    /// Renews `owner`'s lease on `serial`; false when the entry is gone. - Throws: `StoreError`.
    @discardableResult
    public func renew(serial: String, owner: Owner) throws -> Bool {
        try store.journalRenew(serial: serial, owner: owner, leaseSeconds: leaseSeconds)
    }

    /// Clears the entry of bracelet `serial` (after its plan was restored). - Throws: `StoreError`.
    public func close(serial: String) throws {
        try store.journalClose(serial: serial)
    }

    /// This process's id, for new entries.
    public static var currentProcessID: Int32 { getpid() }

    /// True when process `pid` still runs on this machine (signal 0 probes without signalling).
    public static func processIsAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        // A zombie (killed, not yet reaped by its parent) runs no more: its plan is to be restored.
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        return !ProcessIdentity.isZombie(pid)
    }
}
