import CSQLite

/// Batch inserts of packed keys, `chunkSize` rows per statement: one B-tree pass each without
/// a statement step per row. The chunk runs inside a savepoint; when it changed fewer rows than
/// it holds, some key was already held, so it is rolled back and the caller inserts those keys
/// one by one to learn which (the write lock is held throughout, so nothing changes meanwhile).
extension StoreSeenSet {
    static let chunkSize = 64

    /// The statements of the chunk path, prepared on first use.
    final class ChunkStatements {
        let insert: StoreStatement, savepoint: StoreStatement, release: StoreStatement, rollback: StoreStatement

        init(store: SQLiteStore, scope: Int64) throws {
            let rows = (0..<StoreSeenSet.chunkSize).map { "(?1, ?\($0 * 2 + 2), ?\($0 * 2 + 3))" }
            insert = try store.prepare("INSERT OR IGNORE INTO seen_reading (scope, seconds, packed) VALUES "
                                       + rows.joined(separator: ", "))
            savepoint = try store.prepare("SAVEPOINT seen_chunk")
            release = try store.prepare("RELEASE seen_chunk")
            rollback = try store.prepare("ROLLBACK TO seen_chunk")
            let rc = sqlite3_bind_int64(insert.handle, 1, scope)
            guard rc == SQLITE_OK else { throw store.error(rc, "bind failed") }
        }
    }

    /// Inserts a full chunk of keys: true when every key was new, false when the chunk was
    /// rolled back (some key already held), nil when a key has no packed form (not chunkable).
    /// - Throws: `StoreError`.
    func insertChunk(_ keys: ArraySlice<SeenKey>) throws -> Bool? {
        let statements = try chunkStatements()
        let h = statements.insert.handle
        sqlite3_reset(h)
        var parameter: Int32 = 2
        for key in keys {
            guard let word = key.packedWord else { return nil }
            var rc = sqlite3_bind_int64(h, parameter, key.measuredAt.secondsSinceEpoch)
            if rc == SQLITE_OK { rc = sqlite3_bind_int64(h, parameter + 1, Int64(bitPattern: word)) }
            guard rc == SQLITE_OK else { throw store.error(rc, "bind failed") }
            parameter += 2
        }
        try statements.savepoint.run()
        try statements.insert.step()
        sqlite3_reset(h)
        let allNew = store.changes == keys.count
        if !allNew { try statements.rollback.run() }
        try statements.release.run()
        return allNew
    }
}
