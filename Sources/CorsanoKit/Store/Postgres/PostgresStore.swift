import Foundation
import Synchronization

/// The state store on a PostgreSQL server, shared by several gateway PCs (docs/design.md "State store"):
/// one seen-set, one plan journal and one audit log for the lab, with `SQLiteStore`'s semantics.
///
/// Claims are committed before a line is written (`PostgresSeenSet`); leases are judged on the
/// server's `now()`. A connection is held only while a statement or transaction runs: between
/// them the process keeps at most one, closed after `idleCloseSeconds` idle, so a run that waits
/// on a cuff, a person or the bracelet holds none (and a lab's stations share a server's
/// `max_connections`, or a transaction-mode PgBouncer's pool). Every statement runs in a
/// transaction whose first round trip sets its time bounds locally (`PostgresWaitBounds.beginSQL`);
/// a server that is busy or restarting is retried with jittered back-off within
/// `storeWaitSeconds`, then `StoreError.busyServer` (75). A second connection serves the
/// seen-set's large batches. Source: issue 16, libpq "Connection Strings" and "Environment Variables".
public final class PostgresStore: StateStore, @unchecked Sendable {
    /// The connection while one is open (inside `run` it always is); nil once closed idle. Replaced
    /// (holding `lock`) when it was lost and a new one redoes or settles a transaction.
    private var current: PostgresConnection?
    let lock = NSRecursiveLock()
    /// The connection string, to open connections (never printed: it may hold a password).
    private let uri: String
    /// The time bounds every connection and transaction gets.
    let bounds: PostgresWaitBounds
    /// A second connection for the seen-set's large batches, opened on first use; nil when it
    /// could not be opened (the batch then goes on one connection).
    private var side: PostgresConnection??
    /// The cancel handles of every connection open, for `cancelRunningStatements` (another thread's).
    private let cancellers = Mutex<[PostgresCanceller]>([])
    /// Hears the store opened (`.info`), each retry (`.info`) and every statement on its connections (`.debug`).
    private let diagnostics: Diagnostics
    /// Nesting of `run` (0: no statement runs) and whether a transaction is open on `current`.
    private var depth = 0, inTransaction = false
    /// When `depth` last fell to 0; the idle closer closes the connections `idleCloseSeconds` later.
    private var idleSince: ContinuousClock.Instant?
    /// Whether the idle closer's thread runs.
    private var closerRunning = false
    /// `.normal` (`setDurability`): `synchronous_commit` off in each later transaction.
    private var durability = StoreDurability.full

    /// The server as messages name it, never with its password.
    public let location: String

    /// The open connection; only inside `run` (which opens one when none is).
    var connection: PostgresConnection { current! }

    /// Connects to `uri` (`postgresql://…`, `postgres://…`; PG* environment for the rest) and
    /// migrates the schema under an advisory lock.
    /// - Throws: `OptionalLibraryError` (exit 69) when libpq cannot be loaded, decided before
    ///   connecting; `StoreError` naming the server, never its password (exit 74; `busyServer`,
    ///   75, when the server stayed busy or restarting for `bounds.storeWaitSeconds`).
    /// - Parameter diagnostics: hears the server and schema opened (`.info`), each retry
    ///   (`.info`), and every statement with its duration, never a parameter or password (`.debug`;
    ///   docs/design.md "Diagnostics").
    public init(uri: String, bounds: PostgresWaitBounds = PostgresWaitBounds(), diagnostics: Diagnostics = .none) throws {
        try Self.requireLibpq(uri)
        self.uri = uri
        self.bounds = bounds
        self.diagnostics = diagnostics
        let first = try Self.connect(uri: uri, bounds: bounds, diagnostics: diagnostics,
                                     what: "connecting", deadline: Self.deadline(bounds))
        location = first.location
        adopt(first)
        try transaction("migrating the schema") { try PostgresSchema.migrate(connection) }
        sayOpened()
    }

    /// The `.info` line for the store opened: the server (never its password) and its transactions' bounds.
    private func sayOpened() {
        diagnostics.info(.store, "opened PostgreSQL store \(location) (schema version \(PostgresSchema.migrations.count), "
                         + "lock_timeout \(current?.settings.lockTimeout ?? "?"), statement_timeout \(current?.settings.statementTimeout ?? "?"), "
                         + "set in each transaction; store-wait \(WholeSeconds.truncating(bounds.storeWaitSeconds)) s)")
    }

    /// Connects to `uri` for reading: nil when the database holds no corsano schema (a read
    /// never creates one). - Throws: `OptionalLibraryError` (no libpq), `StoreError` naming the server.
    public static func openExisting(uri: String, bounds: PostgresWaitBounds = PostgresWaitBounds(),
                                    diagnostics: Diagnostics = .none) throws -> PostgresStore? {
        try requireLibpq(uri)
        let store = try PostgresStore(connecting: uri, bounds: bounds, diagnostics: diagnostics)
        guard try store.transaction("a state store statement", { try PostgresSchema.exists(store.connection) }) else { return nil }
        store.sayOpened()
        return store
    }

    /// libpq is opened here, before any connection (docs/design.md "Optional libraries"); the
    /// message names the store as other store errors do, without its password.
    private static func requireLibpq(_ uri: String) throws(OptionalLibraryError) {
        try OptionalLibrary.libpq.require(for: "state store \(PostgresURI.redacted(uri))")
    }

    private init(connecting uri: String, bounds: PostgresWaitBounds, diagnostics: Diagnostics) throws {
        self.uri = uri
        self.bounds = bounds
        self.diagnostics = diagnostics
        let first = try Self.connect(uri: uri, bounds: bounds, diagnostics: diagnostics,
                                     what: "connecting", deadline: Self.deadline(bounds))
        location = first.location
        adopt(first)
    }

    /// When a wait that starts now must end (`storeWaitSeconds` on the monotonic clock).
    private static func deadline(_ bounds: PostgresWaitBounds) -> ContinuousClock.Instant {
        .now + .milliseconds(Int64(max(0, bounds.storeWaitSeconds) * 1000))
    }

    /// A new connection, retried with jittered back-off (50 ms doubling to 2 s, each wait a
    /// random part of that) while the server is busy or restarting, until `deadline`; each retry
    /// said at `.info`. - Throws: `StoreError.busyServer` past the deadline; `StoreError.cannotOpen`
    /// for what waiting will not fix.
    private static func connect(uri: String, bounds: PostgresWaitBounds, diagnostics: Diagnostics, what: String,
                                deadline: ContinuousClock.Instant, applicationName: String = "corsano") throws -> PostgresConnection {
        var backoff = Backoff()
        while true {
            do {
                return try PostgresConnection(uri: uri, applicationName: applicationName, bounds: bounds, diagnostics: diagnostics)
            } catch StoreError.cannotOpen(let path, let message) where PostgresConnection.isTransientConnectFailure(message) {
                try backoff.wait(until: deadline, bounds: bounds, diagnostics: diagnostics,
                                 busy: StoreError.busyServer(path: path, message: "\(what): \(message)"),
                                 saying: "state store \(path): \(what): \(message)")
            }
        }
    }

    /// Jittered exponential back-off within a deadline (docs/design.md "State store").
    private struct Backoff {
        var step = 0.05
        var tries = 0

        /// Sleeps a random part of the next step, saying so at `.info`; throws `busy` when the
        /// deadline has passed (or would before the sleep ends).
        mutating func wait(until deadline: ContinuousClock.Instant, bounds: PostgresWaitBounds, diagnostics: Diagnostics,
                           busy: StoreError, saying: String) throws {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw busy }
            let leftSeconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            let sleep = min(Double.random(in: step / 2...step), leftSeconds)
            tries += 1
            diagnostics.info(.store, saying + String(format: "; retry %d in %.2f s (store-wait %d s)", tries, sleep,
                                                     WholeSeconds.truncating(bounds.storeWaitSeconds)))
            Thread.sleep(forTimeInterval: sleep)
            step = min(step * 2, 2)
        }
    }

    /// Makes `connection` the open one. Call holding `lock` (or in an initializer).
    private func adopt(_ connection: PostgresConnection) {
        let old = current
        current = connection
        cancellers.withLock { cancellers in
            if let old { cancellers.removeAll { $0 === old.canceller } }
            cancellers.append(connection.canceller)
        }
    }

    /// Closes every connection (`current`, `side`); the next `run` opens one. Call holding `lock`,
    /// with no statement running.
    private func closeConnections() {
        cancellers.withLock { $0.removeAll() }
        current = nil
        side = nil
    }

    /// Starts the thread that closes the connections once they were idle `idleCloseSeconds`
    /// (at most one such thread; it ends when nothing is open). Call holding `lock`.
    private func closeWhenIdle() {
        guard !closerRunning, bounds.idleCloseSeconds >= 0 else { return }
        closerRunning = true
        let idle = bounds.idleCloseSeconds
        let thread = Thread { [weak self] in
            while true {
                Thread.sleep(forTimeInterval: min(max(idle / 3, 0.05), 1))
                guard let self else { return }
                self.lock.lock()
                if self.depth == 0, let since = self.idleSince, since.duration(to: .now) >= .milliseconds(Int64(idle * 1000)) {
                    self.closeConnections()
                }
                let done = self.current == nil && self.side == nil
                if done { self.closerRunning = false }
                self.lock.unlock()
                if done { return }
            }
        }
        thread.start()
    }

    /// The second connection (opened once; nil when the server refuses another). Call holding `lock`.
    func sideConnection() throws -> PostgresConnection? {
        if let side { return side }
        let opened = try? PostgresConnection(uri: uri, applicationName: "corsano", bounds: bounds, diagnostics: diagnostics)
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

    /// Runs `body` holding the lock and a connection (opened, within `storeWaitSeconds`, when
    /// none is open), with libpq failures of the outermost `run` as `StoreError`; `what` names
    /// the work in a message about a time bound it ran into (`PostgresWaitBounds`).
    func run<T>(_ what: String = "a state store statement", _ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if current == nil {
            adopt(try Self.connect(uri: uri, bounds: bounds, diagnostics: diagnostics, what: what, deadline: Self.deadline(bounds)))
        }
        depth += 1
        defer {
            depth -= 1
            if depth == 0 {
                idleSince = .now
                closeWhenIdle()
            }
        }
        do {
            return try body()
        } catch let failure as PostgresFailure where depth == 1 {
            throw (current ?? connectionForMessages()).storeError(failure, what: what)
        }
    }

    /// A connection's message wording when none is open (never reached in practice: `run` opens one).
    private func connectionForMessages() -> PostgresConnection { current! }

    /// One statement's rows, in a transaction of its own (or the one open). - Throws: `StoreError`.
    func query(_ sql: String, _ parameters: [String?] = [], what: String = "a state store statement") throws -> PostgresResult {
        try transaction(what) { try connection.query(sql, parameters) }
    }

    /// Runs `body` inside `BEGIN … COMMIT` (joining the transaction already open, if one is),
    /// rolling back when it throws. A transaction whose COMMIT was not sent is redone from the
    /// start after a deadlock or serialization failure, or on a new connection after the
    /// connection was lost or the server ended it (a restart), with jittered back-off within
    /// `storeWaitSeconds` (then `StoreError.busyServer`, 75); each retry said at `.info`.
    ///
    /// A COMMIT whose answer never arrives (the connection lost after it was sent) leaves its
    /// outcome unknown: the server may have committed it or not. So the transaction learns its
    /// id and its backend at BEGIN (same round trip), and after such a loss a new connection asks
    /// the server (`settleLostCommit`): committed → `body`'s result stands (for a seen-set claim,
    /// its lines are this process's to write); aborted → `StoreError` saying nothing of it was
    /// kept; never a blind redo. Without this a claim committed just before the connection
    /// dropped held its records for good while their lines were never written.
    /// Source: PostgreSQL "Transaction ID and Snapshot Information Functions" (`txid_current`,
    /// `txid_status`).
    /// - Throws: `StoreError`; `body`'s errors.
    func transaction<T>(_ what: String = "a state store transaction", _ body: () throws -> T) throws -> T {
        try run(what) {
            if inTransaction { return try body() }
            let deadline = Self.deadline(bounds)
            var backoff = Backoff()
            while true {
                do {
                    return try transactionOnce(what, deadline: deadline, body)
                } catch let failure as PostgresFailure where failure.isRetryable || failure.needsNewConnection {
                    try backoff.wait(until: deadline, bounds: bounds, diagnostics: diagnostics,
                                     busy: StoreError.busyServer(path: location, message: "\(what): " + failure.message),
                                     saying: "state store \(location): \(what): " + failure.message
                                        + (failure.sqlState.map { " (SQLSTATE \($0))" } ?? ""))
                    if failure.needsNewConnection {
                        closeConnections()
                        adopt(try Self.connect(uri: uri, bounds: bounds, diagnostics: diagnostics, what: what, deadline: deadline))
                    }
                }
            }
        }
    }

    /// One try of `transaction`: rolled back when `body` or COMMIT fails, settled when COMMIT's
    /// answer is lost. Call holding `lock`. - Throws: `PostgresFailure` (COMMIT not sent),
    /// `StoreError`, `body`'s.
    private func transactionOnce<T>(_ what: String, deadline: ContinuousClock.Instant, _ body: () throws -> T) throws -> T {
        let begun = try connection.simpleQuery(bounds.beginSQL(asynchronousCommit: durability == .normal))
        connection.settings = PostgresWaitBounds.Session(lockTimeout: begun.text(0, 0) ?? "?", statementTimeout: begun.text(0, 1) ?? "?")
        let backend = begun.text(0, 2).flatMap { Int32($0) } ?? 0, xid = begun.text(0, 3) ?? ""
        inTransaction = true
        let outcome = Result { try body() }
        inTransaction = false
        guard case .success(let result) = outcome else {
            try? connection.execute("ROLLBACK")
            return try outcome.get()
        }
        do {
            try connection.execute("COMMIT")
        } catch let lost where lost.connectionLost {
            // Sent, perhaps committed, its answer lost: ask the server, never redo.
            guard try settleLostCommit(xid: xid, backend: backend, what: what, deadline: deadline, lost) else {
                // Settled, not guessed: the server shows it aborted (a restart ended it), so
                // nothing of it was kept and it is redone on the new connection like one whose
                // COMMIT was never sent (`transaction`).
                throw PostgresFailure(sqlState: nil, message: "connection lost at the commit of \(what); the server shows "
                                      + "transaction \(xid) aborted, so nothing of it was kept: " + lost.message, connectionLost: true)
            }
        } catch let failure {
            // The server answered: it refused the COMMIT (nothing kept), so the transaction may be redone.
            try? connection.execute("ROLLBACK")
            throw failure
        }
        return result
    }

    /// Most times `settleLostCommit` asks a transaction's status, `settlePollSeconds` apart on
    /// the server (`pg_sleep`): about 10 s, the lock bound's default.
    static let settlePolls = 200, settlePollSeconds = "0.05"

    /// After the connection was lost with a COMMIT sent: opens a new connection (it replaces the
    /// lost one; while the server restarts, reconnecting until `deadline`, the `--store-wait`
    /// bound) and asks `txid_status(xid)`. Committed → true; aborted, or too old for the
    /// server to tell → false (nothing kept). In progress → the lost connection's backend has not
    /// yet run or refused the COMMIT, and no one else can end its transaction: it is ended
    /// (`pg_terminate_backend`, allowed for one's own role's backends), and the status asked
    /// again until it is final, within `settlePolls`. Call holding `lock`.
    /// - Throws: `StoreError` when no new connection can be had or the status stays in progress:
    ///   whether the transaction took effect is then unknown (for a claim: at most one write's
    ///   lines, the bound corsano-replay-filter(1) states).
    private func settleLostCommit(xid: String, backend: Int32, what: String, deadline: ContinuousClock.Instant,
                                  _ lost: PostgresFailure) throws -> Bool {
        let unknown = "connection lost at the commit of \(what) (\(lost.message)), and whether transaction \(xid) took effect "
        closeConnections()
        var backoff = Backoff()
        while true {
            let fresh: PostgresConnection
            do {
                fresh = try Self.connect(uri: uri, bounds: bounds, diagnostics: diagnostics, what: "settling the commit of \(what)",
                                         deadline: deadline)
            } catch StoreError.cannotOpen(_, let why), StoreError.busyServer(_, let why) {
                throw StoreError.failed(path: location, message: unknown + "cannot be asked: " + why)
            }
            adopt(fresh)
            switch Result(catching: { () throws(PostgresFailure) in try Self.finalStatus(xid: xid, backend: backend, on: fresh) }) {
            case .success(let committed?): return committed
            case .success(nil): throw StoreError.failed(path: location, message: unknown + "is not known: the server still shows it in progress")
            case .failure(let failure) where failure.needsNewConnection:
                // The server went away again while asked (a restart): ask a new connection.
                closeConnections()
                try backoff.wait(until: deadline, bounds: bounds, diagnostics: diagnostics,
                                 busy: StoreError.failed(path: location, message: unknown + "cannot be asked: " + failure.message),
                                 saying: "state store \(location): settling the commit of \(what): " + failure.message)
            case .failure(let failure): throw StoreError.failed(path: location, message: unknown + "cannot be asked: " + failure.message)
            }
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
        self.durability = durability
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
                   extract(epoch FROM lease_until - now())::float8, extract(epoch FROM lease_until)::float8
            FROM plan_journal WHERE $1::text IS NULL OR serial = $1 ORDER BY serial
            """, [serial])
        return try (0..<rows.rowCount).map { r in
            // A row that cannot be read is corruption, never skipped.
            guard let serial = rows.text(r, 0), let plan = rows.text(r, 1), let flow = rows.text(r, 2),
                  let gateway = rows.text(r, 3), let pid = rows.int(r, 4),
                  let at = rows.text(r, 7).flatMap(RFC3339.parseInstant) else {
                throw StoreError.corrupt(path: location, message: "plan_journal row of serial \(rows.text(r, 0) ?? "?") is unreadable "
                                         + "(left as it is; fix or delete it, then run 'corsano bracelet repair')")
            }
            let owner = PlanJournal.Owner(gateway: gateway, pid: Int32(truncatingIfNeeded: pid),
                                          startTime: rows.int(r, 5).map { UInt64(bitPattern: $0) }, bootID: rows.text(r, 6))
            return PlanJournal.Entry(serial: serial, previousPlan: BraceletPlan(plan), flow: flow, owner: owner,
                                     openedAt: at, leaseRemaining: rows.double(r, 8),
                                     leaseEndsAt: rows.double(r, 9).flatMap(PlanJournal.Entry.leaseEnd))
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
        try transaction("reading the audit log") {
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

    // MARK: Audit chain

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

// MARK: Multi-set calibrations

extension PostgresStore {
    /// The server's `now()` (docs/design.md "Multi-set calibration": time decisions are the server's).
    public func clockNow() throws -> Instant? {
        let rows = try query("SELECT extract(epoch FROM now())::float8", what: "the server's clock")
        guard let seconds = rows.double(0, 0), seconds.isFinite else {
            throw StoreError.failed(path: location, message: "the server's clock (now()) gave no time")
        }
        let whole = seconds.rounded(.down)
        return Instant(secondsSinceEpoch: Int64(whole), nanoseconds: Int32(min(999_999_999, ((seconds - whole) * 1e9).rounded())))
    }

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
