import CPostgres
import Foundation
import Synchronization

/// A PostgreSQL server the tests start themselves (Debian `postgresql`: initdb and pg_ctl from
/// /usr/lib/postgresql/VERSION/bin, run as the `postgres` user when the tests run as root), in a
/// temporary directory, listening on its own unix socket and on 127.0.0.1 at a free port; stopped
/// and removed when the test process exits. Unix-socket connections are trusted; TCP ones need a
/// password (scram-sha-256), so the password paths run for real.
///
/// A test that needs it calls `ThrowawayPostgres.shared()`: it throws when the server cannot
/// start, so the test fails — it is never skipped.
public final class ThrowawayPostgres: Sendable {
    /// The temporary directory: data directory inside, and the unix socket.
    public let directory: String
    public let port: Int
    private let binaries: String
    private let durableCommits: Bool
    private let maxConnections: Int

    private static let started: Result<ThrowawayPostgres, ThrowawayPostgresError> = Result { try ThrowawayPostgres() }
        .mapError { $0 as? ThrowawayPostgresError ?? .cannotStart("\($0)") }

    /// The one server of this test process, started on first use.
    /// - Throws: `ThrowawayPostgresError` saying why it could not start.
    public static func shared() throws -> ThrowawayPostgres { try started.get() }

    /// A server of the calling test's own, for a test that stops and restarts it (the shared one
    /// must stay up); stopped and removed when the test process exits.
    /// - Throws: `ThrowawayPostgresError` saying why it could not start.
    /// Its commits are durable as a production server's (`synchronous_commit` on; `fsync` stays
    /// off: a stopped server, not a power cut, is what such a test stages).
    /// `maxConnections`: the server's `max_connections` (a lab's default is 100).
    public static func ownServer(maxConnections: Int = 100) throws -> ThrowawayPostgres {
        try ThrowawayPostgres(durableCommits: true, maxConnections: maxConnections)
    }

    /// Stops the server as a crash would (`pg_ctl stop -m immediate`: no checkpoint, backends
    /// killed; what was committed survives through WAL replay at the next start).
    public func stopImmediately() throws {
        try Self.run(asServerUser: true, binaries + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
    }

    /// Starts the server again on its port after `stopImmediately`.
    public func restart() throws {
        try Self.run(asServerUser: true, binaries + "/pg_ctl", Self.startArguments(directory: directory, port: port, durableCommits: durableCommits,
                                                                                  maxConnections: maxConnections))
    }

    /// Restarts the server as an operator would (`pg_ctl restart -m fast`: sessions ended with
    /// 57P01, a checkpoint, the server started again on its port).
    public func restartFast() throws {
        try Self.run(asServerUser: true, binaries + "/pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "-t", "60", "restart", "-o",
                                                               Self.startArguments(directory: directory, port: port, durableCommits: durableCommits,
                                                                                   maxConnections: maxConnections).last!])
    }

    private static func startArguments(directory: String, port: Int, durableCommits: Bool, maxConnections: Int) -> [String] {
        ["-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "start", "-o",
         "-k \(directory) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=\(durableCommits ? "on" : "off")"
            + " -c full_page_writes=off -c max_connections=\(maxConnections)"]
    }

    private init(durableCommits: Bool = false, maxConnections: Int = 100) throws {
        self.durableCommits = durableCommits
        self.maxConnections = maxConnections
        guard let bin = Self.findBinaries() else {
            throw ThrowawayPostgresError.cannotStart("no initdb under /usr/lib/postgresql/*/bin (apt-get install postgresql)")
        }
        binaries = bin
        // Under /tmp, not $TMPDIR: the server user must reach it, and a unix socket path is short.
        let template = "/tmp/corsano-pg.XXXXXX"
        var buffer = Array(template.utf8CString)
        guard let made = mkdtemp(&buffer) else { throw ThrowawayPostgresError.cannotStart("mkdtemp failed") }
        directory = String(cString: made)
        chmod(directory, 0o755)
        if geteuid() == 0 {
            guard let pw = getpwnam("postgres") else {
                throw ThrowawayPostgresError.cannotStart("running as root and there is no postgres user to run the server as")
            }
            chown(directory, pw.pointee.pw_uid, pw.pointee.pw_gid)
        }
        try Self.run(asServerUser: true, bin + "/initdb", ["-D", directory + "/data", "-U", "postgres", "--no-sync",
                                                          "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8"])
        var lastError = ""
        for candidate in Self.candidatePorts() {
            do {
                try Self.run(asServerUser: true, bin + "/pg_ctl", Self.startArguments(directory: directory, port: candidate, durableCommits: durableCommits,
                                                                                      maxConnections: maxConnections))
                port = candidate
                atexit_register(directory: directory, binaries: bin)
                return
            } catch {
                lastError = "\(error)"
            }
        }
        throw ThrowawayPostgresError.cannotStart("pg_ctl start failed on every port tried: \(lastError)")
    }

    /// The superuser's URI over the unix socket for `database`.
    public func uri(database: String = "postgres") -> String {
        "postgresql://postgres@" + directory.replacingOccurrences(of: "/", with: "%2F") + ":\(port)/\(database)"
    }

    /// A URI over TCP on 127.0.0.1 for `user` with `password` in it.
    public func tcpURI(database: String, user: String, password: String) -> String {
        let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? password
        return "postgresql://\(user):\(encoded)@127.0.0.1:\(port)/\(database)"
    }

    /// Creates a fresh, empty database and returns its URI (each test gets its own).
    public func createDatabase() throws -> (name: String, uri: String) {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        _ = try execute("CREATE DATABASE \(name)")
        return (name, uri(database: name))
    }

    /// Runs `sql` as the superuser in `database` and returns its rows as text (nil = NULL).
    /// - Throws: `ThrowawayPostgresError.sql` with the server's message.
    @discardableResult
    public func execute(_ sql: String, database: String = "postgres") throws -> [[String?]] {
        guard let conn = PQconnectdb(uri(database: database)) else { throw ThrowawayPostgresError.sql("out of memory") }
        defer { PQfinish(conn) }
        guard PQstatus(conn) == CONNECTION_OK else { throw ThrowawayPostgresError.sql(String(cString: PQerrorMessage(conn))) }
        guard let result = PQexec(conn, sql) else { throw ThrowawayPostgresError.sql(String(cString: PQerrorMessage(conn))) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw ThrowawayPostgresError.sql(String(cString: PQresultErrorMessage(result)))
        }
        return (0..<PQntuples(result)).map { r in
            (0..<PQnfields(result)).map { c in
                PQgetisnull(result, r, c) != 0 ? nil : String(cString: PQgetvalue(result, r, c))
            }
        }
    }

    private static func findBinaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap(Int.init).sorted(by: >)
        return versions.map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }

    /// A few free-looking ports in the dynamic range, different per process.
    private static func candidatePorts() -> [Int] {
        var generator = SystemRandomNumberGenerator()
        return (0..<8).map { _ in Int.random(in: 20_000...60_000, using: &generator) }
    }

    /// Runs a server binary (as `postgres` when we are root) and waits; throws with its output on
    /// failure. posix_spawn and waitpid, output to a file: the server pg_ctl leaves running must not
    /// inherit anything the test process waits on.
    static func run(asServerUser: Bool, _ tool: String, _ arguments: [String]) throws {
        let argv = asServerUser && geteuid() == 0 ? ["/sbin/runuser", "-u", "postgres", "--", tool] + arguments : [tool] + arguments
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-pg-\(UUID().uuidString).out").path
        defer { unlink(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var pid: pid_t = 0
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cArgs, environ)
        guard rc == 0 else { throw ThrowawayPostgresError.cannotStart("cannot run \(argv[0]): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        guard exited == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw ThrowawayPostgresError.cannotStart("\((tool as NSString).lastPathComponent) exited \(exited): \(text)")
        }
    }
}

/// Why the throwaway server failed.
public enum ThrowawayPostgresError: Error, CustomStringConvertible {
    case cannotStart(String)
    case sql(String)

    public var description: String {
        switch self {
        case .cannotStart(let why): return "cannot start the test PostgreSQL server: \(why)"
        case .sql(let why): return "SQL failed: \(why)"
        }
    }
}

private let serversToStop = Mutex<[(directory: String, binaries: String)]>([])

/// Stops the servers (immediate shutdown) and removes their directories when the test process exits.
private func atexit_register(directory: String, binaries: String) {
    let first = serversToStop.withLock { servers in
        servers.append((directory, binaries))
        return servers.count == 1
    }
    guard first else { return }
    atexit {
        for server in serversToStop.withLock({ $0 }) {
            try? ThrowawayPostgres.run(asServerUser: true, server.binaries + "/pg_ctl",
                                       ["-D", server.directory + "/data", "-m", "immediate", "-w", "stop"])
            try? FileManager.default.removeItem(atPath: server.directory)
        }
    }
}
