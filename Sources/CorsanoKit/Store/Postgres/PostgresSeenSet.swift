/// The replay seen-set on a PostgreSQL server, under a scope: `StoreSeenSet`'s contract across
/// hosts.
///
/// `insert` claims a key for the open batch; `commitPending()` sends the batch as two bigint
/// arrays (binary) in one `INSERT … SELECT … ON CONFLICT DO NOTHING RETURNING`, and a key is the
/// caller's exactly when its row came back inserted — two gateways never both own a record. Keys
/// go in sorted order, so two batches that overlap wait on each other rather than deadlock; a
/// deadlock or serialization failure the server reports anyway is redone. The insert runs in a
/// `PostgresStore.transaction` (three round trips: BEGIN with `txid_current()`, the insert,
/// COMMIT), so a COMMIT whose answer the connection lost is settled by the transaction's status
/// on the server instead of leaving a committed claim whose lines are never written.
///
/// A large batch (`splitThreshold` keys or more: `state migrate`'s; replay-filter's are at most
/// 64 KiB of lines, about 600 keys) is split in two by a fixed function of the key and the halves
/// are claimed at once on two connections, so the server works on both cores: the halves share no
/// key, and every writer splits the same way, so they cannot wait on each other in a cycle. Nor
/// may a half wait on this process while it waits on another writer's lock (a cycle through a
/// client, which the server's deadlock detector cannot see): answers are read from both
/// connections as they come (`receiveAll`), and a COPY part is ended before the next begins.
///
/// A large batch is first sent as a binary `COPY` (`copyNew`): the unique index still decides
/// every key, but the server skips `ON CONFLICT`'s speculative insertion, the `EXCEPT ALL` and
/// the executor's per-row insert, writing heap pages in bulk (measured for 450,000 keys: 0.38 s
/// against 1.54 s, and 50 MB of WAL against 91 MB). If any key is held the COPY fails whole
/// (23505, nothing claimed) and the batch is redone with `claimPacked`; after that, this set
/// sends `claimPacked` first, since a run that met one replayed record is likely to meet more
/// (the server logs that one refused COPY as an error).
///
/// Keys this process won stay in `won` (up to `wonLimit`), so a record repeated later in the same
/// run is a duplicate at once, without a round trip, and a later batch holds only keys this run
/// has not met, which is what lets the COPY succeed. Only keys won here are cached: a key
/// another writer holds may be given back by it (a failed write), so the server is asked again.
final class PostgresSeenSet: SeenSet {
    let store: PostgresStore
    let scope: String
    private let scopeID: String
    private let scopeNumber: Int64
    private var pending: [SeenKey] = []
    private var pendingKeys = SeenKeyTable(minimumCapacity: 1024)
    /// Set once a plain insert met a held key: later batches go straight to `claimPacked`.
    private var conflictSeen = false
    /// Keys committed as this process's claims and not given back since.
    private var won = SeenKeyTable(minimumCapacity: 1024)
    /// Most keys `won` holds; when a commit would pass it, the cache starts over (about 32 MiB).
    static let wonLimit = 1 << 20

    /// Packed keys of one batch, all expected new, as `SeenKeyCopyEncoder` writes them: fails
    /// whole with 23505 when one is held. `commitPending` counts on every row being copied.
    private static let copyNew = "COPY seen_reading (scope, seconds, packed) FROM STDIN (FORMAT binary)"

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
        guard let number = Int64(id) else {
            throw StoreError.failed(path: store.location, message: "seen-set scope \(scope) has id \(id)")
        }
        scopeID = id
        scopeNumber = number
    }

    var interrupter: (@Sendable () -> Void)? { { [store] in store.cancelRunningStatements() } }

    /// What waited, in a message about a time bound (`PostgresWaitBounds`).
    private static let claiming = "the seen-set claim", reading = "the seen-set read"

    func contains(_ key: SeenKey) throws -> Bool {
        if pendingKeys.contains(key) || won.contains(key) { return true }
        let seconds = String(key.measuredAt.secondsSinceEpoch)
        // A stop may cancel the read (waiting on a lock, a slow server): it holds nothing.
        return try store.run(Self.reading) { try PostgresConnection.whileCancellable([store.connection][...]) {
            if let word = key.packedWord {
                return try store.query("SELECT 1 FROM seen_reading WHERE scope = $1 AND seconds = $2 AND packed = $3",
                                       [scopeID, seconds, String(Int64(bitPattern: word))], what: Self.reading).rowCount > 0
            }
            return try store.query("""
                SELECT 1 FROM seen_reading_wide WHERE scope = $1 AND seconds = $2 AND nanos = $3 AND systolic = $4
                    AND diastolic = $5 AND has_pulse = $6 AND pulse = $7
                """, [scopeID, seconds] + Self.wideFields(key), what: Self.reading).rowCount > 0
        } }
    }

    /// One query for the packed keys the open batch and `won` do not answer; wide keys (rare)
    /// one by one.
    func containedKeys(_ keys: [SeenKey]) throws -> Set<SeenKey> {
        var found: Set<SeenKey> = []
        var asked: [PackedSeenKey] = []
        for key in keys {
            if pendingKeys.contains(key) || won.contains(key) {
                found.insert(key)
            } else if let word = key.packedWord {
                asked.append(PackedSeenKey(seconds: key.measuredAt.secondsSinceEpoch, word: Int64(bitPattern: word)))
            } else if try contains(key) {
                found.insert(key)
            }
        }
        guard !asked.isEmpty else { return found }
        let rows = try store.run(Self.reading) { try PostgresConnection.whileCancellable([store.connection][...]) {
            try store.transaction(Self.reading) { try store.connection.query(Self.containsPacked, parameters: parameters(asked)) }
        } }
        return found.union(Self.lostPacked(rows))
    }

    /// The packed keys (`$2` seconds, `$3` words) held under scope `$1`.
    private static let containsPacked = """
        SELECT s, k FROM unnest($2::bigint[], $3::bigint[]) AS t(s, k)
        WHERE EXISTS (SELECT 1 FROM seen_reading WHERE scope = $1 AND seconds = s AND packed = k)
        """

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
        var packed: [PackedSeenKey] = []
        packed.reserveCapacity(pending.count)
        var wide: [SeenKey] = []
        for key in pending {
            if let word = key.packedWord {
                packed.append(PackedSeenKey(seconds: key.measuredAt.secondsSinceEpoch, word: Int64(bitPattern: word)))
            } else {
                wide.append(key)
            }
        }
        // The index's order: writers then take key locks in one order and do not deadlock.
        packed.sort()
        if wide.isEmpty, packed.count < Self.splitThreshold {
            // A live pipe's or a 64 KiB write's batch: one transaction, whose commit is settled
            // with the server when the connection is lost before its answer (`transaction`).
            let claim = parameters(packed)
            return try store.run(Self.claiming) { try PostgresConnection.whileCancellable([store.connection][...]) {
                try store.transaction(Self.claiming) { try Self.lostPacked(store.connection.query(Self.claimPacked, parameters: claim)) }
            } }
        }
        if wide.isEmpty {
            return try store.run(Self.claiming) {
                let connection = store.connection
                if packed.count >= Self.splitThreshold, let side = try store.sideConnection() {
                    return try claim(Self.halves(of: packed), on: [connection, side])
                }
                return try claim([packed], on: [connection])
            }
        }
        let packedParameters = parameters(packed)
        var columns = Array(repeating: ArrayLiteral(), count: 6)
        for key in wide {
            columns[0].append(key.measuredAt.secondsSinceEpoch)
            for (i, field) in Self.wideFields(key).enumerated() { columns[i + 1].appendRaw(field) }
        }
        let wideParameters: [String?] = [scopeID] + columns.map(\.text)
        // A stop may cancel the whole transaction: its claims are then rolled back.
        return try store.run(Self.claiming) { try PostgresConnection.whileCancellable([store.connection][...]) { try store.transaction(Self.claiming) {
            var lost: Set<SeenKey> = []
            if !packed.isEmpty { lost = try Self.lostPacked(store.connection.query(Self.claimPacked, parameters: packedParameters)) }
            let rows = try store.connection.query(Self.claimWide, wideParameters)
            for r in 0..<rows.rowCount {
                guard let s = rows.int(r, 0), let n = rows.int(r, 1).flatMap({ Int32(exactly: $0) }), let sys = rows.int(r, 2),
                      let dia = rows.int(r, 3), let has = rows.bool(r, 4), let p = rows.int(r, 5) else { continue }
                lost.insert(SeenKey(measuredAt: Instant(secondsSinceEpoch: s, nanoseconds: n), systolic: Int(sys),
                                    diastolic: Int(dia), pulse: has ? Int(p) : nil))
            }
            return lost
        } } }
    }

    /// Keys in a batch from which it is claimed on two connections (a live pipe's small batches
    /// stay on one).
    static let splitThreshold = 4096

    /// Whether a batch of `count` packed keys is first sent as a COPY (`copyNew`).
    private func expectsNew(_ count: Int) -> Bool { count >= Self.splitThreshold && !conflictSeen }

    /// `keys` (sorted) split in two by the parity of (seconds + word), each still sorted: every
    /// writer splits the same way, so halves on different connections never share a key.
    private static func halves(of keys: [PackedSeenKey]) -> [[PackedSeenKey]] {
        var halves: [[PackedSeenKey]] = [[], []]
        for key in keys { halves[half(of: key)].append(key) }
        return halves
    }

    /// The half (0 or 1) of a large batch `key` is claimed in: the parity of seconds + word.
    static func half(of key: PackedSeenKey) -> Int {
        Int((UInt64(bitPattern: key.seconds) &+ UInt64(bitPattern: key.word)) & 1)
    }

    /// Claims packed `parts` (each sorted), part i on `connections[i]`, all at once: as a COPY
    /// each when `expectsNew`, else (or for a part where a key was held) as `claimPacked`,
    /// redoing a deadlock or serialization failure; returns the lost keys. When one part fails,
    /// the other parts' won claims are given back (best effort), so the batch holds no claim, as
    /// `commitPending` promises. - Throws: `PostgresFailure`.
    private func claim(_ parts: [[PackedSeenKey]], on connections: [PostgresConnection]) throws -> Set<SeenKey> {
        let copies = expectsNew(parts.reduce(0) { $0 + $1.count })
        // A stop cancels the claims (a half waiting on another writer's lock), never the release below.
        let outcomes = PostgresConnection.whileCancellable(connections[...]) {
            var outcomes = copies ? copyNew(parts, on: connections) : claimPacked(parts, on: connections)
            for i in parts.indices {
                if case .failure(let redo) = outcomes[i], redo.isRetryable || (copies && redo.isUniqueViolation) {
                    conflictSeen = conflictSeen || redo.isUniqueViolation
                    outcomes[i] = Result { () throws(PostgresFailure) in try claimPacked(parameters(parts[i]), on: connections[i]) }
                }
            }
            return outcomes
        }
        var failure: PostgresFailure?
        for case .failure(let error) in outcomes { failure = failure ?? error }
        guard let failure else {
            return outcomes.reduce(into: Set<SeenKey>()) { lost, outcome in if case .success(let part) = outcome { lost.formUnion(part) } }
        }
        for i in parts.indices {
            if case .success(let held) = outcomes[i] {
                try? releasePacked(parts[i].filter { $0.seenKey.map { !held.contains($0) } ?? true }, on: connections[i])
            }
        }
        throw failure
    }

    /// `claimPacked` of each part on its connection, sent to all before any answer is read, the
    /// answers read together (`receiveAll`).
    private func claimPacked(_ parts: [[PackedSeenKey]], on connections: [PostgresConnection]) -> [Result<Set<SeenKey>, PostgresFailure>] {
        let sent = parts.indices.map { i in
            Result { () throws(PostgresFailure) in try connections[i].send(Self.claimPacked, parameters: parameters(parts[i])) }
        }
        let answers = PostgresConnection.receiveAll(parts.indices.compactMap { i in (try? sent[i].get()).map { connections[i] } })
        var next = answers.makeIterator()
        return sent.map { sent in sent.flatMap { next.next()!.map(Self.lostPacked) } }
    }

    /// Copies each part (all expected new) on its connection; empty sets where every row was
    /// copied. A part's data and end go before the next part begins, and the results are read
    /// together: while this process blocks sending to one backend (waiting on another writer's
    /// lock), no other part's transaction is open waiting for it (a cycle through a client, which
    /// the server cannot see); the backends still work at once, the next part going out while the
    /// last one's rows are inserted.
    private func copyNew(_ parts: [[PackedSeenKey]], on connections: [PostgresConnection]) -> [Result<Set<SeenKey>, PostgresFailure>] {
        let sent = parts.indices.map { i in
            Result { () throws(PostgresFailure) in
                let connection = connections[i]
                try connection.beginCopy(Self.copyNew)
                var encoder = SeenKeyCopyEncoder(scope: scopeNumber, keys: parts[i])
                var failure: PostgresFailure?
                while failure == nil, let piece = encoder.nextPiece() {
                    failure = piece.withUnsafeBytes { bytes -> PostgresFailure? in
                        do throws(PostgresFailure) { try connection.putCopyData(bytes); return nil } catch { return error }
                    }
                }
                guard let failure else { return try connection.sendCopyEnd() }
                // Nothing of the part is kept; the connection is left with no COPY running.
                _ = try? connection.endCopy(abort: "corsano: " + failure.message)
                throw failure
            }
        }
        let answers = PostgresConnection.receiveAll(parts.indices.compactMap { i in (try? sent[i].get()).map { connections[i] } })
        var next = answers.makeIterator()
        return parts.indices.map { i in
            sent[i].flatMap { next.next()!.flatMap { result in Result { () throws(PostgresFailure) in try claimedAll(result, count: parts[i].count) } } }
        }
    }

    /// `claimPacked` with `parameters`, redoing a deadlock or serialization failure.
    /// - Throws: `PostgresFailure`.
    private func claimPacked(_ parameters: [PostgresParameter], on connection: PostgresConnection) throws(PostgresFailure) -> Set<SeenKey> {
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

    /// No key lost, after checking the COPY wrote every row (it fails whole otherwise).
    /// - Throws: `PostgresFailure` when the count differs, which the unique index rules out.
    private func claimedAll(_ result: PostgresResult, count: Int) throws(PostgresFailure) -> Set<SeenKey> {
        guard result.changes == count else {
            throw PostgresFailure(sqlState: nil, message: "seen-set copy wrote \(result.changes) of \(count) keys",
                                  connectionLost: false)
        }
        return []
    }

    /// `$1` scope, `$2` seconds, `$3` words of packed `keys` (the arrays in binary form).
    private func parameters(_ keys: [PackedSeenKey]) -> [PostgresParameter] {
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
        var packed: [PackedSeenKey] = []
        var columns = Array(repeating: ArrayLiteral(), count: 6)
        for key in keys {
            if let word = key.packedWord {
                packed.append(PackedSeenKey(seconds: key.measuredAt.secondsSinceEpoch, word: Int64(bitPattern: word)))
            } else {
                columns[0].append(key.measuredAt.secondsSinceEpoch)
                for (i, field) in Self.wideFields(key).enumerated() { columns[i + 1].appendRaw(field) }
            }
        }
        try store.transaction("the release of unwritten lines' claims") {
            if !packed.isEmpty { _ = try store.connection.query(Self.releasePackedSQL, parameters: parameters(packed)) }
            if !columns[0].isEmpty {
                _ = try store.connection.query("""
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
    private func releasePacked(_ keys: [PackedSeenKey], on connection: PostgresConnection) throws {
        guard !keys.isEmpty else { return }
        _ = try connection.query(Self.releasePackedSQL, parameters: parameters(keys))
    }

    /// The keys of the (seconds, word) rows a packed claim returned (those another writer held)
    /// or a lookup found.
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

/// Packed keys as the rows of a binary `COPY … FROM STDIN` into `seen_reading` (scope, seconds,
/// packed), in pieces of about `pieceBytes` (PostgreSQL "COPY", binary format: the signature,
/// flags and extension length, then per row the field count and each field's length and
/// big-endian value, then -1).
struct SeenKeyCopyEncoder {
    private let scope: Int64
    private let keys: [PackedSeenKey]
    private var next = 0
    private var started = false, finished = false
    static let pieceBytes = 1 << 16

    init(scope: Int64, keys: [PackedSeenKey]) {
        self.scope = scope
        self.keys = keys
    }

    /// The next piece of the stream; nil after the last.
    mutating func nextPiece() -> [UInt8]? {
        guard !finished else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(Self.pieceBytes + 64)
        if !started {
            started = true
            out.append(contentsOf: Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00])
            out.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0])  // flags, header extension length
        }
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.bigEndian) { out.append(contentsOf: $0) } }
        while next < keys.count, out.count < Self.pieceBytes {
            append(Int16(3))
            for value in [scope, keys[next].seconds, keys[next].word] {
                append(Int32(8))
                append(value)
            }
            next += 1
        }
        if next == keys.count {
            append(Int16(-1))
            finished = true
        }
        return out
    }
}

/// A key in `seen_reading`'s columns, ordered as its primary key orders them (both signed).
struct PackedSeenKey: Comparable {
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
