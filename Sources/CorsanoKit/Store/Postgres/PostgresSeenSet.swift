/// The replay seen-set on a PostgreSQL server, under a scope: `StoreSeenSet`'s contract across
/// hosts.
///
/// `insert` claims a key for the open batch; `commitPending()` sends the batch as two bigint
/// arrays (binary) in one `INSERT … SELECT … ON CONFLICT DO NOTHING RETURNING` (one round trip,
/// its own transaction), and a key is the caller's exactly when its row came back inserted — two
/// gateways never both own a record. Keys go in sorted order, so two batches that overlap wait on
/// each other rather than deadlock; a deadlock or serialization failure the server reports anyway
/// is redone.
///
/// A large batch (a regular file's) is split in two by a fixed function of the key and the halves
/// are claimed at once on two connections, so the server works on both cores: the halves share no
/// key, and every writer splits the same way, so they cannot wait on each other in a cycle.
///
/// A large batch is first sent as a plain `INSERT` (`claimNew`): the unique index still decides
/// every key, but the server skips `ON CONFLICT`'s speculative insertion and the `EXCEPT ALL`,
/// which is half its work when no key is held (measured: 0.63 s against 1.54 s for 450,000 keys).
/// If any key is held the statement fails whole (23505, nothing claimed) and the batch is redone
/// with `claimPacked`; after that, this set sends `claimPacked` first, since a run that met one
/// replayed record is likely to meet more (the server logs that one refused insert as an error).
///
/// Keys this process won stay in `won` (up to `wonLimit`), so a record repeated later in the same
/// run is a duplicate at once, without a round trip, and a later batch holds only keys this run
/// has not met, which is what lets the plain insert succeed. Only keys won here are cached: a key
/// another writer holds may be given back by it (a failed write), so the server is asked again.
final class PostgresSeenSet: SeenSet {
    let store: PostgresStore
    let scope: String
    private let scopeID: String
    private var pending: [SeenKey] = []
    private var pendingKeys = SeenKeyTable(minimumCapacity: 1024)
    /// Set once a plain insert met a held key: later batches go straight to `claimPacked`.
    private var conflictSeen = false
    /// Keys committed as this process's claims and not given back since.
    private var won = SeenKeyTable(minimumCapacity: 1024)
    /// Most keys `won` holds; when a commit would pass it, the cache starts over (about 32 MiB).
    static let wonLimit = 1 << 20

    /// Packed keys of one batch (`$1` scope, `$2` seconds, `$3` words), all expected new: fails
    /// whole with 23505 when one is held. `commitPending` counts on every row being inserted.
    private static let claimNew = """
        INSERT INTO seen_reading (scope, seconds, packed) SELECT $1, s, k FROM unnest($2::bigint[], $3::bigint[]) AS t(s, k)
        """

    /// Packed keys of one batch: rows the insert did not return are lost claims.
    private static let claimPacked = """
        WITH batch AS (SELECT s, k FROM unnest($2::bigint[], $3::bigint[]) AS t(s, k) ORDER BY s, k),
        won AS (INSERT INTO seen_reading (scope, seconds, packed) SELECT $1, s, k FROM batch
                ON CONFLICT DO NOTHING RETURNING seconds, packed)
        SELECT s, k FROM batch EXCEPT ALL SELECT seconds, packed FROM won
        """
    /// Wide keys (values without a packed form), the same way.
    private static let claimWide = """
        WITH batch AS (SELECT * FROM unnest($2::bigint[], $3::int[], $4::bigint[], $5::bigint[], $6::boolean[], $7::bigint[])
                       AS t(s, n, sys, dia, hp, p) ORDER BY s, n, sys, dia, hp, p),
        won AS (INSERT INTO seen_reading_wide (scope, seconds, nanos, systolic, diastolic, has_pulse, pulse)
                SELECT $1, s, n, sys, dia, hp, p FROM batch ON CONFLICT DO NOTHING
                RETURNING seconds, nanos, systolic, diastolic, has_pulse, pulse)
        SELECT * FROM batch EXCEPT ALL SELECT * FROM won
        """

    /// Opens the set for `scope`. - Throws: `StoreError`.
    init(store: PostgresStore, scope: String) throws {
        self.store = store
        self.scope = scope
        _ = try store.query("INSERT INTO seen_scope (name) VALUES ($1) ON CONFLICT (name) DO NOTHING", [scope])
        guard let id = try store.query("SELECT id FROM seen_scope WHERE name = $1", [scope]).text(0, 0) else {
            throw StoreError.failed(path: store.location, message: "seen-set scope \(scope) missing")
        }
        scopeID = id
    }

    func contains(_ key: SeenKey) throws -> Bool {
        if pendingKeys.contains(key) || won.contains(key) { return true }
        let seconds = String(key.measuredAt.secondsSinceEpoch)
        if let word = key.packedWord {
            return try store.query("SELECT 1 FROM seen_reading WHERE scope = $1 AND seconds = $2 AND packed = $3",
                                   [scopeID, seconds, String(Int64(bitPattern: word))]).rowCount > 0
        }
        return try store.query("""
            SELECT 1 FROM seen_reading_wide WHERE scope = $1 AND seconds = $2 AND nanos = $3 AND systolic = $4
                AND diastolic = $5 AND has_pulse = $6 AND pulse = $7
            """, [scopeID, seconds] + Self.wideFields(key)).rowCount > 0
    }

    func insert(_ key: SeenKey) -> Bool {
        guard !won.contains(key), pendingKeys.insert(key) else { return false }
        pending.append(key)
        return true
    }

    func commitPending() throws -> Set<SeenKey> {
        guard !pending.isEmpty else { return [] }
        defer {
            pending.removeAll(keepingCapacity: true)
            pendingKeys.removeAll()
        }
        let lost = try claimPending()
        if won.count + pending.count > Self.wonLimit { won.removeAll() }
        for key in pending where lost.isEmpty || !lost.contains(key) { _ = won.insert(key) }
        return lost
    }

    /// Claims `pending` on the server; returns the keys another writer held. - Throws: `StoreError`.
    private func claimPending() throws -> Set<SeenKey> {
        var packed: [PackedKey] = []
        packed.reserveCapacity(pending.count)
        var wide: [SeenKey] = []
        for key in pending {
            if let word = key.packedWord {
                packed.append(PackedKey(seconds: key.measuredAt.secondsSinceEpoch, word: Int64(bitPattern: word)))
            } else {
                wide.append(key)
            }
        }
        // The index's order: writers then take key locks in one order and do not deadlock.
        packed.sort()
        let connection = store.connection
        if wide.isEmpty {
            return try store.run {
                if packed.count >= Self.splitThreshold, let side = try store.sideConnection() {
                    return try claimSplit(packed, on: [connection, side])
                }
                return try claim(packed, on: connection)
            }
        }
        let packedParameters = parameters(packed)
        var columns = Array(repeating: ArrayLiteral(), count: 6)
        for key in wide {
            columns[0].append(key.measuredAt.secondsSinceEpoch)
            for (i, field) in Self.wideFields(key).enumerated() { columns[i + 1].appendRaw(field) }
        }
        let wideParameters: [String?] = [scopeID] + columns.map(\.text)
        return try store.transaction {
            var lost: Set<SeenKey> = []
            if !packed.isEmpty { lost = try Self.lostPacked(connection.query(Self.claimPacked, parameters: packedParameters)) }
            let rows = try connection.query(Self.claimWide, wideParameters)
            for r in 0..<rows.rowCount {
                guard let s = rows.int(r, 0), let n = rows.int(r, 1).flatMap({ Int32(exactly: $0) }), let sys = rows.int(r, 2),
                      let dia = rows.int(r, 3), let has = rows.bool(r, 4), let p = rows.int(r, 5) else { continue }
                lost.insert(SeenKey(measuredAt: Instant(secondsSinceEpoch: s, nanoseconds: n), systolic: Int(sys),
                                    diastolic: Int(dia), pulse: has ? Int(p) : nil))
            }
            return lost
        }
    }

    /// Keys in a batch from which it is claimed on two connections (a live pipe's small batches
    /// stay on one).
    static let splitThreshold = 4096

    /// Whether a batch of `count` packed keys is first sent as a plain insert (`claimNew`).
    private func expectsNew(_ count: Int) -> Bool { count >= Self.splitThreshold && !conflictSeen }

    /// Claims packed `keys` (sorted) on `connection`: as `claimNew` when `expectsNew`, else (or
    /// when a key was held) as `claimPacked`, redoing a deadlock or serialization failure;
    /// returns the lost ones. - Throws: `PostgresFailure`.
    private func claim(_ keys: [PackedKey], on connection: PostgresConnection) throws -> Set<SeenKey> {
        let parameters = parameters(keys)
        if expectsNew(keys.count) {
            do {
                return try claimedAll(connection.query(Self.claimNew, parameters: parameters), count: keys.count)
            } catch let failure as PostgresFailure where failure.isUniqueViolation || failure.isRetryable {
                conflictSeen = conflictSeen || failure.isUniqueViolation
            }
        }
        return try claimPacked(parameters, on: connection)
    }

    /// `claimPacked` with `parameters`, redoing a deadlock or serialization failure.
    /// - Throws: `PostgresFailure`.
    private func claimPacked(_ parameters: [PostgresParameter], on connection: PostgresConnection) throws -> Set<SeenKey> {
        var attempt = 0
        while true {
            do {
                return try Self.lostPacked(connection.query(Self.claimPacked, parameters: parameters))
            } catch {
                guard error.isRetryable, attempt < 5 else { throw error }
                attempt += 1
            }
        }
    }

    /// No key lost, after checking the plain insert inserted every row (it fails whole otherwise).
    /// - Throws: `PostgresFailure` when the count differs, which the unique index rules out.
    private func claimedAll(_ result: PostgresResult, count: Int) throws -> Set<SeenKey> {
        guard result.changes == count else {
            throw PostgresFailure(sqlState: nil, message: "seen-set insert wrote \(result.changes) of \(count) keys",
                                  connectionLost: false)
        }
        return []
    }

    /// Claims packed `keys` (sorted) split in two by the parity of (seconds + word), each half on
    /// its own connection at once (each as `claim` would). When one half fails, the other half's
    /// won claims are given back (best effort), so the batch holds no claim, as `commitPending`
    /// promises. - Throws: `PostgresFailure`.
    private func claimSplit(_ keys: [PackedKey], on connections: [PostgresConnection]) throws -> Set<SeenKey> {
        var members: [[PackedKey]] = [[], []]
        for key in keys {
            members[Int((UInt64(bitPattern: key.seconds) &+ UInt64(bitPattern: key.word)) & 1)].append(key)
        }
        let parameters = members.map(parameters)
        let plain = expectsNew(keys.count)
        for i in 0..<2 { try connections[i].send(plain ? Self.claimNew : Self.claimPacked, parameters: parameters[i]) }
        var lost: [Set<SeenKey>?] = [nil, nil]
        var failure: PostgresFailure?
        for i in 0..<2 {
            var outcome: PostgresFailure?
            do {
                let result = try connections[i].receive()
                lost[i] = plain ? try claimedAll(result, count: members[i].count) : Self.lostPacked(result)
            } catch let error as PostgresFailure {
                outcome = error
            }
            if let redo = outcome, redo.isRetryable || (plain && redo.isUniqueViolation) {
                conflictSeen = conflictSeen || redo.isUniqueViolation
                do {
                    lost[i] = try claimPacked(parameters[i], on: connections[i])
                    outcome = nil
                } catch let error as PostgresFailure {
                    outcome = error
                }
            }
            if let outcome { failure = failure ?? outcome }
        }
        if let failure {
            for i in 0..<2 {
                if let held = lost[i] {
                    try? releasePacked(members[i].filter { $0.seenKey.map { !held.contains($0) } ?? true }, on: connections[i])
                }
            }
            throw failure
        }
        return (lost[0] ?? []).union(lost[1] ?? [])
    }

    /// `$1` scope, `$2` seconds, `$3` words of packed `keys` (the arrays in binary form).
    private func parameters(_ keys: [PackedKey]) -> [PostgresParameter] {
        [.text(scopeID), .int8Array(keys.map(\.seconds)), .int8Array(keys.map(\.word))]
    }

    /// Gives back committed claims whose lines were never written (a failed write on stdout), in
    /// one transaction, so a later run on any gateway hands those readings on (issue 18's rule,
    /// as `StoreSeenSet` keeps it for SQLite). Keys not held are ignored.
    /// - Throws: `StoreError`; then every claim still holds.
    func release(_ keys: [SeenKey]) throws {
        guard !keys.isEmpty else { return }
        // The table has no removal and a release is rare (a failed write): start the cache over.
        won.removeAll()
        var packed: [PackedKey] = []
        var columns = Array(repeating: ArrayLiteral(), count: 6)
        for key in keys {
            if let word = key.packedWord {
                packed.append(PackedKey(seconds: key.measuredAt.secondsSinceEpoch, word: Int64(bitPattern: word)))
            } else {
                columns[0].append(key.measuredAt.secondsSinceEpoch)
                for (i, field) in Self.wideFields(key).enumerated() { columns[i + 1].appendRaw(field) }
            }
        }
        let connection = store.connection
        try store.transaction {
            if !packed.isEmpty { _ = try connection.query(Self.releasePackedSQL, parameters: parameters(packed)) }
            if !columns[0].isEmpty {
                _ = try connection.query("""
                    DELETE FROM seen_reading_wide WHERE scope = $1 AND (seconds, nanos, systolic, diastolic, has_pulse, pulse)
                        IN (SELECT * FROM unnest($2::bigint[], $3::int[], $4::bigint[], $5::bigint[], $6::boolean[], $7::bigint[]))
                    """, [scopeID] + columns.map(\.text))
            }
        }
    }

    /// Deletes the claims of packed `keys` (`$1` scope, `$2` seconds, `$3` words).
    private static let releasePackedSQL = """
        DELETE FROM seen_reading WHERE scope = $1 AND (seconds, packed) IN (SELECT * FROM unnest($2::bigint[], $3::bigint[]))
        """

    /// Gives back packed `keys` on `connection` (a statement of its own). - Throws: `PostgresFailure`.
    private func releasePacked(_ keys: [PackedKey], on connection: PostgresConnection) throws {
        guard !keys.isEmpty else { return }
        _ = try connection.query(Self.releasePackedSQL, parameters: parameters(keys))
    }

    /// The keys of the rows a packed claim returned (those another writer held).
    private static func lostPacked(_ rows: PostgresResult) -> Set<SeenKey> {
        var lost: Set<SeenKey> = []
        for r in 0..<rows.rowCount {
            if let s = rows.int(r, 0), let w = rows.int(r, 1), let key = SeenKey(seconds: s, packedWord: UInt64(bitPattern: w)) {
                lost.insert(key)
            }
        }
        return lost
    }

    /// nanos, systolic, diastolic, has_pulse, pulse as parameter text.
    private static func wideFields(_ key: SeenKey) -> [String] {
        [String(key.measuredAt.nanoseconds), String(key.systolic), String(key.diastolic), key.pulse == nil ? "f" : "t",
         String(key.pulse ?? 0)]
    }
}

/// A key in `seen_reading`'s columns, ordered as its primary key orders them (both signed).
private struct PackedKey: Comparable {
    var seconds: Int64
    var word: Int64

    static func < (a: Self, b: Self) -> Bool { (a.seconds, a.word) < (b.seconds, b.word) }

    var seenKey: SeenKey? { SeenKey(seconds: seconds, packedWord: UInt64(bitPattern: word)) }
}

/// A PostgreSQL array literal (`{1,2,3}`) built as bytes: the batch's keys as one parameter.
private struct ArrayLiteral {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ value: Int64) {
        if count > 0 { bytes.append(UInt8(ascii: ",")) }
        count += 1
        if value == 0 { bytes.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let start = bytes.count
        while magnitude > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        bytes[start...].reverse()
    }

    /// Appends an element already spelled as text (digits, t, f).
    mutating func appendRaw(_ text: String) {
        if count > 0 { bytes.append(UInt8(ascii: ",")) }
        count += 1
        bytes.append(contentsOf: text.utf8)
    }

    var text: String { String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self) }
}
