import Foundation
import Synchronization

/// The state store on a PostgreSQL server, shared by several gateway PCs (docs/design.md "State store"):
/// one seen-set, one plan journal and one audit log for the lab, with `SQLiteStore`'s semantics.
///
/// Claims are committed before a line is written (`PostgresSeenSet`); leases are judged on the
/// server's `now()`. One connection, its use serialized by a lock, and a second one for the
/// seen-set's large batches. Source: issue 16, libpq "Connection Strings" and "Environment Variables".
public final class PostgresStore: StateStore, @unchecked Sendable {
    /// The main connection; replaced (holding `lock`) when it was lost at a COMMIT and a new one
    /// asked what became of that transaction (`settleLostCommit`).
    private(set) var connection: PostgresConnection
    let lock = NSRecursiveLock()
    /// The connection string, to open a second connection (never printed: it may hold a password).
    private let uri: String
    /// A second connection for the seen-set's large batches, opened on first use; nil when it
    /// could not be opened (the batch then goes on one connection).
    private var side: PostgresConnection??
    /// The cancel handles of every connection opened, for `cancelRunningStatements` (another thread's).
    private let cancellers = Mutex<[PostgresCanceller]>([])
    /// Hears the store opened (`.info`) and every statement on its connections (`.debug`).
    private let diagnostics: Diagnostics
    /// What opens a transaction: BEGIN and the transaction's id, and for `StoreDurability.normal`
    /// asynchronous commit.
    private var begin = PostgresStore.beginFull
    private static let beginFull = "BEGIN; SELECT txid_current()"
    private static let beginNormal = "BEGIN; SET LOCAL synchronous_commit = off; SELECT txid_current()"

    public var location: String { connection.location }

    /// Connects to `uri` (`postgresql://…`, `postgres://…`; PG* environment for the rest) and
    /// migrates the schema under an advisory lock.
    /// - Throws: `OptionalLibraryError` (exit 69) when libpq cannot be loaded, decided before
    ///   connecting; `StoreError` naming the server, never its password (exit 74).
    /// - Parameter diagnostics: hears the server and schema opened (`.info`) and every statement
    ///   with its duration, never a parameter or password (`.debug`; docs/design.md "Diagnostics").
    public init(uri: String, diagnostics: Diagnostics = .none) throws {
        try Self.requireLibpq(uri)
        self.uri = uri
        self.diagnostics = diagnostics
        connection = try PostgresConnection(uri: uri, diagnostics: diagnostics)
        cancellers.withLock { $0 = [connection.canceller] }
        try run { try PostgresSchema.migrate(connection) }
        sayOpened()
    }

    /// The `.info` line for the store opened: the server (never its password) and its session bounds.
    private func sayOpened() {
        diagnostics.info(.store, "opened PostgreSQL store \(location) (schema version \(PostgresSchema.migrations.count), "
                         + "lock_timeout \(connection.settings.lockTimeout), statement_timeout \(connection.settings.statementTimeout))")
    }

    /// Connects to `uri` for reading: nil when the database holds no corsano schema (a read
    /// never creates one). - Throws: `OptionalLibraryError` (no libpq), `StoreError` naming the server.
    public static func openExisting(uri: String, diagnostics: Diagnostics = .none) throws -> PostgresStore? {
        try requireLibpq(uri)
        let connection = try PostgresConnection(uri: uri, diagnostics: diagnostics)
        let store = PostgresStore(connection: connection, uri: uri, diagnostics: diagnostics)
        guard try store.run("a state store statement", { try PostgresSchema.exists(connection) }) else { return nil }
        store.sayOpened()
        return store
    }

    /// libpq is opened here, before any connection (docs/design.md "Optional libraries"); the
    /// message names the store as other store errors do, without its password.
    private static func requireLibpq(_ uri: String) throws(OptionalLibraryError) {
        try OptionalLibrary.libpq.require(for: "state store \(PostgresURI.redacted(uri))")
    }

    private init(connection: PostgresConnection, uri: String, diagnostics: Diagnostics) {
        self.connection = connection
        self.uri = uri
        self.diagnostics = diagnostics
        cancellers.withLock { $0 = [connection.canceller] }
    }

    /// The second connection (opened once; nil when the server refuses another). Call holding `lock`.
    func sideConnection() throws -> PostgresConnection? {
        if let side { return side }
        let opened = try? PostgresConnection(uri: uri, applicationName: "corsano", diagnostics: diagnostics)
        side = .some(opened)
        if let opened { cancellers.withLock { $0.append(opened.canceller) } }
        return opened
    }

    /// Cancels the seen-set's claims and reads running on the store's connections (waiting on
    /// another writer's lock, a slow server), which then throw `StoreError`; safe from any thread
    /// (a signal's). No claim of a cancelled batch holds (`PostgresSeenSet`); no other statement
    /// (the release of claims) is hit (`PostgresCanceller`).
    public func cancelRunningStatements() {
        for canceller in cancellers.withLock({ $0 }) { canceller.cancel() }
    }

    /// Runs `body` holding the lock, with libpq failures as `StoreError`; `what` names the work
    /// in a message about a time bound it ran into (`PostgresWaitBounds`).
    func run<T>(_ what: String = "a state store statement", _ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try body()
        } catch let failure as PostgresFailure {
            throw connection.storeError(failure, what: what)
        }
    }

    /// One statement's rows. - Throws: `StoreError`.
    func query(_ sql: String, _ parameters: [String?] = [], what: String = "a state store statement") throws -> PostgresResult {
        try run(what) { try connection.query(sql, parameters) }
    }

    /// Runs `body` inside `BEGIN … COMMIT`, rolling back when it throws; a deadlock or
    /// serialization failure is redone from the start (a few times).
    ///
    /// A COMMIT whose answer never arrives (the connection lost after it was sent) leaves its
    /// outcome unknown: the server may have committed it or not. So the transaction learns its
    /// id and its backend at BEGIN (same round trip), and after such a loss a new connection asks
    /// the server (`settleLostCommit`): committed → `body`'s result stands (for a seen-set claim,
    /// its lines are this process's to write); aborted → `StoreError` saying nothing of it was
    /// kept. Without this a claim committed just before the connection dropped held its
    /// records for good while their lines were never written (issue 28). Source: PostgreSQL
    /// "Transaction ID and Snapshot Information Functions" (`txid_current`, `txid_status`).
    /// - Throws: `StoreError`; `body`'s errors.
    func transaction<T>(_ what: String = "a state store transaction", _ body: () throws -> T) throws -> T {
        try run(what) {
            var attempt = 0
            while true {
                do {
                    return try transactionOnce(what, body)
                } catch let failure as PostgresFailure where failure.isRetryable && attempt < 5 {
                    attempt += 1
                }
            }
        }
    }

    /// One try of `transaction`: rolled back when `body` or COMMIT fails, settled when COMMIT's
    /// answer is lost. Call holding `lock`. - Throws: `PostgresFailure`, `StoreError`, `body`'s.
    private func transactionOnce<T>(_ what: String, _ body: () throws -> T) throws -> T {
        let begun = try connection.simpleQuery(begin)
        let xid = begun.text(0, 0) ?? "", backend = connection.backendPID
        let result: T
        do {
            result = try body()
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        do {
            try connection.execute("COMMIT")
        } catch let lost as PostgresFailure where lost.connectionLost {
            // Sent, perhaps committed, its answer lost: ask the server.
            guard try settleLostCommit(xid: xid, backend: backend, what: what, lost) else {
                throw StoreError.failed(path: location, message: "connection lost at the commit of \(what); the server shows "
                                        + "transaction \(xid) aborted, so nothing of it was kept: " + lost.message)
            }
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
        return result
    }

    /// Most times `settleLostCommit` asks a transaction's status, `settlePollSeconds` apart on
    /// the server (`pg_sleep`): about 10 s, the lock bound's default.
    static let settlePolls = 200, settlePollSeconds = "0.05"

    /// After the connection was lost with a COMMIT sent: opens a new connection (it replaces the
    /// lost one) and asks `txid_status(xid)`. Committed → true; aborted, or too old for the
    /// server to tell → false (nothing kept). In progress → the lost connection's backend has not
    /// yet run or refused the COMMIT, and no one else can end its transaction: it is ended
    /// (`pg_terminate_backend`, allowed for one's own role's backends), and the status asked
    /// again until it is final, within `settlePolls`. Call holding `lock`.
    /// - Throws: `StoreError` when no new connection can be had or the status stays in progress:
    ///   whether the transaction took effect is then unknown (for a claim: at most one write's
    ///   lines, the bound corsano-replay-filter(1) states).
    private func settleLostCommit(xid: String, backend: Int32, what: String, _ lost: PostgresFailure) throws -> Bool {
        let unknown = "connection lost at the commit of \(what) (\(lost.message)), and whether transaction \(xid) took effect "
        let fresh: PostgresConnection
        do {
            fresh = try PostgresConnection(uri: uri, diagnostics: diagnostics)
        } catch StoreError.cannotOpen(_, let why) {
            throw StoreError.failed(path: location, message: unknown + "cannot be asked: " + why)
        }
        let old = connection
        connection = fresh
        cancellers.withLock { cancellers in
            cancellers.removeAll { $0 === old.canceller }
            cancellers.append(fresh.canceller)
        }
        let status = Result { () throws(PostgresFailure) in try Self.finalStatus(xid: xid, backend: backend, on: fresh) }
        switch status {
        case .success(let committed?): return committed
        case .success(nil): throw StoreError.failed(path: location, message: unknown + "is not known: the server still shows it in progress")
        case .failure(let failure): throw StoreError.failed(path: location, message: unknown + "cannot be asked: " + failure.message)
        }
    }

    /// `txid_status(xid)` once final: true committed, false aborted (or too old for the server
    /// to tell), nil still in progress after `settlePolls`; the first time it is in progress the
    /// backend `backend` holding it is ended. - Throws: `PostgresFailure`.
    private static func finalStatus(xid: String, backend: Int32, on connection: PostgresConnection) throws(PostgresFailure) -> Bool? {
        for poll in 0..<settlePolls {
            switch try connection.query("SELECT txid_status($1::bigint)", [xid]).text(0, 0) {
            case "committed": return true
            case "in progress":
                if poll == 0 { _ = try connection.query("SELECT pg_terminate_backend($1::int)", [String(backend)]) }
                _ = try connection.query("SELECT pg_sleep(\(settlePollSeconds))")
            default: return false  // aborted; NULL: older than the server keeps statuses for
            }
        }
        return nil
    }

    // MARK: Seen-set

    public func seenSet(scope: String) throws -> any SeenSet {
        try PostgresSeenSet(store: self, scope: scope)
    }

    /// `.normal` turns `synchronous_commit` off in each later transaction (`SET LOCAL`, so a
    /// connection made again to settle a lost commit keeps it).
    public func setDurability(_ durability: StoreDurability) throws {
        lock.lock()
        defer { lock.unlock() }
        begin = durability == .full ? Self.beginFull : Self.beginNormal
    }

    public func seenScopes() throws -> [String] {
        let rows = try query("""
            SELECT name FROM seen_scope s WHERE EXISTS (SELECT 1 FROM seen_reading WHERE scope = s.id)
                OR EXISTS (SELECT 1 FROM seen_reading_wide WHERE scope = s.id) ORDER BY name
            """)
        return (0..<rows.rowCount).compactMap { rows.text($0, 0) }
    }

    public func seenKeys(scope: String) throws -> [SeenKey] {
        let packed = try query("""
            SELECT seconds, packed FROM seen_reading WHERE scope = (SELECT id FROM seen_scope WHERE name = $1)
            ORDER BY seconds, packed
            """, [scope])
        var keys: [SeenKey] = []
        keys.reserveCapacity(packed.rowCount)
        for r in 0..<packed.rowCount {
            guard let seconds = packed.int(r, 0), let word = packed.int(r, 1),
                  let key = SeenKey(seconds: seconds, packedWord: UInt64(bitPattern: word)) else {
                throw StoreError.corrupt(path: location, message: "seen_reading row of scope \(scope) is unreadable")
            }
            keys.append(key)
        }
        let wide = try query("""
            SELECT seconds, nanos, systolic, diastolic, has_pulse, pulse FROM seen_reading_wide
            WHERE scope = (SELECT id FROM seen_scope WHERE name = $1) ORDER BY seconds, nanos
            """, [scope])
        for r in 0..<wide.rowCount {
            guard let s = wide.int(r, 0), let n = wide.int(r, 1).flatMap({ Int32(exactly: $0) }), (0..<1_000_000_000).contains(n),
                  let sys = wide.int(r, 2), let dia = wide.int(r, 3), let has = wide.bool(r, 4), let pulse = wide.int(r, 5) else {
                throw StoreError.corrupt(path: location, message: "seen_reading_wide row of scope \(scope) is unreadable")
            }
            keys.append(SeenKey(measuredAt: Instant(secondsSinceEpoch: s, nanoseconds: n), systolic: Int(sys),
                                diastolic: Int(dia), pulse: has ? Int(pulse) : nil))
        }
        return keys
    }

    // MARK: Plan journal

    public func journalOpen(_ entry: PlanJournal.Entry, leaseSeconds: Double) throws -> PlanJournal.Entry {
        try run("the plan journal's entry") {
            _ = try query("""
                INSERT INTO plan_journal (serial, previous_plan, flow, gateway, pid, start_time, boot_id, opened_at,
                                          lease_until)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9))
                ON CONFLICT (serial) DO NOTHING
                """, [entry.serial, entry.previousPlan.name, entry.flow, entry.owner.gateway, String(entry.owner.pid),
                      entry.owner.startTime.map { String(Int64(bitPattern: $0)) }, entry.owner.bootID,
                      RFC3339.format(entry.openedAt), String(leaseSeconds)])
            return try journalEntries(serial: entry.serial).first ?? entry
        }
    }

    public func journalEntries(serial: String?) throws -> [PlanJournal.Entry] {
        let rows = try query("""
            SELECT serial, previous_plan, flow, gateway, pid, start_time, boot_id, opened_at,
                   extract(epoch FROM lease_until - now())::float8
            FROM plan_journal WHERE $1::text IS NULL OR serial = $1 ORDER BY serial
            """, [serial])
        return try (0..<rows.rowCount).map { r in
            // A row that cannot be read is corruption, never skipped (issue 25).
            guard let serial = rows.text(r, 0), let plan = rows.text(r, 1), let flow = rows.text(r, 2),
                  let gateway = rows.text(r, 3), let pid = rows.int(r, 4),
                  let at = rows.text(r, 7).flatMap(RFC3339.parseInstant) else {
                throw StoreError.corrupt(path: location, message: "plan_journal row of serial \(rows.text(r, 0) ?? "?") is unreadable "
                                         + "(left as it is; fix or delete it, then run 'corsano bracelet repair')")
            }
            let owner = PlanJournal.Owner(gateway: gateway, pid: Int32(truncatingIfNeeded: pid),
                                          startTime: rows.int(r, 5).map { UInt64(bitPattern: $0) }, bootID: rows.text(r, 6))
            return PlanJournal.Entry(serial: serial, previousPlan: BraceletPlan(plan), flow: flow, owner: owner,
                                     openedAt: at, leaseRemaining: rows.double(r, 8))
        }
    }

    public func journalRenew(serial: String, owner: PlanJournal.Owner, leaseSeconds: Double) throws -> Bool {
        try query("""
            UPDATE plan_journal SET lease_until = now() + make_interval(secs => $4)
            WHERE serial = $1 AND gateway = $2 AND pid = $3
            """, [serial, owner.gateway, String(owner.pid), String(leaseSeconds)], what: "the plan journal's lease renewal").changes == 1
    }

    public func journalClose(serial: String) throws {
        _ = try query("DELETE FROM plan_journal WHERE serial = $1", [serial], what: "closing the plan journal's entry")
    }

    public func journalExpire(gateway: String) throws -> Int {
        try query("UPDATE plan_journal SET lease_until = now() WHERE gateway = $1 AND lease_until > now()", [gateway],
                  what: "ending the plan journal's leases").changes
    }

    // MARK: Audit log

    public func auditBegin(_ run: AuditRun) throws {
        _ = try insertRun(run)
    }

    func insertRun(_ run: AuditRun) throws -> Bool {
        try query("""
            INSERT INTO audit_run (run, flow, gateway, bracelet_serial, bracelet_model, bracelet_firmware,
                                   started_seconds, started_at, ended_at, config, result)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (run) DO NOTHING
            """, [run.run, run.flow, run.gateway ?? "", run.bracelet.serial, run.bracelet.model, run.bracelet.firmware,
                  String(run.startedSeconds), run.startedAt, run.endedAt, run.configJSON, run.resultJSON]).changes == 1
    }

    public func auditRecord(run: String, _ reading: AuditReading) throws {
        _ = try query("""
            INSERT INTO audit_reading (run, attempt, idx, accepted, manual, reading, map_reported, record)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            ON CONFLICT (run, attempt, idx) DO UPDATE SET accepted = excluded.accepted, manual = excluded.manual,
                reading = excluded.reading, map_reported = excluded.map_reported, record = excluded.record
            """, [run, String(reading.attempt), String(reading.index), reading.accepted ? "t" : "f",
                  reading.manual ? "t" : "f", reading.readingJSON, reading.mapReported.map { $0 ? "t" : "f" }, reading.recordJSON])
    }

    public func auditFinish(run: String, endedAt: String, resultJSON: String) throws {
        _ = try query("UPDATE audit_run SET ended_at = $1, result = $2 WHERE run = $3", [endedAt, resultJSON, run])
    }

    public func auditRuns(_ filter: AuditFilter) throws -> [AuditRun] {
        try run {
            let rows = try query("""
                SELECT run, flow, gateway, bracelet_serial, bracelet_model, bracelet_firmware, started_at, ended_at,
                       config, result
                FROM audit_run WHERE ($1::bigint IS NULL OR started_seconds >= $1) AND ($2::text IS NULL OR bracelet_serial = $2)
                                 AND ($3::text IS NULL OR gateway = $3) AND ($4::text IS NULL OR run = $4)
                ORDER BY started_seconds, seq
                """, [filter.since.map { String($0.secondsSinceEpoch) }, filter.serial, filter.gateway, filter.run])
            return try (0..<rows.rowCount).map { r in
                let run = rows.text(r, 0) ?? ""
                let fed = try query("""
                    SELECT attempt, idx, accepted, manual, reading, map_reported, record FROM audit_reading WHERE run = $1
                    ORDER BY attempt, idx
                    """, [run])
                let readings = (0..<fed.rowCount).map { i in
                    AuditReading(attempt: Int(fed.int(i, 0) ?? 0), index: Int(fed.int(i, 1) ?? 0), accepted: fed.bool(i, 2) == true,
                                 manual: fed.bool(i, 3) == true, readingJSON: fed.text(i, 4) ?? "{}", mapReported: fed.bool(i, 5),
                                 recordJSON: fed.text(i, 6))
                }
                return AuditRun(run: run, flow: rows.text(r, 1) ?? "",
                                bracelet: BraceletIdentity(model: rows.text(r, 4) ?? "", firmware: rows.text(r, 5) ?? "",
                                                           serial: rows.text(r, 3) ?? ""),
                                startedAt: rows.text(r, 6) ?? "", endedAt: rows.text(r, 7), configJSON: rows.text(r, 8) ?? "{}",
                                resultJSON: rows.text(r, 9), readings: readings,
                                gateway: rows.text(r, 2).flatMap { $0.isEmpty ? nil : $0 })
            }
        }
    }

    public func auditImport(_ run: AuditRun) throws -> Bool {
        try transaction { try insertRunWithReadings(run) }
    }

    // MARK: Audit chain (issue 35)

    public func auditChainTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction {
            // Held to the transaction's end: appends from every gateway take their turn.
            _ = try connection.query("SELECT pg_advisory_xact_lock($1)", [String(PostgresSchema.auditChainLockKey)])
            return try body()
        }
    }

    public func auditChainHead() throws -> AuditChainRecord? {
        try chainRecords("ORDER BY seq DESC LIMIT 1").first
    }

    public func auditChainInsert(_ record: AuditChainRecord) throws {
        _ = try query("INSERT INTO audit_chain (seq, kind, run, body, prev, hash, mac, key_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                      [String(record.seq), record.kind, record.run, record.body, record.prev, record.hash, record.mac, record.keyID])
    }

    public func auditChain() throws -> [AuditChainRecord] { try chainRecords("ORDER BY seq") }

    private func chainRecords(_ clause: String) throws -> [AuditChainRecord] {
        let rows = try query("SELECT seq, kind, run, body, prev, hash, mac, key_id FROM audit_chain " + clause)
        return (0..<rows.rowCount).map { r in
            AuditChainRecord(seq: rows.int(r, 0) ?? 0, kind: rows.text(r, 1) ?? "", run: rows.text(r, 2) ?? "", body: rows.text(r, 3) ?? "",
                             prev: rows.text(r, 4) ?? "", hash: rows.text(r, 5) ?? "", mac: rows.text(r, 6), keyID: rows.text(r, 7))
        }
    }

    // MARK: Profiles

    @discardableResult
    public func profileSave(_ profile: UserProfile, serial: String, pushedAt: String, onlyIfAbsent: Bool) throws -> Bool {
        let conflict = ProfileStore.conflictClause(onlyIfAbsent: onlyIfAbsent)
        return try query("""
            INSERT INTO pushed_profile (serial, height, weight, wrist, gender, unit, birthdate, skin_tone, hair_density,
                                        pushed_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (serial) \(conflict)
            """, [serial, String(profile.heightCm), String(profile.weightKg), profile.wrist.rawValue, profile.gender.rawValue,
                  profile.unit.rawValue, profile.birthdate, String(profile.skinTone), profile.hairDensity.rawValue,
                  pushedAt]).changes == 1
    }

    public func profileLoad(serial: String) throws -> UserProfile? {
        try profileRows(serial: serial).first?.profile
    }

    public func profiles() throws -> [StoredProfile] { try profileRows(serial: nil) }

    private func profileRows(serial: String?) throws -> [StoredProfile] {
        let rows = try query("""
            SELECT serial, height, weight, wrist, gender, unit, birthdate, skin_tone, hair_density, pushed_at
            FROM pushed_profile WHERE $1::text IS NULL OR serial = $1 ORDER BY serial
            """, [serial])
        return try (0..<rows.rowCount).map { r in
            guard let serial = rows.text(r, 0), let pushedAt = rows.text(r, 9),
                  let profile = UserProfile.fromColumns(
                    height: rows.int(r, 1), weight: rows.int(r, 2), wrist: rows.text(r, 3), gender: rows.text(r, 4),
                    unit: rows.text(r, 5), birthdate: rows.text(r, 6), skinTone: rows.int(r, 7), hairDensity: rows.text(r, 8))
            else {
                throw StoreError.corrupt(path: location, message: "pushed_profile row for \(rows.text(r, 0) ?? "?") is unreadable")
            }
            return StoredProfile(serial: serial, profile: profile, pushedAt: pushedAt)
        }
    }
}

// MARK: Multi-set calibrations (issue 32)

extension PostgresStore {
    public func calibrationOpen(serial: String) throws -> MultiSetCalibration? {
        try calibrationRows(where: "serial = $1 AND status = 'open'", [serial]).first
    }

    public func calibrationSave(_ calibration: MultiSetCalibration) throws {
        _ = try query("""
            INSERT INTO calibration (id, serial, status, body) VALUES ($1, $2, $3, $4)
            ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body
            """, [calibration.id, calibration.serial, calibration.status.rawValue, CalibrationRecord.text(calibration)])
    }

    public func calibrations(openOnly: Bool) throws -> [MultiSetCalibration] {
        try calibrationRows(where: openOnly ? "status = 'open'" : "true", [])
    }

    private func calibrationRows(where condition: String, _ parameters: [String?]) throws -> [MultiSetCalibration] {
        let rows = try query("SELECT id, body FROM calibration WHERE \(condition) ORDER BY serial, seq", parameters)
        return try (0..<rows.rowCount).map { r in
            try CalibrationRecord.decode(rows.text(r, 1), id: rows.text(r, 0), location: location)
        }
    }
}
