import CSQLite

import Foundation

/// The SQLite state store (the embedded default): replay seen-set, plan journal, audit log,
/// last pushed profile.
///
/// One file shared safely by several `corsano` processes on one machine: WAL mode and a busy
/// timeout. Schema changes are forward migrations in `SQLiteSchema.migrations`, applied in order
/// at open. The connection is opened without SQLite's own mutex, so every use holds `lock`.
/// Source: docs/design.md "State store".
public final class SQLiteStore: StateStore, @unchecked Sendable {
    /// The file path, or `:memory:` for `--no-state`.
    public let path: String
    let db: OpaquePointer
    /// Serializes use of the connection (a lease renewal runs beside a flow's audit writes).
    let lock = NSRecursiveLock()

    public var location: String { path }
    /// Whether opening this store created it (a new, empty store: the caller says so once).
    public let created: Bool
    /// The file opened (device and inode), checked before every commit; nil in memory.
    private(set) var identity: StoreFileIdentity?
    /// `-vv`'s statement hook, alive as long as the connection (nil when not wanted).
    private var trace: SQLiteStatementTrace?

    /// Opens (creating when missing) the store at `path`, or an in-memory one when `path` is nil.
    /// A 0-byte file is refused, and a file deleted or replaced while open takes no commit
    /// (`checkIdentity`; issue 28).
    /// - Parameter busyTimeoutMilliseconds: how long a write waits for another process's lock.
    /// - Throws: `StoreError` naming the path when it cannot be opened, is locked too long, is
    ///   corrupt or is an empty file.
    /// - Parameter diagnostics: hears which store was opened (`.info`) and every statement with
    ///   its duration (`.debug`; docs/design.md "Diagnostics").
    public convenience init(path: String?, busyTimeoutMilliseconds: Int32 = 10_000, diagnostics: Diagnostics = .none) throws {
        let created = try path.map { try Self.prepareFile(at: $0, busyTimeoutMilliseconds: busyTimeoutMilliseconds) } ?? false
        try self.init(opening: path, create: path == nil, busyTimeoutMilliseconds: busyTimeoutMilliseconds, created: created,
                      diagnostics: diagnostics)
        if path == nil {
            diagnostics.info(.store, "state kept in memory for this run only (SQLite :memory:)")
        } else {
            diagnostics.info(.store, "opened SQLite store \(self.path) (\(created ? "created" : "existing"), "
                             + "schema version \(SQLiteSchema.migrations.count), WAL journal, synchronous FULL)")
        }
    }

    /// Opens the store at `path` as it is (`create`: making the file when missing).
    init(opening path: String?, create: Bool, busyTimeoutMilliseconds: Int32, created: Bool = false,
         diagnostics: Diagnostics = .none) throws {
        self.path = path ?? ":memory:"
        self.created = created
        var handle: OpaquePointer?
        // A new store is made 0600 before SQLite opens it; SQLite gives its -wal and -shm the
        // main file's mode, so the readings stay private whatever the umask. A new
        // store is built under a temporary name (`prepareFile`), so that is where this happens.
        // If it cannot be made, SQLite's own open fails the same way and says why.
        if create, let path, path != ":memory:", !path.isEmpty { try? PrivateFiles.createIfMissing(path) }
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(self.path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw StoreError.cannotOpen(path: self.path, message: message)
        }
        db = handle
        trace = SQLiteStatementTrace.install(on: db, diagnostics)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        do {
            try setUp(isFile: path != nil, retries: Int(busyTimeoutMilliseconds) / Self.setUpRetryMilliseconds)
            identity = path.flatMap(StoreFileIdentity.of(path:))
        } catch {
            sqlite3_close(db)
            throw error
        }
    }

    /// How a store this user cannot write is opened for reading (`init(readingOnly:mode:)`).
    public enum ReadOnlyMode: Sendable {
        /// `mode=ro`: the file cannot be written but its directory can (SQLite still shares the
        /// WAL index with writers, so their commits are seen).
        case readOnly
        /// `immutable=1`: the directory cannot be written either (a snapshot, a read-only mount):
        /// no lock or WAL index is used, so what a writer changes meanwhile is not seen.
        case immutable
    }

    /// Opens an existing store for reading only, in `mode`, writing nothing (no WAL switch, no
    /// migration): for `history` on a store the user may only read (an auditor, a backup, a
    /// snapshot; issue 26). Its schema must be this version's (an older one cannot be migrated
    /// without writing). - Throws: `StoreError` naming the path.
    public init(readingOnly path: String, mode: ReadOnlyMode, busyTimeoutMilliseconds: Int32 = 10_000,
                diagnostics: Diagnostics = .none) throws {
        self.path = path
        self.created = false
        // An immutable read ignores the WAL file: committed transactions still in it would be
        // missing without a word. Fail closed instead (nothing is lost silently).
        if mode == .immutable, let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int, size > 0 {
            throw StoreError.cannotOpen(path: path, message: "its directory cannot be written and \(path)-wal holds changes not yet in "
                                        + "the store, which an immutable read would miss: copy the store with its -wal file to a "
                                        + "writable directory, or read it as a user who may write there")
        }
        var handle: OpaquePointer?
        let uri = "file:" + Self.uriPath(path) + (mode == .immutable ? "?immutable=1" : "?mode=ro")
        let rc = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw StoreError.cannotOpen(path: path, message: message)
        }
        db = handle
        trace = SQLiteStatementTrace.install(on: db, diagnostics)
        sqlite3_busy_timeout(db, busyTimeoutMilliseconds)
        do {
            let version = Int(try prepare("PRAGMA user_version").rows().first?.first?.int ?? 0)
            if version > SQLiteSchema.migrations.count { throw StoreError.newerSchema(path: path, version: version) }
            if version < SQLiteSchema.migrations.count {
                throw StoreError.cannotOpen(path: path, message: "schema version \(version) is older than this corsano's "
                                            + "\(SQLiteSchema.migrations.count) and the store cannot be written to migrate it: "
                                            + "run any corsano command on it as a user who may write it")
            }
        } catch {
            sqlite3_close(db)
            throw error
        }
        let how = mode == .immutable ? "immutable=1: its directory cannot be written" : "mode=ro: the file cannot be written"
        diagnostics.info(.store, "opened SQLite store \(path) for reading only (\(how))")
    }

    /// `path` for a `file:` URI: `%`, `?` and `#` (and bytes outside printable ASCII) percent-encoded.
    static func uriPath(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte < 0x21 || byte > 0x7e {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                out.append(Character(UnicodeScalar(byte)))
            }
        }
        return out
    }

    static let setUpRetryMilliseconds = 20

    /// WAL mode, then migrations. Two processes opening a fresh file at once can get SQLITE_BUSY
    /// here without SQLite calling the busy handler (switching to WAL, reading the schema while
    /// the other initializes it), so BUSY is retried for the busy-timeout budget.
    private func setUp(isFile: Bool, retries: Int) throws {
        var attempt = 0
        while true {
            do {
                if isFile { try execute("PRAGMA journal_mode=WAL") }
                // FULL: a commit is on disk before it returns, so a power cut cannot roll back a
                // claim whose line went out (a reading handed on twice) or a journal entry whose
                // plan change reached the bracelet (a plan lost). WAL's NORMAL syncs only at
                // checkpoints (SQLite "PRAGMA synchronous"; issue 28).
                try execute("PRAGMA synchronous=FULL")
                try SQLiteSchema.migrate(self)
                return
            } catch StoreError.busy where attempt < retries {
                attempt += 1
                sqlite3_sleep(Int32(Self.setUpRetryMilliseconds))
            }
        }
    }

    deinit { sqlite3_close(db) }

    /// Runs one or more statements that return no rows. - Throws: `StoreError`.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw error(rc, text)
        }
    }

    /// Prepares a statement for repeated use. - Throws: `StoreError`.
    public func prepare(_ sql: String) throws -> StoreStatement {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw error(rc, String(cString: sqlite3_errmsg(db))) }
        return StoreStatement(store: self, handle: stmt)
    }

    /// Runs `body` holding the connection's lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws.
    /// - Throws: `StoreError` (busy past the timeout, I/O) or whatever `body` throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try checkIdentity()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(db)) }

    func error(_ rc: Int32, _ message: String) -> StoreError {
        switch rc & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy(path: path)
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt(path: path, message: message)
        default: return .failed(path: path, message: message)
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
