import CorsanoKit
import Foundation
import TestSupport
import Testing

/// The state store on a real PostgreSQL server the tests start: several gateways'
/// `replay-filter` runs claim each record once, a killed run's journal entry is left alone while
/// its lease lives and repaired after, `state migrate` copies a SQLite store, and a server that
/// is down or lost is exit 74 naming the server and never its password.
@Suite struct PostgresEndToEndTests {
    typealias E = BPInitE2E

    /// Reading `i` of the pool: a distinct key per i (a second apart).
    static func reading(_ i: Int) -> String {
        let at = Instant(secondsSinceEpoch: 1_795_000_000 + Int64(i))
        return #"{"systolic":\#(100 + i % 80),"diastolic":70,"pulse":\#(50 + i % 40),"measuredAt":"\#(RFC3339.format(at))","userId":\#(i)}"#
    }

    /// Whether a session of `database` comes to wait on a lock (within 30 s).
    /// A fresh database, a served simulator that holds bp-init once the first measurement is
    /// recorded, and the ingested cuff session as a file: a run to kill or cut off mid-flow.
    /// The caller stops the simulator.
    static func heldAtTheFirstMeasurement() throws
        -> (server: ThrowawayPostgres, database: (name: String, uri: String), bracelet: ServedSimulator, cuff: String) {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let scenario = Scenario(faults: FaultScenario(holdAtStep: HoldPoint(flow: "bp-init", step: "measurementRecorded")))
        let bracelet = try ServedSimulator(.unix, scenario: scenario)
        do {
            return (server, database, bracelet, try E.file(try E.directory(), "cuff.jsonl", E.ingestedSession))
        } catch {
            bracelet.stop()
            throw error
        }
    }

    static func waitsOnALock(_ server: ThrowawayPostgres, database: String) -> Bool {
        Wait.until(seconds: 30) {
            let rows = try? server.execute("""
                SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'
                """)
            return rows?.first?.first == "1"
        }
    }

    @Test func fourRunsOnTwoGatewaysEmitEveryDistinctRecordExactlyOnce() async throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let role = "gw_" + database.name
        // The lab's role owns the database; both gateways log in as it.
        try server.execute("CREATE ROLE \(role) LOGIN PASSWORD 'gateway-B-pw'")
        try server.execute("ALTER DATABASE \(database.name) OWNER TO \(role)")
        let dir = try E.directory()
        // 4 x 50,000 = 200,000 lines over 80,000 distinct records: run p reads [10,000 p, 10,000 p + 50,000),
        // runs 1 and 3 backwards, so the runs overlap in both directions.
        let inputs = try (0..<4).map { p -> String in
            var range = Array(p * 10_000 ..< p * 10_000 + 50_000)
            if p % 2 == 1 { range.reverse() }
            return try E.file(dir, "in\(p).jsonl", range.map(Self.reading).joined(separator: "\n") + "\n")
        }
        // Gateway A over the unix socket; gateway B over TCP on 127.0.0.1 with its password from
        // the libpq environment (PGPASSWORD), not the URI.
        let gatewayA = database.uri.replacingOccurrences(of: "postgresql://postgres@", with: "postgresql://\(role)@")
        let gatewayB = "postgresql://\(role)@127.0.0.1:\(server.port)/\(database.name)"
        let outcomes = try await withThrowingTaskGroup(of: (Int, Corsano.Outcome).self) { group in
            for p in 0..<4 {
                group.addTask {
                    let state = p < 2 ? gatewayA : gatewayB
                    return (p, try Corsano.run(["replay-filter", "--state", state, "--max-reading-age", "none", inputs[p]],
                                               env: ["PGPASSWORD": "gateway-B-pw"]))
                }
            }
            var all: [Int: Corsano.Outcome] = [:]
            for try await (p, outcome) in group { all[p] = outcome }
            return (0..<4).map { all[$0]! }
        }
        for outcome in outcomes { #expect(outcome.status == 0, "\(outcome.stderr.suffix(300))") }
        let emitted = outcomes.flatMap(\.lines)
        #expect(emitted.count == 80_000)
        let distinct = Set(emitted)
        #expect(distinct.count == emitted.count, "no record twice")
        let missing = (0..<80_000).filter { !distinct.contains(Self.reading($0)) }
        #expect(missing.isEmpty, "every distinct record once; missing \(missing.count), first \(missing.prefix(3))")
        // Each run's counts line adds up: what it did not emit, it reported as a duplicate.
        for outcome in outcomes {
            let counts = try #require(outcome.stderr.split(separator: "\n").last { $0.hasPrefix("corsano: replay-filter: read") })
            #expect(counts.contains("read 50000, written \(outcome.lines.count),"))
            if outcome.lines.count < 50_000 { #expect(counts.contains("duplicate: \(50_000 - outcome.lines.count)")) }
        }
        #expect(try server.execute("SELECT count(*) FROM seen_reading", database: database.name) == [["80000"]])
        for outcome in outcomes { #expect(!outcome.stderr.contains("gateway-B-pw")) }
    }

    @Test func anotherGatewayLeavesAKilledRunsEntryAloneWhileItsLeaseLivesAndRepairsItAfter() async throws {
        let (server, database, bracelet, cuff) = try Self.heldAtTheFirstMeasurement()
        defer { bracelet.stop() }
        let common = ["bp-init", "--bracelet", bracelet.listening, "--state", database.uri] + E.now
        // Gateway A: its entry's lease is 9 s, renewed every 3 s while it lives.
        let a = try LiveCorsano(common + ["--gateway", "gw-a", "--lease", "9", "--cuff", cuff], env: [:])
        #expect(a.waitForLine(containing: #""step":"measurementRecorded""#))
        let leaseUntil = { try server.execute("SELECT lease_until FROM plan_journal", database: database.name) }
        let first = try leaseUntil()
        #expect(first.count == 1)
        #expect(try Wait.until(seconds: 20, poll: 0.1) { try leaseUntil() != first }, "the live run renews its lease")
        a.signal(SIGKILL)
        _ = a.finish()
        let journal = PlanJournal(store: try PostgresStore(uri: database.uri))
        let entry = try #require(try journal.openEntries().first)
        #expect(entry.owner.gateway == "gw-a")
        #expect(entry.owner.startTime != nil && entry.owner.bootID != nil)
        #expect(try await BPInitServedTests.plan(of: bracelet) == .nibpCalibration)

        // Gateway B at once: A's process is out of its sight, its lease still runs: hands off.
        let b = ["--gateway", "gw-b", "--lease", "6", "--cuff", "/dev/null"]
        let early = try Corsano.run(common + b)
        #expect(early.status == 75, "\(early.stderr)")
        #expect(early.stderr.contains("held by a live run of bp-init (gateway gw-a pid \(entry.owner.pid)"), "\(early.stderr)")
        #expect(early.stderr.contains("left alone"))
        #expect(early.lines.allSatisfy { $0.hasPrefix(#"{"error":"busy""#) }, "nothing started: \(early.lines)")
        #expect(try journal.openEntries() == [entry])
        #expect(try await BPInitServedTests.plan(of: bracelet) == .nibpCalibration)

        // Once the lease ran out on the server's clock, B's next command repairs the bracelet.
        #expect(try Wait.until(seconds: 30, poll: 0.1) { (try journal.openEntries().first?.leaseRemaining ?? 0) <= 0 })
        let late = try Corsano.run(common + b)
        #expect(late.status == 3, "\(late.stderr)")  // repaired, then no cuff reading
        #expect(late.stderr.contains("left in plan nibpCalibration by bp-init (gateway gw-a pid \(entry.owner.pid)"), "\(late.stderr)")
        #expect(late.lines.first { $0.contains(#""event":"planRestored""#) }?.contains(#""why":"journal""#) == true)
        #expect(try await BPInitServedTests.plan(of: bracelet) == BraceletPlan("monitoring"))
        #expect(try journal.openEntries().isEmpty)
        // The audit log names each run's gateway and filters by it.
        let historyA = try Corsano.run(["history", "--json", "--state", database.uri, "--gateway", "gw-a"])
        #expect(historyA.lines.count == 1)
        #expect(historyA.lines.first?.contains(#""gateway":"gw-a""#) == true)
        #expect(historyA.lines.first?.contains(#""result":null"#) == true, "killed: no result")
        // B's repair appended the record that A's killed run had its plan restored.
        let historyB = try Corsano.run(["history", "--json", "--state", database.uri, "--gateway", "gw-b"])
        #expect(historyB.lines.count == 2)
        #expect(historyB.lines.first?.contains(#""flow":"plan-restore""#) == true, "\(historyB.stdout)")
        #expect(historyB.lines.last?.contains(#""kind":"cuffError""#) == true)
        let all = try Corsano.run(["history", "--json", "--state", database.uri])
        #expect(all.lines.first?.contains(#""planRestored":{"#) == true, "\(all.stdout)")
    }

    /// The server ends the run's connection while the flow waits: the next transaction runs on a
    /// new connection, so the stop is what ends the run (130), its plan restored.
    @Test func aConnectionLostDuringAFlowIsReplacedAndThePlanRestored() async throws {
        let (server, database, bracelet, cuff) = try Self.heldAtTheFirstMeasurement()
        defer { bracelet.stop() }
        let run = try LiveCorsano(["bp-init", "--bracelet", bracelet.listening, "--state", database.uri, "--cuff", cuff] + E.now,
                                  env: [:])
        #expect(run.waitForLine(containing: #""step":"measurementRecorded""#))
        try server.execute("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = '\(database.name)' AND application_name = 'corsano'
            """)
        run.signal(SIGINT)
        let (status, lines, stderr) = run.finish()
        #expect(status == 130, "\(stderr)")
        #expect(E.result(lines) == #"{"kind":"cancelledByUser"}"#, "the result is written first")
        #expect(E.names(lines).suffix(3) == ["planRestored", "readings", "finished"])
        #expect(try await BPInitServedTests.plan(of: bracelet) == BraceletPlan("monitoring"))
    }

    /// A stop signal while a claim waits on another writer's lock (here: a session holding the
    /// seen-set table in SHARE mode) ends the run at once with the signal's status: the claim is
    /// cancelled on the server, the batch's lines are neither written nor claimed, and a later
    /// run hands every reading on. Before, the run waited for the other writer, signal or not.
    @Test func aStopSignalCancelsAClaimWaitingOnAnotherWritersLock() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-pgcancel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("readings.jsonl")
        try ((0..<10_000).map(Self.reading).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let args = ["replay-filter", "--state", database.uri, "--max-reading-age", "none", file.path]
        #expect(try Corsano.run(["replay-filter", "--state", database.uri], stdin: "").status == 0)  // the schema

        let holder = try StreamedProcess(URL(fileURLWithPath: "/usr/bin/psql"), ["-X", "-q", "-v", "ON_ERROR_STOP=1", database.uri])
        defer { holder.signal(SIGKILL); holder.finish(seconds: 5) }
        holder.send("BEGIN; LOCK TABLE seen_reading IN SHARE MODE; SELECT 'locked';")
        #expect(holder.stdout.waitFor("locked"))
        let run = try StreamedProcess.corsano(args, env: [:])
        let waiting = Self.waitsOnALock(server, database: database.name)
        try #require(waiting, "the claim never waited on the lock")
        run.signal(SIGTERM)
        #expect(run.finish(seconds: 20) == 143, "\(run.stderr.text)")
        #expect(run.stdout.lines.isEmpty)
        #expect(run.stderr.text.contains("replay-filter: stopped while the seen-set waited on the state store"), "\(run.stderr.text)")
        #expect(run.stderr.text.contains("replay-filter: read "), "\(run.stderr.text)")

        holder.send("ROLLBACK;")
        let again = try Corsano.run(args)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.lines.count == 10_000, "no claim of the stopped run holds")
    }

    @Test(arguments: ["replay-filter", "bp-init", "history", "state migrate"])
    func aServerThatIsDownIs74NamingItWithoutThePassword(command: String) throws {
        let words = command.split(separator: " ").map(String.init)
        let uri = "postgresql://lab:Cuff-S3cret@127.0.0.1:1/corsano"
        let args: [String]
        switch command {
        case "state migrate":
            let source = try E.directory().appendingPathComponent("s.sqlite3").path
            _ = try SQLiteStore(path: source)
            args = words + ["--from", source, "--to", uri]
        case "bp-init": args = words + ["--no-preparation", "--cuff", "/dev/null", "--state", uri]
        default: args = words + ["--state", uri]
        }
        // A refused connection is retried as a restarting server's would be, within --store-wait, then 75.
        let r = try Corsano.run(args, stdin: "", env: ["PGPASSWORD": "Env-S3cret", "CORSANO_STORE_WAIT": "1"])
        #expect(r.status == 75, "\(r.stderr)")
        #expect(r.stderr.contains("state store busy: postgresql://lab@127.0.0.1:1/corsano:"), "\(r.stderr)")
        #expect(!r.stderr.contains("S3cret") && !r.stdout.contains("S3cret"), "\(r.stderr)")
        // From CORSANO_STATE too, with the password only in the environment.
        let fromEnv = try Corsano.run(Array(args.prefix { $0 != "--state" }), stdin: "",
                                      env: ["CORSANO_STATE": "postgres://lab@127.0.0.1:1/corsano", "PGPASSWORD": "Env-S3cret",
                                            "CORSANO_STORE_WAIT": "1"])
        if command != "state migrate" {
            #expect(fromEnv.status == 75, "\(fromEnv.stderr)")
            #expect(!fromEnv.stderr.contains("S3cret"))
        }
    }

    @Test func migrateCopiesASQLiteStoreOntoTheServerAndASecondRunChangesNothing() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let dir = try E.directory()
        let sqlite = dir.appendingPathComponent("state.sqlite3").path
        // A SQLite store with a calibration run and a seen-set scope.
        let cuff = try E.file(dir, "cuff.jsonl", E.ingestedSession)
        let calibrated = try Corsano.run(["bp-init", "--cuff", cuff, "--state", sqlite, "--gateway", "gw-1"] + E.now)
        #expect(calibrated.status == 0, "\(calibrated.stderr)")
        let readings = try E.file(dir, "r.jsonl", (0..<500).map(Self.reading).joined(separator: "\n") + "\n")
        let filtered = try Corsano.run(["replay-filter", "--state", sqlite, "--scope", "m1", "--max-reading-age", "none", readings])
        #expect(filtered.lines.count == 500)

        let first = try Corsano.run(["state", "migrate", "--from", sqlite, "--to", database.uri])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("seen keys 500 (500 new), journal entries 0 (0 new), audit runs 1 (1 new), profiles 0 (0 new)"),
                "\(first.stderr)")
        let second = try Corsano.run(["state", "migrate", "--from", sqlite, "--to", database.uri])
        #expect(second.status == 0)
        #expect(second.stderr.contains("seen keys 500 (0 new), journal entries 0 (0 new), audit runs 1 (0 new), profiles 0 (0 new)"),
                "\(second.stderr)")
        // The same history from either store, and the migrated seen-set drops the same records.
        let fromSQLite = try Corsano.run(["history", "--json", "--state", sqlite])
        let fromServer = try Corsano.run(["history", "--json", "--state", database.uri])
        #expect(fromServer.status == 0)
        #expect(fromServer.stdout == fromSQLite.stdout)
        #expect(fromServer.stdout.contains(#""gateway":"gw-1""#))
        let again = try Corsano.run(["replay-filter", "--state", database.uri, "--scope", "m1", "--max-reading-age", "none", readings])
        #expect(again.lines.isEmpty)
        #expect(again.stderr.contains("dropped 500 (duplicate: 500)"))
        // The source is only read: a missing one is 66, and nothing is created.
        let missing = dir.appendingPathComponent("nope.sqlite3").path
        let r = try Corsano.run(["state", "migrate", "--from", missing, "--to", database.uri])
        #expect(r.status == 66)
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
