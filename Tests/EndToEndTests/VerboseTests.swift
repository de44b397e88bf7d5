@testable import CorsanoCLI
import CorsanoKit
import Foundation
import TestSupport
import Testing

/// `-v`/`--verbose` (Build 1): at `-v` what corsano decided and why, at `-vv` every
/// bridge request and answer and every store statement with its duration, on stderr only, never
/// a password or a profile's contents; `-v` with `--quiet` is 64; `CORSANO_VERBOSE`; without it
/// the output is what it was (docs/design.md "Diagnostics").
@Suite struct VerboseTests {
    typealias E = BPInitE2E

    /// stderr's lines that a level above notices adds: `corsano: CATEGORY: …`.
    static func diagnosticLines(_ stderr: String) -> [Substring] {
        stderr.split(separator: "\n").filter { line in
            DiagnosticCategory.allCases.contains { line.hasPrefix("corsano: \($0.rawValue): ") }
        }
    }

    /// stderr without the lines `-v`/`-vv` add.
    static func withoutDiagnostics(_ stderr: String) -> [Substring] {
        let added = Set(diagnosticLines(stderr))
        return stderr.split(separator: "\n").filter { !added.contains($0) }
    }

    /// `statement 0.042 ms: SQL`: a duration in milliseconds, then the statement.
    static func isTimedStatement(_ line: Substring) -> Bool {
        line.wholeMatch(of: /corsano: store: statement [0-9]+(\.[0-9]+)? ms( failed \(SQLSTATE [0-9A-Z]+\))?: .+/) != nil
    }

    /// `bp-init` against a served simulator with a new SQLite store: its arguments and where it listens.
    static func withServedBPInit(_ body: (_ args: [String], _ server: ServedSimulator, _ state: String) throws -> Void) throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let dir = try E.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state.sqlite3").path
        try body(["bp-init", "--bracelet", server.listening, "--state", state] + E.now, server, state)
    }

    @Test func bpInitOverAServedBraceletSaysWhatItDecidedAtV() throws { try Self.withServedBPInit { args, server, state in
        let plain = try Corsano.run(args, stdin: E.ingestedSession)
        let verbose = try Corsano.run(args + ["-v"], stdin: E.ingestedSession)
        #expect(plain.status == 0 && verbose.status == 0, "\(verbose.stderr)")
        #expect(Self.diagnosticLines(plain.stderr).isEmpty, "no -v, no decisions: \(plain.stderr)")
        let said = Self.diagnosticLines(verbose.stderr).map(String.init)
        let expected = [
            "corsano: store: opened SQLite store \(state) (existing, schema version",
            "corsano: bridge: connected to the bridge at \(server.listening)",
            "corsano: bracelet: reached bracelet SIM-287-0001 (model 287-2, firmware 7.4) at \(server.listening); virtual clock; it can run bp-init",
            "corsano: plan: claimed bracelet SIM-287-0001 for bp-init: plan monitoring will be restored (journaled)",
            "corsano: plan: switching bracelet SIM-287-0001 from plan monitoring to nibpCalibration for bp-init",
            "corsano: flow: dropped the reading measured at 2026-11-27T18:11:55Z: replayed: measured more than the backdating allowance",
            "corsano: flow: dropped the reading measured at 2026-11-29T05:36:55Z: replayed:",
            "corsano: flow: dropped the reading measured at 2026-11-29T10:00:55Z: duplicate: the same instant and values",
            "corsano: plan: restored plan monitoring on bracelet SIM-287-0001 (bp-init ended)",
        ]
        #expect(said.count == expected.count, "\(said)")
        for (line, prefix) in zip(said, expected) { #expect(line.hasPrefix(prefix), "\(line)\nexpected \(prefix)") }
        #expect(said[5].hasSuffix("(host rule 2); requested at 2026-11-29T10:00:30Z, backdate 90 s, maximum reading age 900 s"))
        // -v adds lines and changes none: the rest of stderr and the events are the same.
        #expect(Self.withoutDiagnostics(verbose.stderr) == Self.withoutDiagnostics(plain.stderr).filter { !$0.contains("creating a new store") })
        #expect(E.events(verbose.lines).map { $0["event"] as? String } == E.events(plain.lines).map { $0["event"] as? String })
        #expect(!verbose.stderr.contains("bridge: request"), "exchanges are -vv's")
    } }

    @Test func bpInitOverAServedBraceletSaysEveryExchangeAtVV() throws { try Self.withServedBPInit { args, _, _ in
        let r = try Corsano.run(args + ["-vv"], stdin: E.ingestedSession)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = Self.diagnosticLines(r.stderr)
        // Every request is answered, by id, with its duration.
        let requests = lines.compactMap { $0.wholeMatch(of: /corsano: bridge: request (\w+) id (\d+)/) }.map { "\($0.1) id \($0.2)" }
        let answers = lines.compactMap { $0.wholeMatch(of: /corsano: bridge: answer (\w+) id (\d+): ok, [0-9.]+ ms/) }.map { "\($0.1) id \($0.2)" }
        #expect(requests.first == "identify id 1")
        #expect(requests == answers, "\(r.stderr)")
        for method in ["getPlan", "setPlan", "enterStep", "feedCalibrationReading", "calibrationVerdict"] {
            #expect(requests.contains { $0.hasPrefix(method + " ") }, "\(method)")
        }
        #expect(requests.filter { $0.hasPrefix("feedCalibrationReading ") }.count == 2)
        // Every store statement with its duration: the migrations, the journal, the audit chain.
        let statements = lines.filter { $0.hasPrefix("corsano: store: statement ") }
        #expect(statements.allSatisfy(Self.isTimedStatement), "\(statements.filter { !Self.isTimedStatement($0) })")
        for sql in ["PRAGMA journal_mode=WAL", "BEGIN IMMEDIATE", "INSERT OR IGNORE INTO plan_journal", "INSERT INTO audit_chain",
                    "DELETE FROM plan_journal", "COMMIT"] {
            #expect(statements.contains { $0.contains("ms: " + sql) }, "\(sql)")
        }
        // -vv says what -v says too.
        #expect(lines.contains { $0.hasPrefix("corsano: plan: restored plan monitoring") })
    } }

    /// A profile push at -vv names the methods, never the profile (a person's height, birthdate).
    @Test func vvNeverPrintsAProfilesContents() throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let r = try Corsano.run(["profile", "push", "-vv", "--bracelet", server.listening, "--no-state", "--json"] + WearingE2E.profileFlags)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("corsano: bridge: request pushProfile id "), "\(r.stderr)")
        // (Numbers alone could be a duration's digits, and the SQL names the columns: the values and JSON members say it.)
        for value in ["1990-04-01", "female", "\"skinTone\"", "\"height"] {
            #expect(!r.stderr.contains(value), "\(value) in \(r.stderr)")
        }
    }

    static let reading = #"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:15:00Z"}"#
    static let replayed = #"{"systolic":125,"diastolic":81,"pulse":66,"measuredAt":"2026-11-29T09:00:00Z"}"#
    static let filterInput = [replayed, reading, reading].joined(separator: "\n") + "\n"
    static let filterArgs = ["replay-filter", "--requested-at", "2026-11-29T10:14:30Z", "--now", "2026-11-29T10:20:00Z"]

    @Test func replayFilterOnAStoreSaysItsRulesAndEachDropAtVAndEachStatementAtVV() throws {
        let dir = try E.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state.sqlite3").path
        let plain = try Corsano.run(Self.filterArgs + ["--state", state, "--scope", "a"], stdin: Self.filterInput)
        #expect(plain.status == 0)
        #expect(plain.stderr == "corsano: state store \(state): creating a new store\n<stdin>:1: replayed\n<stdin>:3: duplicate\n"
                + "corsano: replay-filter: read 3, written 1, skipped 0, dropped 2 (replayed: 1, duplicate: 1), rejected 0\n")
        let verbose = try Corsano.run(Self.filterArgs + ["--state", state, "--scope", "b", "-v"], stdin: Self.filterInput)
        #expect(verbose.status == 0 && verbose.stdout == plain.stdout)
        let opened: String = "corsano: store: opened SQLite store " + state + " (existing, schema version 10, WAL journal, synchronous FULL)"
        #expect(Self.diagnosticLines(verbose.stderr).map(String.init) == [
            opened,
            "corsano: filter: host rules: requested at 2026-11-29T10:14:30Z, backdate 90 s, maximum reading age 900 s; seen-set scope b; "
                + "commits per 1048576 bytes of kept lines or 100 ms, durability full (each commit on disk before its lines are written)",
            "corsano: filter: <stdin>:1: dropped as replayed: " + DropReason.replayed.rule,
            "corsano: filter: <stdin>:3: dropped as duplicate: " + DropReason.duplicate.rule,
        ])
        #expect(Self.withoutDiagnostics(verbose.stderr) == Self.withoutDiagnostics(plain.stderr).filter { !$0.contains("creating a new store") })

        let vv = try Corsano.run(Self.filterArgs + ["--state", state, "--scope", "c", "-vv"], stdin: Self.filterInput)
        #expect(vv.status == 0 && vv.stdout == plain.stdout)
        let statements = Self.diagnosticLines(vv.stderr).filter { $0.hasPrefix("corsano: store: statement ") }
        #expect(statements.allSatisfy(Self.isTimedStatement), "\(vv.stderr)")
        for sql in ["PRAGMA user_version", "INSERT OR IGNORE INTO seen_scope (name) VALUES (?1)", "BEGIN IMMEDIATE",
                    "INSERT OR IGNORE INTO seen_reading", "COMMIT"] {
            #expect(statements.contains { $0.contains("ms: " + sql) }, "\(sql) in \(vv.stderr)")
        }
        // A statement's parameters are never printed (the scope name is one).
        #expect(!statements.contains { $0.contains("'c'") || $0.hasSuffix(" c") })
        #expect(Self.diagnosticLines(vv.stderr).contains { $0.hasPrefix("corsano: filter: <stdin>:3: dropped as duplicate") })
    }

    /// `-vv` on a PostgreSQL store whose role logs in with a password: in the URI (user info or
    /// `?password=`) or in PGPASSWORD. The run reaches statement logging; no spelling of the
    /// password is printed.
    @Test func vvNeverPrintsAPostgresPassword() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let role = "vv_" + database.name
        let password = "Vv/s3cr@t:pw%"
        try server.execute("CREATE ROLE \(role) LOGIN PASSWORD '\(password)'")
        try server.execute("ALTER DATABASE \(database.name) OWNER TO \(role)")
        let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let bare = "postgresql://\(role)@127.0.0.1:\(server.port)/\(database.name)"
        let runs: [(state: String, env: [String: String])] = [
            (server.tcpURI(database: database.name, user: role, password: password), [:]),
            (bare + "?password=" + encoded, [:]),
            (bare, ["PGPASSWORD": password]),
        ]
        for (i, run) in runs.enumerated() {
            let r = try Corsano.run(Self.filterArgs + ["-vv", "--state", run.state, "--scope", "s\(i)"], stdin: Self.filterInput, env: run.env)
            #expect(r.status == 0, "\(r.stderr)")
            let lines = Self.diagnosticLines(r.stderr)
            #expect(lines.contains { $0.hasPrefix("corsano: store: opened PostgreSQL store postgresql://\(role)@127.0.0.1:\(server.port)/\(database.name) (schema version") }, "\(r.stderr)")
            let statements = lines.filter { $0.hasPrefix("corsano: store: statement ") }
            #expect(statements.contains { $0.contains("ms: BEGIN; SELECT set_config('lock_timeout'") }, "\(r.stderr)")
            #expect(statements.contains { $0.contains("seen_reading") }, "\(r.stderr)")
            #expect(statements.allSatisfy(Self.isTimedStatement))
            for spelling in [password, encoded, "s3cr", "Vv/s", "%25"] {
                #expect(!r.stderr.contains(spelling) && !r.stdout.contains(spelling), "\(spelling) in \(r.stderr)")
            }
        }
    }

    @Test func verboseWithQuietIsAUsageError() throws {
        for args in [["-v", "--quiet"], ["--quiet", "-vv"], ["--verbose", "--quiet"], ["-v", "-v", "--quiet"]] {
            let r = try Corsano.run(["replay-filter", "--no-state"] + args, stdin: Self.filterInput)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr == "corsano: --quiet and --verbose exclude each other\n" || r.stderr == "corsano: --verbose and --quiet exclude each other\n",
                    "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        // Before the command, too.
        let before = try Corsano.run(["-v", "replay-filter", "--no-state", "--quiet"], stdin: Self.filterInput)
        #expect(before.status == 64, "\(before.stderr)")
    }

    @Test func theEnvironmentVariableSetsTheLevelAndQuietOverridesIt() throws {
        let args = Self.filterArgs + ["--no-state"]
        let one = try Corsano.run(args, stdin: Self.filterInput, env: ["CORSANO_VERBOSE": "1"])
        let dir = try E.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stored = Self.filterArgs + ["--state", dir.appendingPathComponent("state.sqlite3").path]
        let two = try Corsano.run(stored, stdin: Self.filterInput, env: ["CORSANO_VERBOSE": "2"])
        let zero = try Corsano.run(args, stdin: Self.filterInput, env: ["CORSANO_VERBOSE": "0"])
        let plain = try Corsano.run(args, stdin: Self.filterInput)
        #expect([one, two, zero, plain].allSatisfy { $0.status == 0 })
        let v = try Corsano.run(args + ["-v"], stdin: Self.filterInput)
        #expect(one.stderr == v.stderr)
        #expect(Self.diagnosticLines(one.stderr).contains { $0.hasPrefix("corsano: filter: host rules:") })
        #expect(!one.stderr.contains("store: statement"))
        #expect(two.stderr.contains("corsano: store: statement "), "\(two.stderr)")
        #expect(zero.stderr == plain.stderr)
        // The command line wins: -v over 2, --quiet over 1 (no counts, no decisions).
        let lower = try Corsano.run(args + ["-v"], stdin: Self.filterInput, env: ["CORSANO_VERBOSE": "2"])
        #expect(lower.stderr == v.stderr)
        let quiet = try Corsano.run(args + ["--quiet"], stdin: Self.filterInput, env: ["CORSANO_VERBOSE": "2"])
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "<stdin>:1: replayed\n<stdin>:3: duplicate\n")
        let bad = try Corsano.run(args, stdin: Self.filterInput, env: ["CORSANO_VERBOSE": "loud"])
        #expect(bad.status == 64)
        #expect(bad.stderr == "corsano: CORSANO_VERBOSE: bad value 'loud': expected 0, 1 or 2\n")
    }

    @Test func spellingsOfTheLevel() throws {
        let spec = try #require(CommandTable.lookup(["replay-filter"])?.0)
        for (words, level) in [(["-v"], DiagnosticLevel.info), (["--verbose"], .info), (["-vv"], .debug), (["-v", "-v"], .debug),
                               (["-v", "--verbose"], .debug), (["-vvv"], .debug), ([], nil)] {
            let parsed = try ArgumentParser.parse(words, as: spec, environment: [:])
            #expect(try CommandRunner.verbosity(parsed) == level, "\(words)")
        }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["-vx"], as: spec, environment: [:]) }
        // A value word that is `-vv` is an option, not the value.
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--scope", "-vv"], as: spec, environment: [:]) }
        // Every command with the common options takes it; help and completion do not.
        for spec in CommandTable.commands {
            let common = spec.words != ["help"] && spec.words != ["completion"]
            #expect((spec.option(.verbose) != nil) == common, "\(spec.name)")
        }
        // Before the command: the command's.
        let r = try Corsano.run(["-vv"] + Self.filterArgs + ["--no-state"], stdin: Self.filterInput)
        #expect(r.status == 0)
        #expect(r.stderr.contains("corsano: filter: host rules:"))
        #expect(try Corsano.run(["-v"]).status == 64, "alone, it is an option where a command belongs")
    }

    /// The REPL: `repl -v` sets the session's level; a line's own `-v` counts for that line.
    @Test func theREPLTakesVerbose() throws {
        let dir = try E.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try E.file(dir, "in.jsonl", Self.filterInput)
        let line = (Self.filterArgs + ["--no-state", input]).joined(separator: " ")
        let session = try Corsano.run(["repl", "--no-state", "-v"], stdin: line + "\n")
        #expect(session.status == 0, "\(session.stderr)")
        #expect(session.stderr.contains("corsano: filter: host rules:"), "\(session.stderr)")
        let one = try Corsano.run(["repl", "--no-state"], stdin: line + " -vv\n" + line + "\n")
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stderr.components(separatedBy: "corsano: filter: host rules:").count == 2, "only the line with -vv: \(one.stderr)")
    }
}
