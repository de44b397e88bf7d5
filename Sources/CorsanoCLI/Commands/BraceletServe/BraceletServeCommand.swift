import CorsanoKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `corsano bracelet serve`: the simulator behind the bridge protocol, on a unix or TCP socket
/// (`--listen`) or on stdin/stdout for one connection (`--stdio`, for `exec:` bridges).
///
/// With `--listen` the first stdout line says where it listens, `{"listening":"tcp:127.0.0.1:PORT"}`
/// (port 0 picks a free one); it serves until SIGINT/SIGTERM/SIGHUP, then removes its unix socket and exits 0.
enum BraceletServeCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        let listen = args.string(.listen)  // --listen or --stdio, not both: the table's rules
        let scenario = try args.string(.scenario).map { try Scenario.load(path: $0) } ?? Scenario()
        let server = BridgeServer(scenario: scenario, seed: try args.integer(.seed).map(UInt64.init) ?? SimulatedBracelet.defaultSeed,
                                  diagnostics: ctx.diagnostics)
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
