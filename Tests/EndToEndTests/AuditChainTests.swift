import CorsanoKit
import Foundation
import Testing
import TestSupport

/// The audit log's hash chain and signatures, on both engines, through the built
/// binary: a clean store verifies; an edit made with the sqlite3 shell or psql is found; an edit
/// with the chain recomputed without the key is found by the HMAC and by `--expect`; 4 writer
/// processes of 2 gateways (separate configuration directories, the lab's one key) keep a valid
/// chain; a gateway with another key is refused (74); `state migrate` verifies on arrival; a
/// signature is recorded, shown and refused on an unfinished run.
@Suite struct AuditChainTests {
    typealias E = BPInitE2E

    /// One engine's store: where it is, and how a person edits it with the engine's own shell.
    struct Engine: CustomTestStringConvertible, Sendable {
        var name: String
        var make: @Sendable () throws -> (state: String, shell: @Sendable (String) throws -> Void)
        var testDescription: String { name }
    }

    static let engines = [
        Engine(name: "sqlite") {
            let state = try E.directory().appendingPathComponent("state.sqlite3").path
            return (state, { sql in try shell("/usr/bin/sqlite3", [state, sql]) })
        },
        Engine(name: "postgres") {
            let database = try ThrowawayPostgres.shared().createDatabase()
            return (database.uri, { sql in try shell("/usr/bin/psql", ["-v", "ON_ERROR_STOP=1", "-q", "-d", database.uri, "-c", sql]) })
        },
    ]

    static func shell(_ tool: String, _ args: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = args
        let r = try Shell.capture(process, stdin: "")
        #expect(r.status == 0, "\(tool): \(r.stderr)")
    }

    /// A key file (0600) holding `text`, in a fresh configuration directory.
    static func keyFile(_ text: String = "lab-key-0123456789abcdef0123456789abcdef") throws -> (config: String, path: String) {
        let config = try E.directory().path
        try FileManager.default.createDirectory(atPath: config + "/corsano", withIntermediateDirectories: true)
        let path = config + "/corsano/audit.key"
        FileManager.default.createFile(atPath: path, contents: Data((text + "\n").utf8), attributes: [.posixPermissions: 0o600])
        return (config, path)
    }

    /// A store with one finished bp-init run recorded with `key`; returns the run id.
    static func calibrated(_ state: String, key: String) throws -> String {
        let run = try Corsano.run(["bp-init", "--json", "--state", state, "--audit-key", key] + E.now, stdin: E.ingestedSession)
        #expect(run.status == 0, "\(run.stderr)")
        let runs = try Corsano.run(["history", "--json", "--state", state]).stdout.split(separator: "\n")
        let first = try #require(runs.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        return try #require(first["run"] as? String)
    }

    static func verify(_ state: String, key: String, _ extra: [String] = []) throws -> (status: Int32, json: [String: Any], stderr: String) {
        let r = try Corsano.run(["history", "--verify", "--json", "--state", state, "--audit-key", key] + extra)
        let json = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]) ?? [:]
        return (r.status, json, r.stderr)
    }

    @Test(arguments: engines)
    func aCleanStorePassesAndAnEditWithTheEnginesShellIsFound(engine: Engine) throws {
        let (state, shell) = try engine.make()
        let key = try Self.keyFile().path
        let run = try Self.calibrated(state, key: key)
        let clean = try Self.verify(state, key: key)
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.json["verified"] as? Bool == true)
        let records = try #require(clean.json["records"] as? Int)
        #expect(records > 3)  // chainStart, begin, readings, finish
        #expect((clean.json["head"] as? String)?.count == 16)
        // A rejected reading turned accepted, as someone with the database's password would.
        try shell("UPDATE audit_reading SET accepted = NOT accepted WHERE run = '\(run)' AND attempt = 1 AND idx = 1")
        let edited = try Self.verify(state, key: key)
        #expect(edited.status == 1)
        #expect(edited.json["verified"] as? Bool == false)
        let bad = try #require(edited.json["firstBad"] as? [String: Any])
        #expect(bad["run"] as? String == run)
        #expect(edited.stderr.contains("audit chain broken at record \(bad["record"] as? Int ?? -1) (run \(run))"), "\(edited.stderr)")
        #expect(edited.stderr.contains("no longer match"))
    }

    @Test(arguments: engines)
    func anEditWithTheChainRecomputedWithoutTheKeyIsFoundByTheHMACAndByExpect(engine: Engine) throws {
        let (state, shell) = try engine.make()
        let key = try Self.keyFile().path
        let run = try Self.calibrated(state, key: key)
        let head = try #require(try Self.verify(state, key: key).json["head"] as? String)
        // The forger edits the result and recomputes every hash from there on, as the chain's
        // encoding is public; the HMAC they cannot make without the key.
        let store = try StateLocation.openForTest(state)
        var runs = try store.auditRuns(AuditFilter(run: run))
        runs[0].resultJSON = runs[0].resultJSON?.replacingOccurrences(of: "\"success\"", with: "\"SUCCESS\"")
        let chain = try store.auditChain()
        let last = try #require(chain.last { $0.run == run })
        var prev = chain.first { $0.seq == last.seq - 1 }?.hash ?? ""
        var statements = ["UPDATE audit_run SET result = '\(runs[0].resultJSON!)' WHERE run = '\(run)'"]
        for record in chain where record.seq >= last.seq {
            let body = record.seq == last.seq
                ? JSONValue.object([("kind", .string(record.kind)), ("state", AuditChain.canonical(runs[0]))]).serialized : record.body
            let hash = SHA256.hex(Array("corsano-audit-v1\n\(record.seq)\n\(record.kind)\n\(record.run)\n\(prev)\n\(body)".utf8))
            statements.append("UPDATE audit_chain SET body = '\(body.replacingOccurrences(of: "'", with: "''"))', prev = '\(prev)', hash = '\(hash)' WHERE seq = \(record.seq)")
            prev = hash
        }
        for sql in statements { try shell(sql) }
        // Without the key the rewrite is consistent: only the anchor kept elsewhere finds it.
        let unkeyed = try Corsano.run(["history", "--verify", "--json", "--state", state, "--hashes-only"])
        #expect(unkeyed.status == 0, "\(unkeyed.stderr)")
        #expect(unkeyed.stderr.contains("hashes only, HMAC not checked"))
        // A keyed store is not checked without its key unless asked for the hashes alone; no key is made.
        let missing = try Corsano.run(["history", "--verify", "--json", "--state", state, "--audit-key", "/nonexistent/audit.key"])
        #expect(missing.status == 74, "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/nonexistent/audit.key"))
        let expect = try Corsano.run(["history", "--verify", "--json", "--state", state, "--hashes-only", "--expect", String(head.prefix(12))])
        #expect(expect.status == 1, "\(expect.stdout)")
        #expect(expect.stderr.contains("the expected head \(head.prefix(12)) is not on the chain: rewritten or rolled back"), "\(expect.stderr)")
        let keyed = try Self.verify(state, key: key)
        #expect(keyed.status == 1)
        #expect((keyed.json["firstBad"] as? [String: Any])?["record"] as? Int == Int(last.seq))
        #expect(keyed.stderr.contains("HMAC does not match"), "\(keyed.stderr)")
    }

    @Test(arguments: engines)
    func fourWritersOfTwoGatewaysKeepAValidChainAndAnotherKeyIsRefused(engine: Engine) throws {
        let (state, _) = try engine.make()
        let lab = "the-labs-one-audit-key-0123456789abcdef"
        let gatewayA = try Self.keyFile(lab), gatewayB = try Self.keyFile(lab)
        let run = try Self.calibrated(state, key: gatewayA.path)
        // 4 processes at once, each signing 5 times: 2 on gateway A, 2 on gateway B.
        let writers = try (0..<4).map { i in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "for n in 1 2 3 4 5; do \"$0\" history sign --json --state \"$1\" --run \"$2\" --name \"Writer \(i)-$n\" "
                                 + "--meaning review --gateway gw-\(i % 2) >/dev/null || exit 1; done", Corsano.binary.path, state, run]
            var environment = Corsano.inherited
            environment["XDG_CONFIG_HOME"] = i % 2 == 0 ? gatewayA.config : gatewayB.config
            process.environment = environment
            try process.run()
            return process
        }
        for writer in writers { writer.waitUntilExit() }
        #expect(writers.map(\.terminationStatus) == [0, 0, 0, 0])
        let verified = try Self.verify(state, key: gatewayA.path)
        #expect(verified.status == 0, "\(verified.stderr)")
        let history = try Corsano.run(["history", "--json", "--state", state])
        #expect(history.stdout.components(separatedBy: "\"meaning\":\"review\"").count - 1 == 20)
        // A third gateway with a key of its own is refused before it writes anything.
        let other = try Self.keyFile("another-gateways-own-key-0123456789")
        let refused = try Corsano.run(["history", "sign", "--state", state, "--run", run, "--name", "X", "--meaning", "review"],
                                      env: ["XDG_CONFIG_HOME": other.config])
        #expect(refused.status == 74)
        #expect(refused.stderr.contains("keyed with key \(AuditKey(bytes: Array(lab.utf8)).id)"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--audit-key"))
        // And one with no key at all does not get a new one made for it.
        let bare = try E.directory().path
        let missing = try Corsano.run(["history", "sign", "--state", state, "--run", run, "--name", "X", "--meaning", "review"],
                                      env: ["XDG_CONFIG_HOME": bare])
        #expect(missing.status == 74, "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: bare + "/corsano/audit.key"))
        #expect(try Self.verify(state, key: gatewayA.path).json["records"] as? Int == verified.json["records"] as? Int)
    }

    @Test func theFirstAppendCreatesA0600KeyAndAKeyOthersMayReadIsRefused() throws {
        let config = try E.directory().path
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let run = try Corsano.run(["bp-init", "--json", "--state", state] + E.now, stdin: E.ingestedSession, env: ["XDG_CONFIG_HOME": config])
        #expect(run.status == 0, "\(run.stderr)")
        let path = config + "/corsano/audit.key"
        #expect(run.stderr.contains("audit key created at \(path) (id "), "\(run.stderr)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(try Self.verify(state, key: path).json["verified"] as? Bool == true)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let loose = try Corsano.run(["bp-init", "--json", "--state", state] + E.now, stdin: E.ingestedSession, env: ["XDG_CONFIG_HOME": config])
        #expect(loose.status == 74)
        #expect(loose.stderr.contains("audit key \(path): group or others may read it (mode 644); chmod 600 \(path)"), "\(loose.stderr)")
    }

    @Test func stateMigrateVerifiesOnArrivalAndRefusesABrokenSource() throws {
        let key = try Self.keyFile().path
        let source = try E.directory().appendingPathComponent("gateway.sqlite3").path
        let run = try Self.calibrated(source, key: key)
        let database = try ThrowawayPostgres.shared().createDatabase()
        let migrate = try Corsano.run(["state", "migrate", "--from", source, "--to", database.uri, "--audit-key", key])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stderr.contains("audit chain verified:"), "\(migrate.stderr)")
        #expect(try Self.verify(database.uri, key: key).status == 0)
        // A source edited by hand is not carried on.
        try Self.shell("/usr/bin/sqlite3", [source, "UPDATE audit_run SET bracelet_serial = 'OTHER' WHERE run = '\(run)'"])
        let other = try ThrowawayPostgres.shared().createDatabase()
        let broken = try Corsano.run(["state", "migrate", "--from", source, "--to", other.uri, "--audit-key", key])
        #expect(broken.status == 65)
        #expect(broken.stderr.contains("audit chain broken at record"), "\(broken.stderr)")
    }

    @Test(arguments: engines)
    func aSignatureIsRecordedShownAndARepairLeavesTheSignedRunUntouched(engine: Engine) throws {
        let (state, _) = try engine.make()
        let key = try Self.keyFile().path
        let run = try Self.calibrated(state, key: key)
        let sign = try Corsano.run(["history", "sign", "--json", "--state", state, "--audit-key", key, "--run", run,
                                    "--name", "Dr. Ada Lovelace", "--meaning", "approval", "--gateway", "ward-3"])
        #expect(sign.status == 0, "\(sign.stderr)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(sign.stdout.utf8)) as? [String: Any])
        #expect(record["name"] as? String == "Dr. Ada Lovelace")
        #expect(record["meaning"] as? String == "approval")
        #expect(record["gateway"] as? String == "ward-3")
        #expect(record["osUser"] as? String == "root")
        #expect((record["runHash"] as? String)?.count == 64)
        #expect(record["head"] as? String == (try Self.verify(state, key: key).json["head"] as? String))
        // Shown with the run, in JSON and text, and not as a run of its own.
        let json = try Corsano.run(["history", "--json", "--state", state]).stdout.split(separator: "\n")
        #expect(json.count == 1)
        #expect(json[0].contains("\"signatures\":[{\"record\":\"\(run).signature.1\",\"name\":\"Dr. Ada Lovelace\""))
        let text = try Corsano.run(["history", "--text", "--state", state]).stdout
        #expect(text.contains("Signed (approval) by Dr. Ada Lovelace, OS user root on ward-3 at "), "\(text)")
        // FHIR: a Provenance of the signer whose target is the run's Procedure.
        let fhir = try Corsano.run(["history", "--format", "fhir", "--state", state]).stdout
        let provenance = try #require(fhir.split(separator: "\n").first { $0.contains("\"signature\":[") })
        #expect(provenance.contains("\"who\":{\"display\":\"Dr. Ada Lovelace (OS user root on ward-3)\"}"), "\(provenance)")
        #expect(provenance.contains("\"type\":[{\"display\":\"approval\"}]"))
        // Unknown run 66, unfinished run 75.
        let unknown = try Corsano.run(["history", "sign", "--state", state, "--audit-key", key, "--run", "nope", "--name", "A", "--meaning", "review"])
        #expect(unknown.status == 66)
        let store = try StateLocation.openForTest(state)
        let log = AuditLog(store: store, gateway: "ward-3", key: AuditKey(bytes: Array("lab-key-0123456789abcdef0123456789abcdef".utf8)))
        let bracelet = BraceletIdentity(model: "287-2", firmware: "2.4.1", serial: "CS-SIGNED")
        try log.begin(run: "running", flow: .bpInit, bracelet: bracelet, at: Instant(secondsSinceEpoch: 1_800_000_000), config: .object([]))
        let unfinished = try Corsano.run(["history", "sign", "--state", state, "--audit-key", key, "--run", "running", "--name", "A",
                                          "--meaning", "review"])
        #expect(unfinished.status == 75)
        #expect(unfinished.stderr.contains("run running has not ended; sign it when it ends"))
        // A later plan restore appends a record; the signed run's rows stay as signed.
        let before = try store.auditRuns(AuditFilter(run: run))
        try log.recordPlanRestored(bracelet: before[0].bracelet, previousPlan: BraceletPlan("default"), why: .journal, by: "next", at: Instant(secondsSinceEpoch: 1_800_000_100))
        #expect(try store.auditRuns(AuditFilter(run: run)) == before)
        #expect(AuditChain.runHash(before[0]) == record["runHash"] as? String)
        #expect(try Self.verify(state, key: key).status == 0)
    }
}

enum StateLocation {
    /// Opens a test's store in-process (a SQLite path or a PostgreSQL URI).
    static func openForTest(_ state: String) throws -> any StateStore {
        state.hasPrefix("postgresql://") ? try PostgresStore(uri: state) : try SQLiteStore(path: state)
    }
}
