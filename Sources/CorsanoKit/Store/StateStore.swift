/// The state store: replay seen-set, plan journal, audit log and last pushed profiles, one
/// implementation per engine (docs/design.md "State store"): `SQLiteStore` (the embedded default, one
/// machine) and `PostgresStore` (several gateway PCs sharing one server).
///
/// Both keep the same semantics: a seen key is claimed exactly once across processes (and
/// hosts), the journal's owner is the same tuple (gateway, pid, process start time, boot id)
/// with a lease judged on the store's own clock, and audit rows carry the gateway. The facades
/// `PlanJournal`, `AuditLog` and `ProfileStore` hold the rules; a store only keeps rows.
/// Methods may be called from several tasks (a lease renewal runs beside the flow's audit
/// writes); implementations serialize them.
public protocol StateStore: AnyObject, Sendable {
    /// Where the store is, for messages: a file path, `:memory:`, or a URI without its password.
    var location: String { get }

    // MARK: Seen-set

    /// The batching seen-set of `scope` (`replay-filter --scope`). - Throws: `StoreError`.
    func seenSet(scope: String) throws -> any SeenSet
    /// How durable this connection's later commits are when they return (`.full` unless set).
    /// - Throws: `StoreError`.
    func setDurability(_ durability: StoreDurability) throws
    /// Every scope holding keys, by name. - Throws: `StoreError`.
    func seenScopes() throws -> [String]
    /// Every key of `scope` (for `state migrate`). - Throws: `StoreError`.
    func seenKeys(scope: String) throws -> [SeenKey]

    // MARK: Plan journal

    /// Inserts `entry` with a lease of `leaseSeconds` from the store's now, unless the bracelet
    /// already has an open entry; returns the entry in effect. - Throws: `StoreError`.
    func journalOpen(_ entry: PlanJournal.Entry, leaseSeconds: Double) throws -> PlanJournal.Entry
    /// Open entries, of bracelet `serial` when given, by serial, each with the seconds its lease
    /// has left on the store's clock. - Throws: `StoreError`.
    func journalEntries(serial: String?) throws -> [PlanJournal.Entry]
    /// Moves the lease of `owner`'s entry on `serial` to `leaseSeconds` from the store's now;
    /// false when that entry is gone (repaired by another gateway). - Throws: `StoreError`.
    func journalRenew(serial: String, owner: PlanJournal.Owner, leaseSeconds: Double) throws -> Bool
    /// Deletes the entry of `serial`. - Throws: `StoreError`.
    func journalClose(serial: String) throws
    /// Ends the lease of every open entry of gateway `gateway` at the store's now, keeping the
    /// rows (their previous plans are what a repair restores), so that another gateway takes
    /// their owner for gone (`corsano fleet release`). Returns how many leases still ran.
    /// - Throws: `StoreError`.
    func journalExpire(gateway: String) throws -> Int

    // MARK: Audit log

    /// Inserts a run's row (no readings yet); an existing run id is kept. - Throws: `StoreError`.
    func auditBegin(_ run: AuditRun) throws
    /// Records (or replaces) one reading fed during `run`. - Throws: `StoreError`.
    func auditRecord(run: String, _ reading: AuditReading) throws
    /// Records how `run` ended. - Throws: `StoreError`.
    func auditFinish(run: String, endedAt: String, resultJSON: String) throws
    /// Runs matching `filter`, oldest first (by start, then insertion), each with its readings
    /// in order. - Throws: `StoreError`.
    func auditRuns(_ filter: AuditFilter) throws -> [AuditRun]
    /// Inserts a whole run with its readings unless its id is held (`state migrate`); true when
    /// inserted. - Throws: `StoreError`.
    func auditImport(_ run: AuditRun) throws -> Bool
    /// Runs `body` in one write transaction holding the audit chain's lock across processes and
    /// hosts (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: `pg_advisory_xact_lock`), rolling back when it
    /// throws. - Throws: `StoreError`, or what `body` throws.
    func auditChainTransaction<T>(_ body: () throws -> T) throws -> T
    /// The chain's last record; nil when the store has no chain yet. - Throws: `StoreError`.
    func auditChainHead() throws -> AuditChainRecord?
    /// Appends `record` (call inside `auditChainTransaction`). - Throws: `StoreError`.
    func auditChainInsert(_ record: AuditChainRecord) throws
    /// Every chain record, by seq. - Throws: `StoreError`.
    func auditChain() throws -> [AuditChainRecord]

    // MARK: Profiles

    /// Records `profile` as the last one on `serial` at `pushedAt` (RFC 3339), replacing an older
    /// one, or only when none is held (`onlyIfAbsent`, for `state migrate`); true when written.
    /// - Throws: `StoreError`.
    @discardableResult
    func profileSave(_ profile: UserProfile, serial: String, pushedAt: String, onlyIfAbsent: Bool) throws -> Bool
    /// The last profile of `serial`, nil when none. - Throws: `StoreError` (`.corrupt` when unreadable).
    func profileLoad(serial: String) throws -> UserProfile?
    /// Every stored profile with its serial and time (for `state migrate`). - Throws: `StoreError`.
    func profiles() throws -> [StoredProfile]

    // MARK: Multi-set calibrations

    /// The open multi-set calibration of bracelet `serial`, nil when none. - Throws: `StoreError`
    /// (`.corrupt` when its record cannot be read: never skipped, a calibration fails closed).
    func calibrationOpen(serial: String) throws -> MultiSetCalibration?
    /// Inserts `calibration` or replaces the stored one of its id; a second open calibration of
    /// the same bracelet is refused by the store. - Throws: `StoreError`.
    func calibrationSave(_ calibration: MultiSetCalibration) throws
    /// Every open calibration (`openOnly`) or every one, by serial then start. - Throws: `StoreError`.
    func calibrations(openOnly: Bool) throws -> [MultiSetCalibration]

    // MARK: Clock

    /// The store's own clock (PostgreSQL `now()`), which time decisions shared by gateways are made
    /// on (`StoreClock`); nil when the store's clock is this host's (SQLite). - Throws: `StoreError`.
    func clockNow() throws -> Instant?
}

extension StateStore {
    /// A store on this host has this host's clock (docs/design.md "Multi-set calibration").
    public func clockNow() throws -> Instant? { nil }
}

/// The stored form of a calibration: its record's JSON text, decoded in the core (the same bytes on
/// both engines), with corruption named by id.
enum CalibrationRecord {
    /// The record's text.
    static func text(_ calibration: MultiSetCalibration) -> String { calibration.json.serialized }

    /// The calibration in `body`. - Throws: `StoreError.corrupt` naming `id` and `location`.
    static func decode(_ body: String?, id: String?, location: String) throws -> MultiSetCalibration {
        guard let body, let value = try? JSONValue.parse(Array(body.utf8)), let calibration = MultiSetCalibration(json: value) else {
            throw StoreError.corrupt(path: location, message: "calibration record \(id ?? "?") is unreadable "
                                     + "(left as it is; fix or delete it, then run bp-init again)")
        }
        return calibration
    }
}

/// Which audit runs to read: started at or after `since` (on the run's clock), on bracelet
/// `serial`, recorded by `gateway`, the one with id `run`; nil matches all.
public struct AuditFilter: Equatable, Sendable {
    public var since: Instant?
    public var serial: String?
    public var gateway: String?
    public var run: String?

    /// Creates a filter; every criterion defaults to "any".
    public init(since: Instant? = nil, serial: String? = nil, gateway: String? = nil, run: String? = nil) {
        self.since = since
        self.serial = serial
        self.gateway = gateway
        self.run = run
    }
}

/// A stored profile with the bracelet it belongs to and when it was recorded (RFC 3339).
public struct StoredProfile: Equatable, Sendable {
    public var serial: String
    public var profile: UserProfile
    public var pushedAt: String
}

/// Why the state store failed; every case names the store's location (a path, or a server URI
/// without its password) (exit 74).
public enum StoreError: Error, Equatable, Sendable {
    case cannotOpen(path: String, message: String)
    case busy(path: String)
    case corrupt(path: String, message: String)
    case failed(path: String, message: String)
    /// The store was written by a newer corsano whose schema this one does not know.
    case newerSchema(path: String, version: Int)
    /// A PostgreSQL server stayed busy or restarting (too many connections, shutting down,
    /// starting up, refusing connections) for the whole `--store-wait`: exit 75, try again.
    case busyServer(path: String, message: String)
}

/// How durable a commit is when it returns (docs/design.md "State store").
public enum StoreDurability: String, CaseIterable, Sendable {
    /// On disk before the commit returns (SQLite `synchronous=FULL`; PostgreSQL
    /// `synchronous_commit` at least `on`): a crash, power loss included, never takes back a
    /// commit that returned, so a claim whose line went out stays (nothing handed on twice).
    case full
    /// SQLite `synchronous=NORMAL` (in WAL mode the log is synced only at checkpoints),
    /// PostgreSQL `synchronous_commit=off`: fewer syncs, but a power cut (or a server crash) may
    /// take back commits that returned: a claim lost while its line already went out, so a
    /// reading may be handed on twice (SQLite "PRAGMA synchronous"; PostgreSQL "Asynchronous Commit").
    case normal

    /// What a commit costs and risks, for help and `-v`.
    public var described: String {
        switch self {
        case .full: return "each commit on disk before its lines are written"
        case .normal: return "fewer syncs; a power cut may hand a reading on twice"
        }
    }
}
