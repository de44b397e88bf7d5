import CorsanoKit
import Foundation
import Testing
import TestSupport

/// The audit chain attacked as someone with write access to the store would, and read as an
/// auditor would (docs/design.md "Audit chain"), through the built binary on both engines: a chain
/// whose MACs were stripped and whose hashes were recomputed from the public preimage is found
/// with the key and carried on by nothing; `--expect` passes while the chain extends a kept head
/// and names a roll-back or a rewrite; a wrong key stops bp-init before the bracelet; signatures
/// and documents show only what verifies; bidi controls from outside are shown escaped.
@Suite struct AuditForgeryTests {
    typealias E = BPInitE2E
    typealias A = AuditChainTests

    static let labKey = "lab-key-0123456789abcdef0123456789abcdef"

    /// Every error that reaches a person has a written message, never a Swift debug dump.
    static func written(_ stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(stderr.firstMatch(of: /Optional\(|\b[A-Z][A-Za-z0-9]*\([a-z][A-Za-z0-9]*:/) == nil, "a debug dump: \(stderr)",
                sourceLocation: sourceLocation)
    }

    static func quoted(_ text: String) -> String { text.replacingOccurrences(of: "'", with: "''") }

    /// Rewrites the store as a forger who can write it: `sql` edits run `run`'s rows, `edit` the
    /// same in its canonical state; every chain record from `from` on is re-hashed from the public
    /// preimage (`corsano-audit-v1\nseq\nkind\nrun\nprev\nbody`) and, without `key`, loses its MAC
    /// and key id; with `key` (a key holder) it is sealed again.
    static func forge(_ state: String, shell: (String) throws -> Void, run: String, sql: [String], from: Int64 = 1,
                      key: AuditKey? = nil, edit: (inout AuditRun) -> Void) throws {
        let store = try StateLocation.openForTest(state)
        var edited = try #require(try store.auditRuns(AuditFilter(run: run)).first)
        edit(&edited)
        let chain = try store.auditChain()
        let last = try #require(chain.last { $0.run == run }).seq
        var statements = sql
        var prev = chain.first { $0.seq == from - 1 }?.hash ?? ""
        for record in chain where record.seq >= from {
            let body = record.seq == last
                ? JSONValue.object([("kind", .string(record.kind)), ("state", AuditChain.canonical(edited))]).serialized : record.body
            let hash = SHA256.hex(Array("corsano-audit-v1\n\(record.seq)\n\(record.kind)\n\(record.run)\n\(prev)\n\(body)".utf8))
            let mac = key.map { "'" + HMACSHA256.hex(key: $0.bytes, Array(hash.utf8)) + "'" } ?? "NULL"
            statements.append("UPDATE audit_chain SET body = '\(quoted(body))', prev = '\(prev)', hash = '\(hash)', mac = \(mac), "
                              + "key_id = \(key.map { "'\($0.id)'" } ?? "NULL") WHERE seq = \(record.seq)")
            prev = hash
        }
        for statement in statements { try shell(statement) }
    }

    /// A finished run's result turned from success into failedAfterRetries, in SQL and in its state.
    static func failRun(_ run: String) -> (sql: [String], edit: (inout AuditRun) -> Void) {
        (["UPDATE audit_run SET result = replace(result, '\"success\"', '\"failedAfterRetries\"') WHERE run = '\(run)'"],
         { $0.resultJSON = $0.resultJSON?.replacingOccurrences(of: "\"success\"", with: "\"failedAfterRetries\"") })
    }

    /// The chain head as kept elsewhere (`RECORD:HEAD`), and its record number.
    static func keptHead(_ state: String, key: String) throws -> (text: String, record: Int) {
        let v = try A.verify(state, key: key)
        let records = try #require(v.json["records"] as? Int), head = try #require(v.json["head"] as? String)
        return ("\(records):\(head)", records)
    }

    /// A finished run recorded in-process through the audit log with the lab's key.
    static func recordRun(_ state: String, id: String, serial: String = "CS-OTHER", result: String = #"{"kind":"success","measurementCount":2}"#) throws {
        let log = AuditLog(store: try StateLocation.openForTest(state), gateway: "ward-3", key: AuditKey(bytes: Array(labKey.utf8)))
        let bracelet = BraceletIdentity(model: "287-2", firmware: "7.4", serial: serial)
        let at = Instant(secondsSinceEpoch: 1_800_000_000)
        try log.begin(run: id, flow: .bpInit, bracelet: bracelet, at: at, config: .object([]))
        try log.finish(run: id, at: at, result: try JSONValue.parse(Array(result.utf8)))
    }

    @Test(arguments: A.engines)
    func aFullStripIsFoundNamingRecord1AndNothingCarriesItOn(engine: A.Engine) throws {
        let (state, shell) = try engine.make()
        let key = try A.keyFile(Self.labKey).path
        let run = try A.calibrated(state, key: key)
        let (sql, edit) = Self.failRun(run)
        try Self.forge(state, shell: shell, run: run, sql: sql, edit: edit)
        let verified = try A.verify(state, key: key)
        #expect(verified.status == 1, "\(verified.json)")
        #expect(verified.json["verified"] as? Bool == false)
        #expect((verified.json["firstBad"] as? [String: Any])?["record"] as? Int == 1)
        #expect(verified.stderr.contains("audit chain broken at record 1: it has no HMAC"), "\(verified.stderr)")
        // Without the key only the hashes can be checked, and it says so.
        let hashes = try Corsano.run(["history", "--verify", "--json", "--hashes-only", "--state", state])
        #expect(hashes.status == 0, "\(hashes.stderr)")
        #expect(hashes.stdout.contains(#""verified":"hashes-only""#), "\(hashes.stdout)")
        #expect(hashes.stderr.contains("hashes only, HMAC not checked"))
        // Nothing is appended to it with the key: that would seal the forgery.
        let sign = try Corsano.run(["history", "sign", "--state", state, "--audit-key", key, "--run", run, "--name", "Dr. X", "--meaning", "review"])
        #expect(sign.status == 74)
        #expect(sign.stderr.contains("none carries an HMAC"), "\(sign.stderr)")
        // state migrate refuses it: with the key (65), and without it (74).
        let target = try E.directory().appendingPathComponent("target.sqlite3").path
        let migrate = try Corsano.run(["state", "migrate", "--from", state, "--to", target, "--audit-key", key])
        #expect(migrate.status == 65, "\(migrate.stderr)")
        #expect(migrate.stderr.contains("audit chain broken at record 1 "), "\(migrate.stderr)")
        #expect(migrate.stderr.contains("nothing copied"))
        let bare = try Corsano.run(["state", "migrate", "--from", state, "--to", target, "--audit-key", "/nonexistent/audit.key"])
        #expect(bare.status == 74, "\(bare.stderr)")
        #expect(try StateLocation.openForTest(target).auditRuns(AuditFilter()).isEmpty)
        for stderr in [verified.stderr, sign.stderr, migrate.stderr, bare.stderr] { Self.written(stderr) }
    }

    @Test(arguments: A.engines)
    func aTailStripIsFoundAndRefusedOnAppend(engine: A.Engine) throws {
        let (state, shell) = try engine.make()
        let key = try A.keyFile(Self.labKey).path
        let run = try A.calibrated(state, key: key)
        let store = try StateLocation.openForTest(state)
        let last = try #require(try store.auditChain().last { $0.run == run }).seq
        let (sql, edit) = Self.failRun(run)
        try Self.forge(state, shell: shell, run: run, sql: sql, from: last, edit: edit)
        let verified = try A.verify(state, key: key)
        #expect(verified.status == 1)
        #expect((verified.json["firstBad"] as? [String: Any])?["record"] as? Int == Int(last))
        #expect(verified.stderr.contains("no HMAC although the chain was keyed before it"), "\(verified.stderr)")
        let append = try Corsano.run(["bp-init", "--json", "--state", state, "--audit-key", key] + E.now, stdin: E.ingestedSession)
        #expect(append.status == 74)
        #expect(append.stderr.contains("has no HMAC although record \(last - 1) before it has one"), "\(append.stderr)")
        #expect(E.events(append.lines).isEmpty, "nothing reached the bracelet")
        #expect(try store.auditChain().count == Int(last))
        Self.written(append.stderr)
    }

    @Test(arguments: A.engines)
    func expectPassesWhileTheChainExtendsTheHeadAndNamesARollbackOrARewrite(engine: A.Engine) throws {
        let (state, shell) = try engine.make()
        let key = try A.keyFile(Self.labKey).path
        let first = try A.calibrated(state, key: key)
        let kept1 = try Self.keptHead(state, key: key)
        try Self.recordRun(state, id: "second-run")
        let kept2 = try Self.keptHead(state, key: key)
        let sign = try Corsano.run(["history", "sign", "--state", state, "--audit-key", key, "--run", first, "--name", "Dr. A", "--meaning", "review"])
        #expect(sign.status == 0, "\(sign.stderr)")
        // Growth: both kept heads still hold, each saying how many records came after it.
        let grown = try A.verify(state, key: key, ["--expect", kept1.text])
        #expect(grown.status == 0, "\(grown.stderr)")
        let records = try #require(grown.json["records"] as? Int)
        let expect = try #require(grown.json["expect"] as? [String: Any])
        #expect(expect["record"] as? Int == kept1.record)
        #expect(expect["after"] as? Int == records - kept1.record)
        #expect(records - kept1.record == 3)  // begin and finish of the second run, the signature
        let text = try Corsano.run(["history", "--verify", "--text", "--state", state, "--audit-key", key, "--expect", kept2.text])
        #expect(text.status == 0)
        #expect(text.stdout.contains("the expected head is record \(kept2.record), 1 records after it"), "\(text.stdout)")
        // A key holder rewrites the first run and seals the chain again: consistent, but not the history kept.
        let (sql, edit) = Self.failRun(first)
        let store = try StateLocation.openForTest(state)
        let firstLast = try #require(try store.auditChain().last { $0.run == first }).seq
        try Self.forge(state, shell: shell, run: first, sql: sql, from: firstLast, key: AuditKey(bytes: Array(Self.labKey.utf8)), edit: edit)
        // The signature's run hash no longer matches it: the forger drops the signature too, so that only --expect can tell.
        try shell("DELETE FROM audit_run WHERE run = '\(first).signature.1'")
        try shell("DELETE FROM audit_chain WHERE seq = \(records)")
        let rewrite = try A.verify(state, key: key, ["--expect", kept2.text])
        #expect(rewrite.status == 1, "\(rewrite.json)")
        #expect(rewrite.stderr.contains("the expected head \(kept2.text) is not on the chain: rewritten (record \(kept2.record) is now "),
                "\(rewrite.stderr)")
        // Deleting the last run (its rows and its records) leaves a valid, shorter chain: rolled back.
        try shell("DELETE FROM audit_run WHERE run = 'second-run'")
        try shell("DELETE FROM audit_chain WHERE seq > \(kept1.record)")
        let clean = try A.verify(state, key: key)
        #expect(clean.status == 0, "\(clean.stderr)")
        let rolledBack = try A.verify(state, key: key, ["--expect", kept2.text])
        #expect(rolledBack.status == 1)
        #expect(rolledBack.stderr.contains("is not on the chain: rolled back (the chain ends at record \(kept1.record), before record \(kept2.record))"),
                "\(rolledBack.stderr)")
        for stderr in [rewrite.stderr, rolledBack.stderr] { Self.written(stderr) }
    }

    @Test func aSourceHeadVerifiesOnTheMigratedTarget() throws {
        let key = try A.keyFile(Self.labKey).path
        let source = try E.directory().appendingPathComponent("gateway.sqlite3").path
        _ = try A.calibrated(source, key: key)
        let kept = try Self.keptHead(source, key: key)
        let database = try ThrowawayPostgres.shared().createDatabase()
        let migrate = try Corsano.run(["state", "migrate", "--from", source, "--to", database.uri, "--audit-key", key])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stderr.contains("the source's head \(kept.text) verifies on it"), "\(migrate.stderr)")
        let through = try A.verify(database.uri, key: key, ["--expect", kept.text])
        #expect(through.status == 0, "\(through.stderr)")
        let expect = try #require(through.json["expect"] as? [String: Any])
        #expect(expect["migrated"] as? Bool == true)
        #expect(expect["after"] as? Int == 0)
        // A second run copies nothing and adds no second `migrated` record.
        let again = try Corsano.run(["state", "migrate", "--from", source, "--to", database.uri, "--audit-key", key])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try A.verify(database.uri, key: key).json["records"] as? Int == through.json["records"] as? Int)
        // A head the source never had does not pass through.
        let other = try A.verify(database.uri, key: key, ["--expect", "\(kept.record):0123456789abcdef"])
        #expect(other.status == 1)
    }

    @Test func aWrongKeyStopsBPInitBeforeTheBraceletAndChangesNoCalibration() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let lab = try A.keyFile(Self.labKey).path, other = try A.keyFile("another-gateways-own-key-0123456789").path
        let one = try MultiSetEndToEndTests.set(server, state: state, now: "2026-11-29T10:00:00Z", base: 120, extra: ["--audit-key", lab])
        #expect(one.status == 0, "\(one.stderr)")
        let store = try SQLiteStore(path: state)
        let calibrations = try store.calibrations(openOnly: false), records = try store.auditChain().count
        let wrong = try MultiSetEndToEndTests.set(server, state: state, now: "2026-11-29T11:02:00Z", base: 130, extra: ["--audit-key", other, "-vv"])
        #expect(wrong.status == 74)
        let labID = AuditKey(bytes: Array(Self.labKey.utf8)).id, otherID = AuditKey(bytes: Array("another-gateways-own-key-0123456789".utf8)).id
        #expect(wrong.stderr.contains("keyed with key \(labID), not with this audit key (\(otherID))"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("bridge: request"), "the bracelet was asked: \(wrong.stderr)")
        #expect(E.events(wrong.lines).isEmpty)
        #expect(try store.calibrations(openOnly: false) == calibrations)
        #expect(try store.auditChain().count == records)
        Self.written(wrong.stderr)
        // With the lab's key the same set runs, and it is set 2.
        let two = try MultiSetEndToEndTests.set(server, state: state, now: "2026-11-29T11:02:00Z", base: 130, extra: ["--audit-key", lab])
        #expect(two.status == 0, "\(two.stderr)")
        #expect((MultiSetEndToEndTests.finished(two.lines)?["result"] as? [String: Any])?["set"] as? Int == 2)
    }

    /// A set's calibration row commits with its run's finish record: when that record cannot be
    /// appended (here a trigger refuses it), the set is not counted and the next run takes it again.
    @Test func aSetIsNotCountedWithoutItsChainRecord() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let lab = try A.keyFile(Self.labKey).path
        let one = try MultiSetEndToEndTests.set(server, state: state, now: "2026-11-29T10:00:00Z", base: 120, extra: ["--audit-key", lab])
        #expect(one.status == 0, "\(one.stderr)")
        let store = try SQLiteStore(path: state)
        let calibrations = try store.calibrations(openOnly: false)
        try A.shell("/usr/bin/sqlite3", [state, "CREATE TRIGGER refuse_finish BEFORE INSERT ON audit_chain WHEN NEW.kind = 'finish' "
                                         + "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"])
        let refused = try MultiSetEndToEndTests.set(server, state: state, now: "2026-11-29T11:02:00Z", base: 130, extra: ["--audit-key", lab])
        #expect(refused.status == 74, "\(refused.stderr)")
        #expect(refused.stderr.contains("refused by the test"), "\(refused.stderr)")
        #expect(try store.calibrations(openOnly: false) == calibrations)
        Self.written(refused.stderr)
        try A.shell("/usr/bin/sqlite3", [state, "DROP TRIGGER refuse_finish"])
        let two = try MultiSetEndToEndTests.set(server, state: state, now: "2026-11-29T11:03:00Z", base: 130, extra: ["--audit-key", lab])
        #expect(two.status == 0, "\(two.stderr)")
        #expect((MultiSetEndToEndTests.finished(two.lines)?["result"] as? [String: Any])?["set"] as? Int == 2)
    }

    @Test func verifyWithoutTheKeyOfAKeyedStoreIs74() throws {
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let key = try A.keyFile(Self.labKey).path
        _ = try A.calibrated(state, key: key)
        let missing = try Corsano.run(["history", "--verify", "--json", "--state", state, "--audit-key", "/nonexistent/audit.key"])
        #expect(missing.status == 74)
        #expect(missing.stderr.contains("no key at /nonexistent/audit.key"), "\(missing.stderr)")
        #expect(missing.stderr.contains("--hashes-only"))
        Self.written(missing.stderr)
        let hashes = try Corsano.run(["history", "--verify", "--json", "--state", state, "--hashes-only"])
        #expect(hashes.status == 0)
        #expect(hashes.stdout.hasPrefix(#"{"verified":"hashes-only","#), "\(hashes.stdout)")
    }

    @Test func anEditedReadingIsRefusedByReportMarkedOnEveryPageAndInHistory() throws {
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let key = try A.keyFile(Self.labKey).path
        let run = try A.calibrated(state, key: key)
        let sign = try Corsano.run(["history", "sign", "--state", state, "--audit-key", key, "--run", run, "--name", "Dr. Ada Lovelace",
                                    "--meaning", "approval"])
        #expect(sign.status == 0, "\(sign.stderr)")
        // The first reading fed, systolic 128, edited to 118 with the sqlite3 shell.
        try A.shell("/usr/bin/sqlite3", [state, "UPDATE audit_reading SET reading = replace(reading, '\"systolic\":128', '\"systolic\":118'), "
                                         + "record = replace(record, '\"systolic\":128', '\"systolic\":118') WHERE run = '\(run)' AND attempt = 1 AND idx = 1"])
        #expect(try Corsano.run(["history", "--json", "--state", state]).stdout.contains(#""systolic":118"#))
        let dir = try E.directory()
        let path = dir.appendingPathComponent("c.html").path
        let refused = try Corsano.run(["report", "--state", state, "--audit-key", key, "--run", run, "--lang", "en", "--output", path])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("report: run \(run) does not verify against the audit chain"), "\(refused.stderr)")
        #expect(refused.stderr.contains("corsano history --verify"))
        #expect(!FileManager.default.fileExists(atPath: path))
        Self.written(refused.stderr)
        let marked = try Corsano.run(["report", "--state", state, "--audit-key", key, "--run", run, "--lang", "en", "--output", path,
                                      "--print-unverified"])
        #expect(marked.status == 0, "\(marked.stderr)")
        let pdf = dir.appendingPathComponent("c.pdf").path
        let printed = try Chromium.render(path, pdf: pdf)
        #expect(printed.status == 0, "\(printed.stderr)")
        let text = try Shell.run("pdftotext", ["-layout", pdf, "-"])
        let pages = text.stdout.split(separator: "\u{0C}").filter { !$0.allSatisfy(\.isWhitespace) }
        #expect(pages.count >= 2, "\(text.stdout)")
        for (i, page) in pages.enumerated() { #expect(page.contains("NOT VERIFIED"), "page \(i + 1): \(page)") }
        // history marks the run and its signature.
        let history = try Corsano.run(["history", "--text", "--state", state, "--audit-key", key])
        #expect(history.stdout.contains("  NOT VERIFIED: record "), "\(history.stdout)")
        #expect(history.stdout.contains("Signed (approval) by Dr. Ada Lovelace"))
        let signatureLine = history.stdout.split(separator: "\n").first { $0.contains("Signed (approval)") } ?? ""
        #expect(signatureLine.contains("NOT VERIFIED"), "\(signatureLine)")
        let json = try Corsano.run(["history", "--json", "--state", state, "--audit-key", key]).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["verified"] as? Bool == false)
        #expect((object["signatures"] as? [[String: Any]])?.first?["verified"] as? Bool == false)
        // FHIR carries no mark: the run is not exported.
        let fhir = try Corsano.run(["history", "--format", "fhir", "--state", state, "--audit-key", key])
        #expect(fhir.status == 65)
        #expect(fhir.stderr.contains("history: run \(run) does not verify against the audit chain"), "\(fhir.stderr)")
        #expect(fhir.stdout.isEmpty)
        // Without the key a sound store's certificate says what was checked.
        let clean = try E.directory().appendingPathComponent("clean.sqlite3").path
        let cleanRun = try A.calibrated(clean, key: key)
        let unkeyed = dir.appendingPathComponent("u.html").path
        let hashesOnly = try Corsano.run(["report", "--state", clean, "--audit-key", "/nonexistent/audit.key", "--run", cleanRun, "--lang", "en",
                                          "--output", unkeyed])
        #expect(hashesOnly.status == 0, "\(hashesOnly.stderr)")
        let html = try String(contentsOfFile: unkeyed, encoding: .utf8)
        #expect(html.contains("Hashes only, HMAC not checked"))
        #expect(!html.contains("NOT VERIFIED"))
    }

    @Test(arguments: A.engines)
    func signaturesSignOnlyWhatVerifies(engine: A.Engine) throws {
        let (state, shell) = try engine.make()
        let key = try A.keyFile(Self.labKey).path
        let run = try A.calibrated(state, key: key)
        let sign = { (run: String, name: String, meaning: String) in
            try Corsano.run(["history", "sign", "--state", state, "--audit-key", key, "--run", run, "--name", name, "--meaning", meaning])
        }
        #expect(try sign(run, "Dr. A", "approval").status == 0)
        let again = try sign(run, "Dr. A", "approval")
        #expect(again.status == 0)
        #expect(again.stderr.contains("already signed at "), "\(again.stderr)")
        let history = try Corsano.run(["history", "--json", "--state", state]).stdout
        #expect(history.components(separatedBy: "\"meaning\":\"approval\"").count - 1 == 1)
        // A run that did not succeed is not approved; reviewed, it may be.
        try Self.recordRun(state, id: "failed-run", result: #"{"kind":"failedAfterRetries","attemptCount":3}"#)
        let approval = try sign("failed-run", "Dr. A", "approval")
        #expect(approval.status == 65)
        #expect(approval.stderr.contains("run failed-run ended failedAfterRetries, not success"), "\(approval.stderr)")
        #expect(try sign("failed-run", "Dr. A", "review").status == 0)
        // An edited run is not signed.
        try shell("UPDATE audit_reading SET accepted = NOT accepted WHERE run = '\(run)' AND attempt = 1 AND idx = 1")
        let edited = try sign(run, "Dr. B", "review")
        #expect(edited.status == 65)
        #expect(edited.stderr.contains("run \(run) does not verify against the audit chain"), "\(edited.stderr)")
        for stderr in [approval.stderr, edited.stderr] { Self.written(stderr) }
    }

    @Test func aSerialHoldingARightToLeftOverrideIsShownEscaped() throws {
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let key = try A.keyFile(Self.labKey).path
        _ = try A.calibrated(state, key: key)
        try Self.recordRun(state, id: "bidi-run", serial: "Eve \u{202E}ecilA")
        let path = try E.directory().appendingPathComponent("c.html").path
        let report = try Corsano.run(["report", "--state", state, "--audit-key", key, "--run", "bidi-run", "--lang", "en", "--output", path])
        #expect(report.status == 0, "\(report.stderr)")
        let dom = try Chromium.dumpDOM(path)
        #expect(dom.status == 0, "\(dom.stderr)")
        #expect(dom.stdout.contains("Eve \\u{202e}ecilA"), "\(dom.stdout)")
        #expect(!dom.stdout.unicodeScalars.contains("\u{202E}"))
        // The same in history's text and in a diagnostic.
        let text = try Corsano.run(["history", "--text", "--state", state, "--audit-key", key]).stdout
        #expect(text.contains("Eve \\u{202e}ecilA"), "\(text)")
        #expect(!text.unicodeScalars.contains("\u{202E}"))
        let unknown = try Corsano.run(["report", "--state", state, "--audit-key", key, "--bracelet", "Mallory \u{2067}x"])
        #expect(unknown.status == 66)
        #expect(unknown.stderr.contains("Mallory \\u{2067}x"), "\(unknown.stderr)")
    }
}
