@testable import CorsanoKit
import Foundation
import TestSupport
import Testing

/// The PostgreSQL side of issue 28: a server that crashes (`pg_ctl stop -m immediate`) while a
/// claim is in flight loses at most one write's lines and hands nothing on twice after it comes
/// back, and a claim waiting on another session's lock ends at lock_timeout with 74 naming what
/// waited (before, it waited for as long as the other session held the lock).
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
        let run = try StreamedProcess.corsano(args, env: [:])
        let waiting = PostgresEndToEndTests.waitsOnALock(server, database: database.name)
        try #require(waiting, "the claim never waited on the held record")
        try server.stopImmediately()
        #expect(run.finish(seconds: 30) == 74, "\(run.stderr.text)")
        var received = run.stdout.lines
        try server.restart()
        let again = try Corsano.run(args)
        #expect(again.status == 0, "\(again.stderr)")
        received += again.lines
        let lost = C.expectBounded(received, input: lines, kills: 1)
        print("replay-filter crash: pg_ctl stop -m immediate while a claim waited lost \(lost) of \(lines.count) lines")
    }

    @Test func aClaimWaitingOnAnotherSessionsLockEndsAtLockTimeoutWith74NamingIt() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let input = (0..<100).map(PostgresEndToEndTests.reading).joined(separator: "\n") + "\n"
        #expect(try Corsano.run(["replay-filter", "--state", database.uri], stdin: "").status == 0)  // the schema
        let holder = try StreamedProcess(URL(fileURLWithPath: "/usr/bin/psql"), ["-X", "-q", "-v", "ON_ERROR_STOP=1", database.uri])
        defer { holder.signal(SIGKILL); holder.finish(seconds: 5) }
        holder.send("BEGIN; LOCK TABLE seen_reading IN SHARE MODE; SELECT 'locked';")
        #expect(holder.stdout.waitFor("locked"))
        // corsano's default bound (10 s), then one set in the URI.
        for (uri, bound) in [(database.uri, "10s"), (database.uri + "?options=-c%20lock_timeout%3D1500ms", "1500ms")] {
            let started = Date()
            let r = try Corsano.run(["replay-filter", "--state", uri, "--max-reading-age", "none"], stdin: input)
            let waited = Date().timeIntervalSince(started)
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.lines.isEmpty, "nothing claimed, nothing written")
            #expect(r.stderr.contains("the seen-set claim waited longer than lock_timeout (\(bound)) for a lock another session holds"),
                    "\(r.stderr)")
            #expect(waited < (bound == "10s" ? 25 : 8), "waited \(waited) s")
        }
        holder.send("ROLLBACK;")
        let after = try Corsano.run(["replay-filter", "--state", database.uri, "--max-reading-age", "none"], stdin: input)
        #expect(after.lines.count == 100, "no claim of the runs that gave up holds")
    }
}
