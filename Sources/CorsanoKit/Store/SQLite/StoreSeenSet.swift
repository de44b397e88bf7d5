import CSQLite

/// The replay seen-set in the state store, under a scope (`replay-filter --scope`).
///
/// Several processes may share one store. `insert` claims a key for the open batch (false only
/// for a key already claimed in it); `commitPending()` runs the batch's `INSERT OR IGNORE`s in one
/// write transaction, and a key is the caller's exactly when its insert changed a row, so two
/// writers never both own a record (the insert decides, no read-then-write). A caller writes a
/// batch's lines only after that commit (docs/design.md "State store"). The write lock is held only for
/// the inserts, not while input is parsed, so concurrent writers take turns instead of one
/// starving the other past the busy timeout.
public final class StoreSeenSet: SeenSet {
    /// The store holding the set.
    public let store: SQLiteStore
    /// The scope name; keys in other scopes are not seen.
    public let scope: String
    /// The scope a caller uses when it names none (`replay-filter --scope`).
    public static let defaultScope = "default"
    /// Insert and lookup for packed keys, then for wide ones.
    private let insertPacked: StoreStatement, containsPacked: StoreStatement
    private let insertWide: StoreStatement, containsWide: StoreStatement
    private var pending: [SeenKey] = []
    private let scopeID: Int64
    private var chunks: ChunkStatements?
    private var pendingKeys = SeenKeyTable(minimumCapacity: 1024)

    private static let wideColumns = "scope = ?1 AND seconds = ?2 AND nanos = ?3 AND systolic = ?4 AND diastolic = ?5 AND has_pulse = ?6 AND pulse = ?7"

    /// Opens the set for `scope` in `store`. - Throws: `StoreError`.
    public init(store: SQLiteStore, scope: String) throws {
        self.store = store
        self.scope = scope
        insertPacked = try store.prepare("INSERT OR IGNORE INTO seen_reading (scope, seconds, packed) VALUES (?1, ?2, ?3)")
        containsPacked = try store.prepare("SELECT 1 FROM seen_reading WHERE scope = ?1 AND seconds = ?2 AND packed = ?3")
        insertWide = try store.prepare(
            "INSERT OR IGNORE INTO seen_reading_wide (scope, seconds, nanos, systolic, diastolic, has_pulse, pulse) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")
        containsWide = try store.prepare("SELECT 1 FROM seen_reading_wide WHERE \(Self.wideColumns)")
        try store.prepare("INSERT OR IGNORE INTO seen_scope (name) VALUES (?1)").run([.text(scope)])
        guard let id = try store.prepare("SELECT id FROM seen_scope WHERE name = ?1").rows([.text(scope)]).first?.first?.int
        else { throw StoreError.failed(path: store.path, message: "seen-set scope \(scope) missing") }
        scopeID = id
        // Nothing is handed on from a store that fails its checks (docs/design.md "State store").
        try Self.verify(store, scope: id, name: scope)
        // Bindings survive sqlite3_reset: the scope is bound once.
        for statement in [insertPacked, containsPacked, insertWide, containsWide] {
            let rc = sqlite3_bind_int64(statement.handle, 1, id)
            guard rc == SQLITE_OK else { throw store.error(rc, "bind failed") }
        }
    }

    public func contains(_ key: SeenKey) throws -> Bool {
        if pendingKeys.contains(key) { return true }
        return try store.locked {
            let statement = try bind(key, packed: containsPacked, wide: containsWide)
            defer { sqlite3_reset(statement.handle) }
            return try statement.step()
        }
    }

    public func insert(_ key: SeenKey) -> Bool {
        guard pendingKeys.insert(key) else { return false }
        pending.append(key)
        return true
    }

    public func commitPending() throws -> Set<SeenKey> {
        guard !pending.isEmpty else { return [] }
        defer {
            pending.removeAll(keepingCapacity: true)
            pendingKeys.removeAll()
        }
        return try store.transaction {
            var lost: Set<SeenKey> = []
            var rest = pending[...]
            while !rest.isEmpty {
                if rest.count >= Self.chunkSize, let chunk = try insertChunk(rest.prefix(Self.chunkSize)) {
                    if !chunk { try insertEach(rest.prefix(Self.chunkSize), lost: &lost) }
                    rest = rest.dropFirst(Self.chunkSize)
                } else {
                    try insertEach(rest.prefix(1), lost: &lost)
                    rest = rest.dropFirst()
                }
            }
            try Self.updateDigest(store, scope: scopeID, pending.lazy.filter { !lost.contains($0) }, sign: 1)
            return lost
        }
    }

    public func release(_ keys: [SeenKey]) throws {
        guard !keys.isEmpty else { return }
        let packed = try store.prepare("DELETE FROM seen_reading WHERE scope = ?1 AND seconds = ?2 AND packed = ?3")
        let wide = try store.prepare("DELETE FROM seen_reading_wide WHERE \(Self.wideColumns)")
        for statement in [packed, wide] {
            let rc = sqlite3_bind_int64(statement.handle, 1, scopeID)
            guard rc == SQLITE_OK else { throw store.error(rc, "bind failed") }
        }
        try store.transaction {
            var deleted: [SeenKey] = []
            for key in keys {
                let statement = try bind(key, packed: packed, wide: wide)
                defer { sqlite3_reset(statement.handle) }
                try statement.step()
                if store.changes == 1 { deleted.append(key) }
            }
            try Self.updateDigest(store, scope: scopeID, deleted, sign: -1)
        }
    }

    func chunkStatements() throws -> ChunkStatements {
        if let chunks { return chunks }
        let made = try ChunkStatements(store: store, scope: scopeID)
        chunks = made
        return made
    }

    /// Inserts `keys` one statement each, collecting those already held.
    func insertEach(_ keys: ArraySlice<SeenKey>, lost: inout Set<SeenKey>) throws {
        for key in keys {
            let statement = try bind(key, packed: insertPacked, wide: insertWide)
            defer { sqlite3_reset(statement.handle) }
            try statement.step()
            if store.changes != 1 { lost.insert(key) }
        }
    }

    /// Binds `key` to the packed statement, or to the wide one when it has no packed form, and
    /// returns the statement bound (the per-reading hot path: no array of values).
    func bind(_ key: SeenKey, packed: StoreStatement, wide: StoreStatement) throws -> StoreStatement {
        let seconds = key.measuredAt.secondsSinceEpoch
        if let word = key.packedWord {
            let h = packed.handle
            sqlite3_reset(h)
            var rc = sqlite3_bind_int64(h, 2, seconds)
            if rc == SQLITE_OK { rc = sqlite3_bind_int64(h, 3, Int64(bitPattern: word)) }
            guard rc == SQLITE_OK else { throw store.error(rc, "bind failed") }
            return packed
        }
        let h = wide.handle
        sqlite3_reset(h)
        var rc = sqlite3_bind_int64(h, 2, seconds)
        if rc == SQLITE_OK { rc = sqlite3_bind_int64(h, 3, Int64(key.measuredAt.nanoseconds)) }
        if rc == SQLITE_OK { rc = sqlite3_bind_int64(h, 4, Int64(key.systolic)) }
        if rc == SQLITE_OK { rc = sqlite3_bind_int64(h, 5, Int64(key.diastolic)) }
        if rc == SQLITE_OK { rc = sqlite3_bind_int64(h, 6, key.pulse == nil ? 0 : 1) }
        if rc == SQLITE_OK { rc = sqlite3_bind_int64(h, 7, Int64(key.pulse ?? 0)) }
        guard rc == SQLITE_OK else { throw store.error(rc, "bind failed") }
        return wide
    }
}
