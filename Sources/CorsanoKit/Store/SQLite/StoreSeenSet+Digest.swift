import CSQLite

/// A damaged store is refused, not believed (docs/design.md "State store"): a seen-set whose rows
/// were changed by anything but corsano (a flipped bit on disk, a torn page) would hand on
/// readings it has already seen. So every commit and release keeps, per scope and in the same
/// transaction, how many rows each seen table holds and the sum of a 32-bit checksum of each row
/// (`seen_digest`), and a seen-set is checked before its first record is handed on: the file's
/// structure (`PRAGMA quick_check`), then each row's checksum summed against the digest. Either
/// failing is 74 naming the store, the check and how to recover; nothing is handed on.
///
/// The row checksum mixes every 32-bit piece of the key's columns with an odd multiplier, so any
/// single flipped bit changes it; the SQL below and `rowSum` compute the same value.
extension StoreSeenSet {
    /// A packed row's checksum in SQL (columns `seconds`, `packed`).
    static let packedRowSum = """
        (((seconds & 4294967295) * 40503 + ((seconds >> 32) & 4294967295) * 65599
          + (packed & 4294967295) * 31 + ((packed >> 32) & 4294967295) * 7) & 4294967295)
        """
    /// A wide row's checksum in SQL.
    static let wideRowSum = """
        (((seconds & 4294967295) * 40503 + ((seconds >> 32) & 4294967295) * 65599 + (nanos & 4294967295) * 13
          + (systolic & 4294967295) * 17 + (diastolic & 4294967295) * 19 + has_pulse * 23 + (pulse & 4294967295) * 29) & 4294967295)
        """

    /// A packed row's checksum (`packedRowSum`'s value).
    @inline(__always) static func packedRowSum(seconds s: Int64, packed word: UInt64) -> Int64 {
        let u = UInt64(bitPattern: s)
        let total = (u & 0xFFFF_FFFF) &* 40503 &+ (u >> 32) &* 65599 &+ (word & 0xFFFF_FFFF) &* 31 &+ (word >> 32) &* 7
        return Int64(total & 0xFFFF_FFFF)
    }

    /// `key`'s row checksum (the SQL of its table), and whether it is a wide row.
    static func rowSum(_ key: SeenKey) -> (sum: Int64, wide: Bool) {
        func piece(_ v: Int64, _ shift: UInt64 = 0) -> UInt64 { (UInt64(bitPattern: v) >> shift) & 0xFFFF_FFFF }
        let s = key.measuredAt.secondsSinceEpoch
        if let word = key.packedWord { return (packedRowSum(seconds: s, packed: word), false) }
        var total = piece(s) &* 40503 &+ piece(s, 32) &* 65599
        total = total &+ piece(Int64(key.measuredAt.nanoseconds)) &* 13 &+ piece(Int64(key.systolic)) &* 17
            &+ piece(Int64(key.diastolic)) &* 19 &+ (key.pulse == nil ? 0 : 23) &+ piece(Int64(key.pulse ?? 0)) &* 29
        return (Int64(total & 0xFFFF_FFFF), true)
    }

    /// Adds (`sign` 1) or takes away (-1) `keys`' rows in the digest of scope `scope` (inside the
    /// transaction that inserted or deleted them). - Throws: `StoreError`.
    static func updateDigest(_ store: SQLiteStore, scope: Int64, _ keys: some Sequence<SeenKey>, sign: Int64) throws {
        var (packedRows, packedSum, wideRows, wideSum): (Int64, Int64, Int64, Int64) = (0, 0, 0, 0)
        for key in keys {
            let (sum, wide) = rowSum(key)
            if wide { wideRows += 1; wideSum += sum } else { packedRows += 1; packedSum += sum }
        }
        guard packedRows + wideRows > 0 else { return }
        _ = try store.prepare("""
            INSERT INTO seen_digest (scope, packed_rows, packed_sum, wide_rows, wide_sum) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (scope) DO UPDATE SET packed_rows = packed_rows + ?2, packed_sum = packed_sum + ?3,
                wide_rows = wide_rows + ?4, wide_sum = wide_sum + ?5
            """).run([.int(scope), .int(sign * packedRows), .int(sign * packedSum), .int(sign * wideRows), .int(sign * wideSum)])
    }

    /// The packed rows of `scope`: their count and checksum sum, summed here row by row (a third
    /// of the time SQLite takes to evaluate `packedRowSum` per row). - Throws: `StoreError`.
    static func packedDigest(_ store: SQLiteStore, scope: Int64) throws -> [StoreValue] {
        let statement = try store.prepare("SELECT seconds, packed FROM seen_reading WHERE scope = ?1")
        let h = statement.handle
        var rc = sqlite3_bind_int64(h, 1, scope)
        guard rc == SQLITE_OK else { throw store.error(rc, "bind failed") }
        var (rows, sum): (Int64, Int64) = (0, 0)
        while true {
            rc = sqlite3_step(h)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw store.error(rc, String(cString: sqlite3_errmsg(store.db))) }
            rows += 1
            sum &+= packedRowSum(seconds: sqlite3_column_int64(h, 0), packed: UInt64(bitPattern: sqlite3_column_int64(h, 1)))
        }
        sqlite3_reset(h)
        return [.int(rows), .int(sum)]
    }

    /// Checks the store's structure and scope `scope`'s rows against their digest, in one read
    /// transaction. - Throws: `StoreError.corrupt` naming the check and how to recover.
    static func verify(_ store: SQLiteStore, scope: Int64, name: String) throws {
        let recover = "the store is damaged and was not used (no record handed on); restore it from a backup, or move it "
            + "aside (with its -wal and -shm files) and start a new one: every reading it had seen may then be handed on again"
        try store.locked {
            try store.execute("BEGIN")
            defer { try? store.execute("COMMIT") }
            let problems: [String]
            do {
                problems = try store.prepare("PRAGMA quick_check(5)").rows().compactMap(\.first?.text).filter { $0 != "ok" }
            } catch StoreError.corrupt(_, let message) {
                problems = [message]
            }
            guard problems.isEmpty else {
                throw StoreError.corrupt(path: store.path, message: "PRAGMA quick_check failed (\(problems.joined(separator: "; "))): " + recover)
            }
            do {
                let packed = try packedDigest(store, scope: scope)
                let wide = try store.prepare("SELECT count(*), coalesce(sum(\(wideRowSum)), 0) FROM seen_reading_wide WHERE scope = ?1")
                    .rows([.int(scope)]).first ?? []
                let digest = try store.prepare("SELECT packed_rows, packed_sum, wide_rows, wide_sum FROM seen_digest WHERE scope = ?1")
                    .rows([.int(scope)]).first ?? [.int(0), .int(0), .int(0), .int(0)]
                let found = (packed + wide).map(\.int)
                guard found == digest.map(\.int) else {
                    throw StoreError.corrupt(path: store.path, message: "the seen-set of scope \(name) fails its row checksums "
                        + "(\(found[0].map(String.init) ?? "?") rows found, \(digest[0].int.map(String.init) ?? "?") recorded): " + recover)
                }
            } catch StoreError.corrupt(_, let message) where !message.hasSuffix(recover) {
                throw StoreError.corrupt(path: store.path, message: "the seen-set of scope \(name) cannot be read (\(message)): " + recover)
            }
        }
    }
}
