@testable import CorsanoKit
import Foundation
import TestSupport
import Testing

/// What only the PostgreSQL store has: schema migration under an advisory lock, messages that
/// name the server and never its password, and `state migrate` onto it.
@Suite struct PostgresStoreTests {
    @Test func processesMigratingAFreshDatabaseAtOnceAllSucceed() async throws {
        let database = try ThrowawayPostgres.shared().createDatabase()
        // Eight connections open (and so migrate) the same empty database at once.
        let results = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do { _ = try PostgresStore(uri: database.uri); return nil } catch { return "\(error)" }
                }
            }
            var failures: [String] = []
            for await failure in group { if let failure { failures.append(failure) } }
            return failures
        }
        #expect(results == [])
        let version = try ThrowawayPostgres.shared().execute("SELECT version FROM corsano_schema", database: database.name)
        #expect(version == [[String(PostgresSchema.migrations.count)]])
    }

    @Test func aDatabaseWrittenByANewerCorsanoIsRefused() throws {
        let database = try ThrowawayPostgres.shared().createDatabase()
        _ = try PostgresStore(uri: database.uri)
        try ThrowawayPostgres.shared().execute("UPDATE corsano_schema SET version = 99", database: database.name)
        #expect(throws: StoreError.newerSchema(path: database.uri, version: 99)) {
            _ = try PostgresStore(uri: database.uri)
        }
    }

    @Test func readingNeverCreatesTheSchema() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        #expect(try PostgresStore.openExisting(uri: database.uri) == nil)
        #expect(try server.execute("SELECT to_regclass('corsano_schema') IS NULL", database: database.name) == [["t"]])
        _ = try PostgresStore(uri: database.uri)
        #expect(try PostgresStore.openExisting(uri: database.uri) != nil)
    }

    @Test(arguments: [
        ("postgresql://bob:s3cr%40t@db.lab:5432/corsano", "postgresql://bob@db.lab:5432/corsano"),
        ("postgres://bob:pw@h/db?sslmode=require&password=pw2", "postgres://bob@h/db?sslmode=require&password=***"),
        ("postgresql://h/db?password=x%20y", "postgresql://h/db?password=***"),
        ("postgresql://bob@h/db", "postgresql://bob@h/db"),
        ("host=h password='two words' dbname=d", "host=h password='***' dbname=d"),
    ])
    func redactedDropsThePassword(uri: String, expected: String) {
        #expect(PostgresURI.redacted(uri) == expected)
    }

    @Test func aServerThatIsDownIsNamedWithoutThePassword() throws {
        // A port nothing listens on: bind one, close it, connect to it.
        let secret = "Sup3r%2Fs3cret"
        for uri in ["postgresql://lab:\(secret)@127.0.0.1:1/corsano", "postgresql://lab@127.0.0.1:1/corsano?password=\(secret)"] {
            var quick = PostgresWaitBounds()
            quick.storeWaitSeconds = 0.5  // a refused connection is retried as a restart would be, then given up
            do {
                _ = try PostgresStore(uri: uri, bounds: quick)
                Issue.record("connected to a closed port")
            } catch StoreError.cannotOpen(let path, let message), StoreError.busyServer(let path, let message) {
                #expect(path == "postgresql://lab@127.0.0.1:1/corsano")
                #expect(message.contains("127.0.0.1"))
                for text in [path, message] {
                    #expect(!text.contains("Sup3r") && !text.contains("s3cret"), "\(text)")
                }
            }
        }
    }

    @Test func aWrongPasswordOnTheRealServerIsNeverPrinted() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let role = "lab_" + database.name
        try server.execute("CREATE ROLE \(role) LOGIN PASSWORD 'right-Pa55'")
        try server.execute("GRANT ALL ON DATABASE \(database.name) TO \(role)")
        try server.execute("GRANT ALL ON SCHEMA public TO \(role)", database: database.name)
        // The right password over TCP works (scram-sha-256) and is in no message either.
        let store = try PostgresStore(uri: server.tcpURI(database: database.name, user: role, password: "right-Pa55"))
        #expect(store.location == "postgresql://\(role)@127.0.0.1:\(server.port)/\(database.name)")
        do {
            _ = try PostgresStore(uri: server.tcpURI(database: database.name, user: role, password: "wr0ng-Pa55"))
            Issue.record("a wrong password connected")
        } catch let StoreError.cannotOpen(path, message) {
            #expect(message.contains("password authentication failed"), "\(message)")
            #expect(!path.contains("wr0ng") && !message.contains("wr0ng"))
        }
        // A malformed URI whose parse error quotes the password's piece.
        do {
            _ = try PostgresStore(uri: "postgresql://\(role):wr0ng%zz@127.0.0.1:\(server.port)/\(database.name)")
            Issue.record("a malformed URI connected")
        } catch let StoreError.cannotOpen(path, message) {
            #expect(!path.contains("wr0ng") && !message.contains("wr0ng"), "\(path): \(message)")
        }
    }

    /// The PostgreSQL side of issue 18's failed-write rule: released claims are free again for
    /// every writer, other claims stay.
    @Test func releasedClaimsAreFreeAgainOnTheServer() throws {
        let uri = try ThrowawayPostgres.shared().createDatabase().uri
        let seen = try PostgresStore(uri: uri).seenSet(scope: "s")
        let keys = (0..<10).map { StateStoreContractTests.key(Int64($0)) } + [StateStoreContractTests.key(99, 4_000, pulse: nil)]
        for key in keys { _ = try seen.insert(key) }
        #expect(try seen.commitPending().isEmpty)
        let released = [keys[2], keys[5], keys[10], StateStoreContractTests.key(12_345)]  // the last one was never held
        try #require(seen as? PostgresSeenSet).release(released)
        let other = try PostgresStore(uri: uri).seenSet(scope: "s")
        for key in keys { _ = try other.insert(key) }
        #expect(try other.commitPending() == Set(keys).subtracting(released), "only the released keys are claimed again")
    }

    /// Bigint arrays go to the server in its binary array format: every value, sign and the
    /// empty array arrive as sent.
    static let bigintArrays: [String: [Int64]] = [
        "empty": [], "zero": [0], "extremes": [Int64.min, -1, 0, 1, 1_795_000_000, Int64.max],
        "6,001 across the range": (-3_000...3_000).map { Int64($0) * 3_074_457_345_618_258 },
    ]

    @Test(arguments: bigintArrays.keys.sorted())
    func bigintArraysArriveAsSent(name: String) throws {
        let values = try #require(Self.bigintArrays[name])
        let database = try ThrowawayPostgres.shared().createDatabase()
        let connection = try PostgresConnection(uri: database.uri)
        let rows = try connection.query("SELECT v, $2 FROM unnest($1::bigint[]) WITH ORDINALITY AS t(v, i) ORDER BY i",
                                        parameters: [.int8Array(values), .text("text after")])
        #expect((0..<rows.rowCount).map { rows.int($0, 0) } == values)
        #expect(rows.rowCount == 0 || rows.text(0, 1) == "text after")
        #expect(try connection.query("SELECT cardinality($1::bigint[])", parameters: [.int8Array(values)]).int(0, 0) == Int64(values.count))
    }

    /// A large batch goes first as a plain insert: when another writer holds some of its keys the
    /// insert fails whole and the batch is redone with ON CONFLICT, so exactly the held keys are
    /// lost and every other key is claimed once. Later batches (then sent with ON CONFLICT first)
    /// keep the same verdicts. Sizes: one connection's worth and two halves on two connections.
    @Test(arguments: [PostgresSeenSet.splitThreshold - 1, PostgresSeenSet.splitThreshold, 3 * PostgresSeenSet.splitThreshold])
    func aLargeBatchLosesExactlyTheKeysAnotherWriterHolds(size: Int) throws {
        let database = try ThrowawayPostgres.shared().createDatabase()
        let keys = (0..<Int64(2 * size)).map { StateStoreContractTests.key($0, 100 + Int($0 % 50)) }
        let held = Set(keys.enumerated().filter { $0.offset % 3 == 1 }.map(\.element))
        let other = try PostgresStore(uri: database.uri).seenSet(scope: "s")
        for key in held { _ = try other.insert(key) }
        #expect(try other.commitPending().isEmpty)

        let seen = try PostgresStore(uri: database.uri).seenSet(scope: "s")
        let fresh = try PostgresStore(uri: database.uri).seenSet(scope: "fresh")
        for key in keys.prefix(size) {
            _ = try seen.insert(key)
            _ = try fresh.insert(key)
        }
        #expect(try fresh.commitPending().isEmpty, "no key of a new scope is held")
        #expect(try seen.commitPending() == held.intersection(keys.prefix(size)))
        for key in keys.suffix(size) { _ = try seen.insert(key) }
        #expect(try seen.commitPending() == held.intersection(keys.suffix(size)))
        let rows = try ThrowawayPostgres.shared().execute("""
            SELECT s.name, count(*) FROM seen_reading r JOIN seen_scope s ON s.id = r.scope GROUP BY s.name ORDER BY s.name
            """, database: database.name)
        #expect(rows == [["fresh", String(size)], ["s", String(keys.count)]], "every key claimed exactly once")
    }

    /// The COPY stream: PostgreSQL's binary signature, flags and extension length, then per row 3
    /// fields of 8 big-endian bytes, then -1; pieces stay near `pieceBytes` and join in order.
    @Test(arguments: [0, 1, 1_724, 1_725, 5_000])
    func copyStreamIsPostgresBinaryCopy(rows: Int) {
        let keys = (0..<rows).map { PackedSeenKey(seconds: Int64($0) - 2, word: Int64($0) << 20) }
        var encoder = SeenKeyCopyEncoder(scope: 7, keys: keys)
        var pieces: [[UInt8]] = []
        while let piece = encoder.nextPiece() { pieces.append(piece) }
        #expect(encoder.nextPiece() == nil)
        #expect(pieces.allSatisfy { $0.count <= SeenKeyCopyEncoder.pieceBytes + 38 + 2 })
        let stream = pieces.flatMap { $0 }
        func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        var expected: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + be(Int32(0)) + be(Int32(0))
        for key in keys {
            expected += be(Int16(3))
            for value in [7, key.seconds, key.word] { expected += be(Int32(8)) + be(value) }
        }
        expected += be(Int16(-1))
        #expect(stream == expected)
    }

    /// A large batch whose second connection dies mid-claim throws, and the half the first
    /// connection copied is given back: another writer then claims every key of the batch.
    @Test func aBatchWhoseSecondConnectionDiesHoldsNoClaim() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let seen = try PostgresStore(uri: database.uri).seenSet(scope: "s")
        let size = 2 * PostgresSeenSet.splitThreshold
        for i in 0..<size { _ = try seen.insert(StateStoreContractTests.key(Int64(i))) }
        #expect(try seen.commitPending().isEmpty, "the first large batch opens the second connection")
        // The second connection is the newest backend of this database.
        try server.execute("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database.name)'
                AND pid <> pg_backend_pid() ORDER BY backend_start DESC LIMIT 1
            """)
        let batch = (size..<(3 * size)).map { StateStoreContractTests.key(Int64($0)) }
        for key in batch { _ = try seen.insert(key) }
        #expect(throws: StoreError.self) { try seen.commitPending() }
        let other = try PostgresStore(uri: database.uri).seenSet(scope: "s")
        for key in batch { _ = try other.insert(key) }
        #expect(try other.commitPending().isEmpty, "no key of the failed batch is held")
    }

    /// Two connections of one process must never leave a half waiting on this process while the
    /// other half waits on a lock: the server sees no cycle through a client, so a writer that
    /// holds a key of the first half and asks for one of the second would wait on us forever (and
    /// we on it). Here another writer (a single-connection claim, keys in order) holds key `a` of
    /// the first half and then asks for `b` of the second, with a lock timeout standing in for
    /// "forever". Cases: the COPY of a fresh run, and ON CONFLICT once a key was held, where the
    /// second half's answer (most of its keys held: a large result) fills the socket.
    @Test(arguments: [false, true])
    func halvesNeverWaitOnThisProcessWhileAnotherWriterWaitsOnThem(afterAConflict: Bool) throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let seen = try #require(try PostgresStore(uri: database.uri).seenSet(scope: "s") as? PostgresSeenSet)
        let size = afterAConflict ? 80_000 : 2 * PostgresSeenSet.splitThreshold
        // key(i): seconds go up by one, the word stays: the halves alternate and a < b.
        let keys = (0..<Int64(size)).map { StateStoreContractTests.key(10 + $0) }
        let firstHalf = Self.half(keys[0]) == 0 ? 0 : 1
        let (a, b) = (keys[firstHalf], keys[firstHalf + 1])
        let other = try #require(try PostgresStore(uri: database.uri).seenSet(scope: "s") as? PostgresSeenSet)
        if afterAConflict {
            // A batch meeting a held key: later batches go straight to ON CONFLICT. Every key but
            // a and b is held, so each half's answer is a large set of lost keys.
            for key in keys where key != a && key != b { _ = other.insert(key) }
            _ = try other.commitPending()
            for i in 0..<PostgresSeenSet.splitThreshold { _ = seen.insert(StateStoreContractTests.key(-Int64(i))) }
            _ = other.insert(StateStoreContractTests.key(0))
            _ = try other.commitPending()
            #expect(try seen.commitPending() == [StateStoreContractTests.key(0)])
        }
        let scope = try #require(try server.execute("SELECT id FROM seen_scope WHERE name = 's'", database: database.name).first?.first ?? nil)
        func row(_ key: SeenKey) -> [String?] {
            [scope, String(key.measuredAt.secondsSinceEpoch), String(Int64(bitPattern: key.packedWord!))]
        }
        let writer = try PostgresConnection(uri: database.uri)
        try writer.execute("BEGIN")
        _ = try writer.query("INSERT INTO seen_reading (scope, seconds, packed) VALUES ($1, $2, $3)", row(a))
        let others = try [writer.query("SELECT pg_backend_pid()"), other.store.connection.query("SELECT pg_backend_pid()")]
            .compactMap { $0.text(0, 0) }.joined(separator: ", ")

        for key in keys { _ = seen.insert(key) }
        let claim = InBackground { try seen.commitPending() }
        // Our first half waits on `a`; then the second is done (idle since), or waits on this
        // process mid-statement (the defect), or was never started (an unused connection).
        let ours = "application_name = 'corsano' AND datname = '\(database.name)' AND pid NOT IN (\(others))"
        #expect(try Wait.until(seconds: 30) {
            try !server.execute("SELECT 1 FROM pg_stat_activity WHERE \(ours) AND wait_event_type = 'Lock'").isEmpty
        }, "the first half waits on the other writer's key")
        #expect(try Wait.until(seconds: 30) {
            try !server.execute("""
                SELECT 1 FROM pg_stat_activity s, (SELECT query_start FROM pg_stat_activity WHERE \(ours)
                                                    AND wait_event_type = 'Lock') w
                WHERE \(ours) AND (s.wait_event IN ('ClientRead', 'ClientWrite') AND s.state = 'active'
                                   OR s.state = 'idle' AND (s.state_change > w.query_start OR s.query = ''))
                """).isEmpty
        }, "the second half is where this process left it")
        try writer.execute("SET LOCAL lock_timeout = '5s'")
        var got: [SeenKey] = [a]
        do {
            if try writer.query("INSERT INTO seen_reading (scope, seconds, packed) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                                row(b)).changes == 1 { got.append(b) }
            try writer.execute("COMMIT")
        } catch {
            Issue.record("the other writer waited on this process: \(error)")
            try? writer.execute("ROLLBACK")
            got = []
        }
        #expect(Wait.until(seconds: 30) { claim.outcome != nil }, "the claim returns")
        #expect(try claim.outcome?.get() == Set(got).union(afterAConflict ? Set(keys).subtracting([a, b]) : []))
    }

    /// A stop cancels a claim still waiting on another writer's lock, and no claim of that batch
    /// holds (`SeenSet.interrupter`): here the half on the first connection waits on a key
    /// another writer holds, the second half is done, and the cancel of the second connection
    /// (sent after the first's) must not land on the statement giving that half's claims back.
    /// Before, it did in about two runs of three, so half the batch stayed claimed, never written.
    /// Ten rounds, each a fresh scope.
    @Test func aStopCancellingAWaitingHalfLeavesNoClaimOfTheBatch() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let store = try PostgresStore(uri: database.uri)
        let writer = try PostgresConnection(uri: database.uri)
        let size = 2 * PostgresSeenSet.splitThreshold
        for round in 0..<10 {
            let seen = try #require(try store.seenSet(scope: "s\(round)") as? PostgresSeenSet)
            let keys = (0..<Int64(size)).map { StateStoreContractTests.key(10 + $0) }
            // The half of parity 0 goes on the store's first connection.
            let held = try #require(keys.first { Self.half($0) == 0 })
            let scope = try #require(try server.execute("SELECT id FROM seen_scope WHERE name = 's\(round)'", database: database.name).first?.first ?? nil)
            try writer.execute("BEGIN")
            _ = try writer.query("INSERT INTO seen_reading (scope, seconds, packed) VALUES ($1, $2, $3)",
                                 [scope, String(held.measuredAt.secondsSinceEpoch), String(Int64(bitPattern: held.packedWord!))])
            for key in keys { _ = seen.insert(key) }
            let claim = InBackground { try seen.commitPending() }
            let writerPID = try #require(try writer.query("SELECT pg_backend_pid()").text(0, 0))
            let ours = "application_name = 'corsano' AND datname = '\(database.name)' AND pid <> \(writerPID)"
            #expect(try Wait.until(seconds: 30) {
                try server.execute("SELECT 1 FROM pg_stat_activity WHERE \(ours) AND wait_event_type = 'Lock'").count == 1
                    && server.execute("SELECT 1 FROM pg_stat_activity WHERE \(ours) AND state = 'idle'").count == 1
            }, "round \(round): the first half waits on the other writer's key, the second is done")
            let interrupter = try #require(seen.interrupter)
            interrupter()
            #expect(Wait.until(seconds: 30) { claim.outcome != nil }, "round \(round): the claim returns")
            let result = try #require(claim.outcome)
            #expect(throws: StoreError.self) { try result.get() }
            try writer.execute("ROLLBACK")
            let claimed = try server.execute("SELECT count(*) FROM seen_reading WHERE scope = \(scope)", database: database.name)
            #expect(claimed.first?.first == "0", "round \(round): no claim of the cancelled batch holds")
        }
    }

    /// A stop also cancels a seen-set read waiting on the server (a stale line's duplicate check
    /// while another session holds the table exclusively: a migration, `LOCK TABLE`), as it does
    /// a claim; before, only claims could be cancelled and the read waited for the lock.
    @Test(arguments: [false, true])
    func aStopCancelsASeenSetReadWaitingOnALock(batch: Bool) throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let seen = try #require(try PostgresStore(uri: database.uri).seenSet(scope: "s") as? PostgresSeenSet)
        let writer = try PostgresConnection(uri: database.uri)
        try writer.execute("BEGIN")
        try writer.execute("LOCK TABLE seen_reading IN ACCESS EXCLUSIVE MODE")
        defer { try? writer.execute("ROLLBACK") }
        let key = StateStoreContractTests.key(10)
        let read = InBackground { batch ? try !seen.containedKeys([key]).isEmpty : try seen.contains(key) }
        #expect(try Wait.until(seconds: 30) {
            try !server.execute("""
                SELECT 1 FROM pg_stat_activity WHERE application_name = 'corsano' AND datname = '\(database.name)'
                    AND wait_event_type = 'Lock'
                """).isEmpty
        }, "the read waits on the lock")
        let interrupter = try #require(seen.interrupter)
        interrupter()
        #expect(Wait.until(seconds: 10) { read.outcome != nil }, "the stop ends the read")
        let result = try #require(read.outcome)
        #expect(throws: StoreError.self) { try result.get() }
    }

    /// A record this process claimed is a duplicate when it comes again later in the run without
    /// asking the server (here: whose connection is gone); once given back it is claimed anew.
    @Test func aKeyThisRunWonIsKnownWithoutTheServerUntilItIsGivenBack() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let seen = try #require(try PostgresStore(uri: database.uri).seenSet(scope: "s") as? PostgresSeenSet)
        let (won, other) = (StateStoreContractTests.key(1), StateStoreContractTests.key(2))
        #expect(seen.insert(won))
        #expect(try seen.commitPending().isEmpty)
        try seen.release([won])
        #expect(seen.insert(won), "given back: claimed anew")
        #expect(try seen.commitPending().isEmpty)

        try server.execute("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database.name)' AND pid <> pg_backend_pid()
            """)
        #expect(try seen.contains(won))
        #expect(!seen.insert(won), "a duplicate, decided in this process")
        #expect(seen.insert(other))
        #expect(try seen.commitPending().isEmpty, "the connection the server ended is replaced: the claim goes through")
    }

    /// A connection the server ended (57P01) between transactions is replaced: the next
    /// statement runs on a new one (`PostgresStore.transaction`).
    @Test func aConnectionTheServerEndedIsReplaced() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let store = try PostgresStore(uri: database.uri)
        try server.execute("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database.name)' AND pid <> pg_backend_pid()
            """)
        #expect(try store.journalEntries(serial: nil).isEmpty)
    }

    @Test func migrateCopiesEverythingAndASecondRunChangesNothing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let sqlite = try SQLiteStore(path: dir.appendingPathComponent("state.sqlite3").path)
        // Source: two scopes (one wide key), a journal entry, two runs, a profile.
        let keys = (0..<2_500).map { StateStoreContractTests.key(Int64($0), 100 + $0 % 50, nanos: Int32($0 % 3) * 1_000) }
            + [StateStoreContractTests.key(9_999, 3_000, pulse: nil)]
        let m1 = try sqlite.seenSet(scope: "m1")
        for key in keys { _ = try m1.insert(key) }
        #expect(try m1.commitPending().isEmpty)
        let m2 = try sqlite.seenSet(scope: "m2")
        _ = try m2.insert(keys[0])
        #expect(try m2.commitPending().isEmpty)
        let owner = PlanJournal.Owner(gateway: "gw-a", pid: 31, startTime: 5, bootID: "boot")
        try PlanJournal(store: sqlite).open(PlanJournal.Entry(serial: "SIM-9", previousPlan: BraceletPlan("sleep"), flow: "bp-init",
                                                              owner: owner, openedAt: Instant(secondsSinceEpoch: 1_795_000_000)))
        for (run, second) in [("a", 0), ("b", 10)] {
            let log = AuditLog(store: sqlite, gateway: "gw-a")
            let at = Instant(secondsSinceEpoch: 1_795_000_000 + Int64(second))
            try log.begin(run: run, flow: .bpInit, bracelet: BraceletIdentity(model: "287-2", firmware: "7.4", serial: "SIM-9"),
                          at: at, config: .object([]))
            try log.record(run: run, FedCuffReading(attempt: 1, index: 1, reading: CuffReading(systolic: 120, diastolic: 80, pulse: 70, measuredAt: nil),
                                                    braceletAccepted: true))
            if run == "a" { try log.finish(run: run, at: at, result: .object([("kind", .string("success"))])) }
        }
        let profile = UserProfile(heightCm: 170, weightKg: 70, wrist: .right, gender: .female, unit: .metric,
                                  birthdate: "1990-05-06", skinTone: 2, hairDensity: .low)
        try ProfileStore(store: sqlite).save(profile, serial: "SIM-9", at: Instant(secondsSinceEpoch: 1_795_000_000))

        let target = try PostgresStore(uri: ThrowawayPostgres.shared().createDatabase().uri)
        let first = try StoreMigration.copy(from: sqlite, to: target)
        var expected = StoreMigration.Counts()
        (expected.seenKeys, expected.seenKeysNew) = (keys.count + 1, keys.count + 1)
        (expected.journalEntries, expected.journalEntriesNew) = (1, 1)
        (expected.auditRuns, expected.auditRunsNew) = (2, 2)
        (expected.profiles, expected.profilesNew) = (1, 1)
        #expect(first == expected)
        #expect(try target.seenScopes() == ["m1", "m2"])
        #expect(Set(try target.seenKeys(scope: "m1")) == Set(keys))
        #expect(try target.seenKeys(scope: "m2") == [keys[0]])
        #expect(try target.journalEntries(serial: nil) == sqlite.journalEntries(serial: nil))
        #expect(try target.auditRuns(AuditFilter()) == sqlite.auditRuns(AuditFilter()))
        #expect(try target.profiles() == sqlite.profiles())

        let second = try StoreMigration.copy(from: sqlite, to: target)
        #expect(second.seenKeysNew == 0 && second.journalEntriesNew == 0 && second.auditRunsNew == 0 && second.profilesNew == 0)
        #expect(second.seenKeys == keys.count + 1 && second.auditRuns == 2)
        #expect(Set(try target.seenKeys(scope: "m1")) == Set(keys))
        #expect(try target.auditRuns(AuditFilter()) == sqlite.auditRuns(AuditFilter()))
        // The copied seen-set claims as the source did: a migrated key is a duplicate on the server.
        let seen = try target.seenSet(scope: "m1")
        #expect(try seen.insert(keys[7]) == true)
        #expect(try seen.commitPending() == [keys[7]])
    }
}

extension PostgresStoreTests {
    /// The half of a large batch `key` is claimed in, by `PostgresSeenSet`'s own rule.
    static func half(_ key: SeenKey) -> Int {
        PostgresSeenSet.half(of: PackedSeenKey(seconds: key.measuredAt.secondsSinceEpoch, word: Int64(bitPattern: key.packedWord!)))
    }
}

/// `body` run on another thread (a store call that blocks on the server while the test acts on
/// it); `outcome` once it returned. The test waits for that thread itself.
private final class InBackground<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?

    init(_ body: @escaping () throws -> T) {
        nonisolated(unsafe) let body = body
        DispatchQueue.global().async { [self] in
            let outcome = Result { try body() }
            lock.withLock { result = outcome }
        }
    }

    var outcome: Result<T, any Error>? { lock.withLock { result } }
}
