@testable import CorsanoKit
import Foundation
import TestSupport
import Testing

/// The PostgreSQL side of issue 28: a server that crashes (`pg_ctl stop -m immediate`) while a
/// claim is in flight loses at most one write's lines and hands nothing on twice after it comes
/// back; a connection lost at a claim's COMMIT is settled by the transaction's status, so its
/// lines come out exactly once; and connecting, a lock and a statement each end at their bound
/// with 74 naming it (before, each waited for as long as the other side let it).
@Suite struct PostgresCrashTests {
    typealias C = ReplayFilterCrashTests

    /// The seen-set key of `PostgresEndToEndTests.reading(i)` as `seen_reading` holds it.
    static func packedKey(_ i: Int) -> PackedSeenKey {
        let key = SeenKey(measuredAt: Instant(secondsSinceEpoch: 1_795_000_000 + Int64(i)), systolic: 100 + i % 80,
                          diastolic: 70, pulse: 50 + i % 40)
        return PackedSeenKey(seconds: key.measuredAt.secondsSinceEpoch, word: Int64(bitPattern: key.packedWord!))
    }

    @Test func aServerCrashWhileAClaimWaitsLosesAtMostOneWriteAndNothingTwice() throws {
        let server = try ThrowawayPostgres.ownServer()
        let database = try server.createDatabase()
        let dir = try BPInitE2E.directory()
        let (file, lines) = try C.input(dir, count: 30_000)
        let args = ["replay-filter", "--state", database.uri, "--max-reading-age", "none", file]
        #expect(try Corsano.run(["replay-filter", "--state", database.uri], stdin: "").status == 0)  // the schema
        // Another session holds one record of the run's first megabyte, uncommitted (in the
        // second half of a large batch, the one claimed after the first): the claim waits on it.
        let held = try #require((3000..<3100).first { PostgresSeenSet.half(of: Self.packedKey($0)) == 1 })
        let holder = try StreamedProcess(URL(fileURLWithPath: "/usr/bin/psql"), ["-X", "-q", "-v", "ON_ERROR_STOP=1", database.uri])
        defer { holder.signal(SIGKILL); holder.finish(seconds: 5) }
        let key = Self.packedKey(held)
        holder.send("""
            BEGIN; INSERT INTO seen_reading (scope, seconds, packed) SELECT id, \(key.seconds), \(key.word) FROM seen_scope
            WHERE name = 'default'; SELECT 'held';
            """)
        #expect(holder.stdout.waitFor("held"))
        // The server does not come back within --store-wait: 75, state store busy.
        let run = try StreamedProcess.corsano(args, env: ["CORSANO_STORE_WAIT": "2"])
        let waiting = PostgresEndToEndTests.waitsOnALock(server, database: database.name)
        try #require(waiting, "the claim never waited on the held record")
        try server.stopImmediately()
        // 75 when the lost connection is retried until --store-wait runs out. A batch large enough
        // to be claimed on two connections (the split COPY path, 1 MiB batches) does not retry a
        // lost connection yet and ends 74 at once; either way nothing may be lost or handed twice.
        let status = run.finish(seconds: 30)
        #expect(status == 75 || status == 74, "\(run.stderr.text)")
        var received = run.stdout.lines
        try server.restart()
        let again = try Corsano.run(args)
        #expect(again.status == 0, "\(again.stderr)")
        received += again.lines
        let lost = C.expectBounded(received, input: lines, kills: 1)
        print("replay-filter crash: pg_ctl stop -m immediate while a claim waited lost \(lost) of \(lines.count) lines")
    }

    /// A connection through `CommitCuttingProxy` to the shared server's unix socket, cut at `cut`
    /// during the first claim, and the input (3,000 lines, about 5 writes of 64 KiB).
    static func cutRun(_ cut: CommitCuttingProxy.Cut) throws -> (first: Corsano.Outcome, again: Corsano.Outcome, input: [String], proxy: CommitCuttingProxy) {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let (file, lines) = try C.input(try BPInitE2E.directory(), count: 3000)
        #expect(try Corsano.run(["replay-filter", "--state", database.uri], stdin: "").status == 0)  // the schema
        let proxy = try CommitCuttingProxy(socketPath: server.directory + "/.s.PGSQL.\(server.port)", cut: cut)
        defer { proxy.stop() }
        let proxied = "postgresql://postgres@127.0.0.1:\(proxy.port)/\(database.name)?sslmode=disable&gssencmode=disable"
        let first = try Corsano.run(["replay-filter", "--state", proxied, "--max-reading-age", "none", file])
        let again = try Corsano.run(["replay-filter", "--state", database.uri, "--max-reading-age", "none", file])
        #expect(again.status == 0, "\(again.stderr)")
        return (first, again, lines, proxy)
    }

    /// Every input line exactly once in `received`.
    static func expectExactlyOnce(_ received: [String], input: [String]) {
        var seen: [String: Int] = [:]
        for line in received { seen[line, default: 0] += 1 }
        #expect(seen.filter { $0.value > 1 }.isEmpty, "\(seen.filter { $0.value > 1 }.count) readings handed on twice")
        let missing = input.filter { seen[$0] == nil }
        #expect(missing.isEmpty, "\(missing.count) of \(input.count) readings never handed on")
        #expect(Set(received).isSubset(of: Set(input)), "only input lines")
    }

    /// The server commits the first claim and the connection is lost before its answer reaches
    /// corsano: a new connection asks `txid_status`, learns it committed, and the run writes
    /// those lines and goes on (before issue 28's settling, the run ended 74 with the claims of
    /// that write held for good: every later run dropped those readings as duplicates).
    @Test func aClaimCommittedAsTheConnectionIsLostIsWrittenExactlyOnce() throws {
        let run = try Self.cutRun(.afterServerCommit)
        try #require(run.proxy.didCut, "the claim's commit was never cut: \(run.first.stderr)")
        #expect(run.first.status == 0, "\(run.first.stderr)")
        #expect(run.first.lines.count == run.input.count, "the run that lost its connection wrote every line")
        #expect(run.again.lines.isEmpty, "the rerun found every reading handed on")
        Self.expectExactlyOnce(run.first.lines + run.again.lines, input: run.input)
    }

    /// corsano's COMMIT of the first claim never reaches the server, whose backend stays idle in
    /// the transaction: a new connection finds it in progress, ends that backend, sees the
    /// transaction aborted — settled, not guessed: nothing of it was kept — and redoes the claim
    /// on the new connection (within --store-wait); every line is handed on exactly once.
    @Test func aClaimWhoseCommitNeverArrivesIsSettledAbortedAndRedone() throws {
        let run = try Self.cutRun(.beforeCommitArrives)
        try #require(run.proxy.didCut, "the claim's commit was never cut: \(run.first.stderr)")
        #expect(run.first.status == 0, "\(run.first.stderr)")
        #expect(run.first.lines.count == run.input.count, "the run redid the aborted claim and wrote every line")
        #expect(run.again.lines.isEmpty, "the rerun found every reading handed on")
        Self.expectExactlyOnce(run.first.lines + run.again.lines, input: run.input)
    }

    @Test func aClaimWaitingOnAnotherSessionsLockEndsAtLockOrStatementTimeoutWith74NamingIt() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let input = (0..<100).map(PostgresEndToEndTests.reading).joined(separator: "\n") + "\n"
        #expect(try Corsano.run(["replay-filter", "--state", database.uri], stdin: "").status == 0)  // the schema
        let holder = try StreamedProcess(URL(fileURLWithPath: "/usr/bin/psql"), ["-X", "-q", "-v", "ON_ERROR_STOP=1", database.uri])
        defer { holder.signal(SIGKILL); holder.finish(seconds: 5) }
        holder.send("BEGIN; LOCK TABLE seen_reading IN SHARE MODE; SELECT 'locked';")
        #expect(holder.stdout.waitFor("locked"))
        // corsano's default bound (10 s), then one set in the URI; then a statement_timeout from the URI
        // shorter than the lock bound (the claim runs past it, waiting on the same lock).
        let lockBound = "the seen-set claim waited longer than lock_timeout (%@) for a lock another session holds"
        for (set, named, limit) in [("", lockBound.replacingOccurrences(of: "%@", with: "10s"), 25.0),
                                    ("?options=-c%20lock_timeout%3D1500ms", lockBound.replacingOccurrences(of: "%@", with: "1500ms"), 8),
                                    ("?options=-c%20statement_timeout%3D1500ms",
                                     "the seen-set claim ran longer than statement_timeout (1500ms); set a longer one", 8)] {
            let started = Date()
            let r = try Corsano.run(["replay-filter", "--state", database.uri + set, "--max-reading-age", "none"], stdin: input)
            let waited = Date().timeIntervalSince(started)
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.lines.isEmpty, "nothing claimed, nothing written")
            #expect(r.stderr.contains(named), "\(r.stderr)")
            #expect(waited >= 1.4 && waited < limit, "waited \(waited) s")
        }
        holder.send("ROLLBACK;")
        let after = try Corsano.run(["replay-filter", "--state", database.uri, "--max-reading-age", "none"], stdin: input)
        #expect(after.lines.count == 100, "no claim of the runs that gave up holds")
    }

    /// A PostgreSQL server that takes the connection and never answers (a listening socket no
    /// one reads): the connection attempt ends at connect_timeout — corsano's 10 s default, or
    /// the URI's — with 74 naming connect_timeout (before issue 28 it waited for as long as TCP
    /// let it: hours on a socket that stays open).
    @Test func aServerThatNeverAnswersEndsAtConnectTimeoutWith74NamingIt() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        try #require(bound == 0 && listen(listener, 16) == 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        let silent = "postgresql://corsano@127.0.0.1:\(UInt16(bigEndian: address.sin_port))/corsano"
        for (uri, limit) in [(silent + "?connect_timeout=3", 3.0), (silent, 10.0)] {
            let started = Date()
            let r = try Corsano.run(["replay-filter", "--state", uri], stdin: "")
            let waited = Date().timeIntervalSince(started)
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stderr.contains("the connection waited longer than connect_timeout (\(Int(limit)) s"), "\(r.stderr)")
            // libpq counts whole seconds per attempt (it may try with and without SSL).
            #expect(waited >= limit - 1 && waited < 2 * limit + 5, "waited \(waited) s for a connect_timeout of \(limit) s")
        }
    }
}
