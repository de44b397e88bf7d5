import CorsanoKit
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `corsano bracelet serve`: the simulator behind the bridge protocol, on a unix or TCP socket
/// (`--listen`) or on stdin/stdout for one connection (`--stdio`, for `exec:` bridges).
///
/// With `--listen` the first stdout line says where it listens, `{"listening":"tcp:127.0.0.1:PORT"}`
/// (port 0 picks a free one); it serves until SIGINT/SIGTERM/SIGHUP, then removes its unix socket and exits 0.
/// With `--fleet N` or `--fleet-scenarios DIR` one process serves a whole fleet, one socket per
/// bracelet in the `--listen unix:DIR` directory (`serveFleet`).
enum BraceletServeCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        let listen = args.string(.listen)  // --listen or --stdio, not both: the table's rules
        let seed = try args.integer(.seed).map(UInt64.init) ?? SimulatedBracelet.defaultSeed
        let scenario = try args.string(.scenario).map { try Scenario.load(path: $0) } ?? Scenario()
        if let listen, let fleet = try fleet(args, template: scenario) {
            return try await serveFleet(fleet, seed: seed, listen: listen, ctx)
        }
        let server = BridgeServer(scenario: scenario, seed: seed, diagnostics: ctx.diagnostics)
        guard let listen else {
            ProcessSignals.shared.dieOnUnroutedSignals()  // one connection on stdio: a signal ends it
            await server.serve(.standardStreams())
            return .success
        }
        let address = try listenAddress(listen)
        // A TCP listener serves only clients that prove its token (docs/bridge-protocol.md
        // "Authentication"); without --token-file one is made at the default path and named.
        let token: (BridgeToken, path: String)?
        if case .tcp = address {
            let path = BraceletConnector.tokenPath(args, ctx)
            token = (FileManager.default.fileExists(atPath: path) ? try BridgeToken.load(path: path) : try BridgeToken.create(path: path), path)
        } else {
            token = nil
        }
        let listener: Int32, bound: String
        do {
            (listener, bound) = try BridgeSocket.listen(address)
        } catch BraceletError.unavailable(let why) {
            // Our own socket that cannot be bound is an I/O error (74), not an absent bracelet (69).
            throw ListenError.cannotListen(listen, reason: why)
        }
        // The socket file this server made: on exit it removes that one only, never a file that
        // replaced it meanwhile.
        var made = stat()
        if case .unix(let path) = address, lstat(path, &made) != 0 { made = stat() }
        let stop = StopSignal()
        ctx.stdout.line(JSONValue.object([("listening", .string(bound))] + (token.map { [("tokenFile", .string($0.path))] } ?? [])).serialized)
        ctx.stdout.flush()
        let acceptor = Thread {
            while let fd = BridgeSocket.accept(listener) {
                guard let token else {
                    Task { await server.serve(LineConnection(socket: fd)) }
                    continue
                }
                // The handshake blocks on the peer: one thread each, so a silent client holds no other.
                Thread {
                    if let why = BridgeHandshake.serve(fd: fd, token: token.0) {
                        ctx.note("bracelet serve: refused a connection from \(BridgeSocket.peerName(fd)): \(why)")
                        close(fd)
                        return
                    }
                    Task { await server.serve(LineConnection(socket: fd)) }
                }.start()
            }
        }
        acceptor.start()
        await stop.wait()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        var now = stat()
        if case .unix(let path) = address, lstat(path, &now) == 0, now.st_ino == made.st_ino, now.st_dev == made.st_dev {
            unlink(path)
        }
        return .success
    }

    /// The fleet's scenarios, in serving order: `--fleet N` gives bracelet i (1-based) the
    /// template with serial `SIM-287-` and i zero-padded to 4 digits; `--fleet-scenarios DIR`
    /// one bracelet per `*.json` file of DIR, by file name, its serial its own. Nil without either.
    /// - Throws: `ScenarioError` (a file unreadable 66, invalid 65; two files with one serial 65).
    static func fleet(_ args: ParsedCommand, template: Scenario) throws -> [Scenario]? {
        if let count = try args.integer(.fleet) {
            return (1...max(1, count)).map { i in
                var scenario = template
                scenario.serial = fleetSerial(i)
                return scenario
            }
        }
        guard let dir = args.string(.fleetScenarios) else { return nil }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            throw ScenarioError.unreadable(path: dir)
        }
        guard !names.isEmpty else { throw ScenarioError.invalid(source: dir, message: "no scenario (*.json) file in the directory") }
        var seen: [String: String] = [:]
        return try names.map { name in
            let path = (dir as NSString).appendingPathComponent(name)
            let scenario = try Scenario.load(path: path)
            if let other = seen[scenario.serial] {
                throw ScenarioError.invalid(source: path, message: "serial: \(scenario.serial) is also the serial of \(other); one socket per bracelet")
            }
            seen[scenario.serial] = path
            return scenario
        }
    }

    /// `SIM-287-0001` for bracelet 1 of a `--fleet`.
    static func fleetSerial(_ i: Int) -> String {
        let digits = String(i)
        return "SIM-287-" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Serves every bracelet of `fleet` from this one process, bracelet i (1-based) seeded
    /// `seed` + i − 1, each on its own socket `DIR/SERIAL.sock` (0600, in DIR made 0700 when
    /// missing), one `{"listening":"unix:DIR/SERIAL.sock","serial":SERIAL}` line each, every
    /// socket accepted by one thread; until SIGINT/SIGTERM/SIGHUP, then removes the sockets it
    /// made and exits 0. - Throws: `ListenError` (74) when DIR or a socket cannot be made.
    static func serveFleet(_ fleet: [Scenario], seed: UInt64, listen: String, _ ctx: CommandContext) async throws -> ExitStatus {
        guard case .unix(let dir) = try listenAddress(listen) else {
            throw UsageError.badValue(option: "listen", value: listen, expected: "unix:DIR with --fleet or --fleet-scenarios")
        }
        if mkdir(dir, 0o700) != 0 {
            var st = stat()
            guard errno == EEXIST, stat(dir, &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
                throw ListenError.cannotListen(listen, reason: "not a directory one socket per bracelet can go in")
            }
            guard st.st_uid == getuid() else {
                throw ListenError.cannotListen(listen, reason: "the directory belongs to another user")
            }
            _ = chmod(dir, 0o700)
        }
        // Each bracelet a listening socket, each client a connection: more descriptors than the
        // usual soft limit of 1024 for a fleet of 512, so the soft limit rises to the hard one.
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        var listeners: [(fd: Int32, path: String, made: stat, server: BridgeServer)] = []
        func closeAll() {
            for l in listeners {
                close(l.fd)
                var now = stat()
                if lstat(l.path, &now) == 0, now.st_ino == l.made.st_ino, now.st_dev == l.made.st_dev { unlink(l.path) }
            }
        }
        for (i, scenario) in fleet.enumerated() {
            let path = (dir as NSString).appendingPathComponent(scenario.serial + ".sock")
            let fd: Int32
            do {
                fd = try BridgeSocket.listen(.unix(path: path)).fd
            } catch BraceletError.unavailable(let why) {
                closeAll()
                throw ListenError.cannotListen("unix:" + path, reason: why)
            }
            var made = stat()
            if lstat(path, &made) != 0 { made = stat() }
            listeners.append((fd, path, made, BridgeServer(scenario: scenario, seed: seed &+ UInt64(i), diagnostics: ctx.diagnostics)))
        }
        let stop = StopSignal()
        for l in listeners {
            ctx.stdout.line(JSONValue.object([("listening", .string("unix:" + l.path)), ("serial", .string(l.server.scenario.serial))]).serialized)
        }
        ctx.stdout.flush()
        let stopping = Atomic<Bool>(false)
        let fds = listeners.map(\.fd), servers = listeners.map(\.server)
        let acceptor = Thread {
            while !stopping.load(ordering: .relaxed) {
                guard let (index, fd) = BridgeSocket.acceptAny(fds, timeoutMilliseconds: 200) else { continue }
                let server = servers[index]
                Task { await server.serve(LineConnection(socket: fd)) }
            }
        }
        acceptor.start()
        await stop.wait()
        stopping.store(true, ordering: .relaxed)
        closeAll()
        return .success
    }

    /// `--listen` as a unix or TCP address. - Throws: `UsageError` naming the flag.
    static func listenAddress(_ uri: String) throws -> BraceletAddress {
        let expected = "unix:PATH or tcp:HOST:PORT"
        guard let address = try? BraceletAddress(uri) else {
            throw UsageError.badValue(option: "listen", value: uri, expected: expected)
        }
        switch address {
        case .unix, .tcp: return address
        default: throw UsageError.badValue(option: "listen", value: uri, expected: expected)
        }
    }
}

/// `bracelet serve` could not bind or listen on its address (exit 74).
enum ListenError: DiagnosticError, Equatable {
    /// `address` as given; `reason` from the socket layer (it names the address and the errno text).
    case cannotListen(String, reason: String)

    var message: String {
        switch self {
        case .cannotListen(let address, let reason):
            // The socket layer prefixes its own spelling of the address; keep only the why.
            let why = reason.range(of: ": ", options: .backwards).map { String(reason[$0.upperBound...]) } ?? reason
            return "bracelet serve: cannot listen on \(address): \(why)"
        }
    }
}
