import CorsanoKit
import Foundation
import Testing
import TestSupport

/// Checks fail closed, and a store the user may only read can be read: `history --due`
/// on a store that does not exist (a typo, an unset CORSANO_STATE) or a PostgreSQL database
/// without corsano's tables exits 66 naming it; `history` reads a read-only file (`mode=ro`) and a
/// store in a read-only directory (`immutable=1`, saying a writer's changes are not seen), run as
/// an unprivileged user (the suite runs as root, which every permission lets through).
@Suite struct HistoryFailsClosedTests {
    typealias E = BPInitE2E

    @Test func dueOnAStoreThatDoesNotExistIs66NamingIt() throws {
        let state = try E.directory().appendingPathComponent("typo.sqlite3").path
        let due = try Corsano.run(["history", "--state", state, "--due", "28"])
        #expect(due.status == 66)
        #expect(due.stderr == "corsano: \(state): no state store there; --due cannot tell whether a bracelet is due "
                + "(check --state or CORSANO_STATE)\n", "\(due.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state))
        // CORSANO_STATE unset on a cron host: the default store, which this user never made.
        let home = try E.directory()
        let unset = try Corsano.run(["history", "--due", "28"], env: ["XDG_STATE_HOME": home.path])
        #expect(unset.status == 66, "\(unset.stderr)")
        #expect(unset.stderr.contains(home.path + "/corsano/state.sqlite3: no state store there"))
        // Plain history keeps its 0 and its note.
        let plain = try Corsano.run(["history", "--state", state])
        #expect(plain.status == 0)
        #expect(plain.stderr == "corsano: history: no runs recorded (no state store at \(state))\n")
    }

    @Test func dueOnAPostgresDatabaseWithoutCorsanosTablesIs66() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let due = try Corsano.run(["history", "--state", database.uri, "--due", "28"])
        #expect(due.status == 66, "\(due.stderr)")
        #expect(due.stderr.contains("the database has no corsano tables; --due cannot tell whether a bracelet is due"), "\(due.stderr)")
        #expect(due.stderr.contains(database.name))
        let plain = try Corsano.run(["history", "--state", database.uri])
        #expect(plain.status == 0, "\(plain.stderr)")
    }

    /// An auditor's copy of a store with one calibration: a backup made with `VACUUM INTO` (as
    /// backup tools do: a rollback-journal file, not WAL), alone in its directory, made by root.
    static func store() throws -> (dir: URL, state: String) {
        let live = try E.directory().appendingPathComponent("live.sqlite3").path
        let run = try Corsano.run(["bp-init", "--json", "--state", live] + E.now, stdin: E.ingestedSession)
        #expect(run.status == 0, "\(run.stderr)")
        let dir = try E.directory()
        let state = dir.appendingPathComponent("backup.sqlite3").path
        try SQLiteStore(path: live).execute("VACUUM INTO '\(state)'")
        return (dir, state)
    }

    static func listing(_ dir: URL) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() }

    /// `corsano ARGS` as the user `nobody` (setpriv), in a fresh environment of its own.
    static func asNobody(_ args: [String]) throws -> Corsano.Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", Corsano.binary.path] + args
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "C"]
        let r = try Shell.capture(process, stdin: "")
        return Corsano.Outcome(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    @Test func historyReadsAReadOnlyFileAsAnUnprivilegedUser() throws {
        let (dir, state) = try Self.store()
        chmod(dir.path, 0o777)  // the directory may be written: mode=ro
        chmod(state, 0o444)
        let before = try Self.listing(dir)
        let r = try Self.asNobody(["history", "--state", state, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 1 && r.stdout.contains(#""kind":"success""#), "\(r.stdout)")
        #expect(!r.stderr.contains("readonly"), "\(r.stderr)")
        #expect(try Self.listing(dir) == before, "reading wrote nothing beside the store")
        let due = try Self.asNobody(["history", "--state", state, "--due", "28"])
        #expect(due.status == 0, "\(due.stderr)")
        #expect(due.stderr.contains("0 of 1 bracelets due"), "\(due.stderr)")
    }

    @Test func historyReadsAStoreInAReadOnlyDirectoryAsAnUnprivilegedUser() throws {
        let (dir, state) = try Self.store()
        chmod(state, 0o644)
        chmod(dir.path, 0o555)  // a snapshot or a read-only mount: immutable=1
        defer { chmod(dir.path, 0o755) }
        let r = try Self.asNobody(["history", "--state", state, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == 1 && r.stdout.contains(#""kind":"success""#), "\(r.stdout)")
        #expect(r.stderr.contains("\(state): its directory cannot be written: reading the store as an immutable snapshot "
                                  + "(changes a writer makes meanwhile are not seen)"), "\(r.stderr)")
        let due = try Self.asNobody(["history", "--state", state, "--due", "28"])
        #expect(due.status == 0, "\(due.stderr)")
    }

    /// A snapshot whose WAL file still holds changes cannot be read immutably without missing
    /// them: refused (74), never read short.
    @Test func aReadOnlyDirectoryWithAWALFileIsRefusedNotReadShort() throws {
        let (dir, state) = try Self.store()
        try Data(repeating: 1, count: 4096).write(to: URL(fileURLWithPath: state + "-wal"))
        chmod(dir.path, 0o555)
        defer { chmod(dir.path, 0o755) }
        let r = try Self.asNobody(["history", "--state", state, "--json"])
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("\(state)-wal holds changes not yet in the store, which an immutable read would miss"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }
}
