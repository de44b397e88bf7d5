#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The bracelet port over the bridge protocol (JSON-RPC 2.0 lines on a socket or a child's
/// stdin/stdout): how a real bracelet behind a phone or BLE gateway plugs in, and how the served
/// simulator is reached.
///
/// Every request carries the client's clock time `at`, has a timeout (a timed-out status poll is a
/// missed poll, `.timeout`; any other timed-out request is a disconnect), and is interrupted with
/// `.disconnected` by a `disconnected` notification or a dropped connection. Cancelling a call
/// abandons it and tells the bridge (`cancel`). Protocol: docs/bridge-protocol.md.
public final class BridgeClient: Sendable {
    let connection: LineConnection
    /// Seconds a request may take (docs/design.md "The bracelet port": `--request-timeout`, default 10).
    public let requestTimeout: Double
    /// The request timeout a caller uses when it names none, seconds (`--request-timeout`).
    public static let defaultRequestTimeout: Double = 10
    let clock = Mutex<(any FlowClock)?>(nil)
    /// Why the link was taken down for a malformed answer, e.g. `bridge reply to getPlan
    /// malformed: invalid params: plan` (issue 25: each bracelet failure names its cause).
    let malformedReply = Mutex<String?>(nil)
    /// The run every request names as `holder` once set (docs/bridge-protocol.md "Holders").
    let holder = Mutex<BraceletHolder?>(nil)
    /// The longest a `working` bridge may keep a long method (`enterStep`) waiting, seconds: a
    /// hard cap however often it says it still works ("every wait has a bound").
    public static let workingCap: Double = 3600
    let state = Mutex(State())
    /// Hears every request and answer at `.debug`: method, id, outcome and duration, never the
    /// parameters (a profile push carries a person's profile; docs/design.md "Diagnostics").
    let diagnostics: Diagnostics
    /// Told once, at the next `working` notice (`onFirstWorking`).
    let workingObserver = Mutex<(@Sendable () -> Void)?>(nil)

    /// Calls `observer` once, at the next `working` notice the bridge sends (a spot measurement
    /// under way, a held step): so a command can say the bracelet is busy, not silent.
    public func onFirstWorking(_ observer: @escaping @Sendable () -> Void) {
        workingObserver.withLock { $0 = observer }
    }

    struct State {
        var nextID = 0
        var pending: [Int: CheckedContinuation<BridgeParams, any Error>] = [:]
        var timers: [Int: Task<Void, Never>] = [:]
        /// Each timed call's timeout and what it means, and until when `working` may restart it
        /// (nil: it may not — only the methods documented as long are extended, issue 25).
        var deadlines: [Int: (seconds: Double, onTimeout: BraceletError, extendableUntil: ContinuousClock.Instant?)] = [:]
        var linkUp = true
    }

    /// Wraps an open connection and starts reading it.
    public init(connection: LineConnection, requestTimeout: Double, diagnostics: Diagnostics = .none) {
        self.connection = connection
        self.requestTimeout = requestTimeout
        self.diagnostics = diagnostics
        connection.start(onInbound: { [weak self] in self?.receive($0) }, onClose: { [weak self] in self?.linkDown() })
    }

    deinit { connection.close() }

    /// Opens the transport of `address` (`unix:`, `tcp:`, `exec:`) and returns a client on it.
    /// A `tcp:` bridge must first pass the `hello` exchange under `token` (BridgeHandshake):
    /// nothing else is sent to a server that did not prove it holds the token.
    /// - Throws: `BraceletError.unavailable` when it cannot be reached; `BridgeAuthError` (exit
    ///   77) when a TCP bridge refuses our token, fails to prove its own, or no token is given.
    public static func connect(_ address: BraceletAddress, requestTimeout: Double, token: BridgeToken? = nil,
                               diagnostics: Diagnostics = .none) throws -> BridgeClient {
        let connection: LineConnection
        switch address {
        case .exec(let command): connection = try LineConnection.spawn(command: command)
        case .unix: connection = LineConnection(socket: try BridgeSocket.connect(address, timeout: requestTimeout))
        case .tcp(let host, let port):
            guard let token else {
                throw BridgeAuthError.badToken(path: "(none)", reason: "a tcp: bridge needs its token file (--token-file)")
            }
            let fd = try BridgeSocket.connect(address, timeout: requestTimeout)
            do {
                try BridgeHandshake.authenticate(fd: fd, token: token, address: "tcp:\(host.contains(":") ? "[\(host)]" : host):\(port)", timeout: requestTimeout)
            } catch {
                Glibc.close(fd)
                throw error
            }
            connection = LineConnection(socket: fd)
        case .simulator: throw BraceletError.unavailable("the in-process simulator is not a bridge")
        }
        diagnostics.info(.bridge, "connected to the bridge at \(address.described)" + (token == nil ? "" : " (token proven both ways)"))
        return BridgeClient(connection: connection, requestTimeout: requestTimeout, diagnostics: diagnostics)
    }

    /// The first exchange: who the bracelet is and whether the bridge serves a simulator (which
    /// makes the virtual clock the default). Sent without `at`: no clock is chosen yet.
    /// - Throws: `BraceletError.unavailable` when the bridge does not answer, refuses or drops.
    public func hello() async throws -> (identity: BraceletIdentity, simulated: Bool) {
        do {
            return try BridgeCodec.identity(try await call("identify", timeout: requestTimeout, onTimeout: .unavailable("no answer")))
        } catch BraceletError.disconnected {
            throw BraceletError.unavailable("the bridge closed the connection")
        } catch BraceletError.refused(let why) {
            throw BraceletError.unavailable(why)
        } catch BraceletError.timeout {
            // docs/bridge-protocol.md: any identify failure is "unavailable" (69), not a disconnect (4).
            throw BraceletError.unavailable("the bracelet did not answer identify")
        } catch let error as BridgeProtocolError {
            throw BraceletError.unavailable("the bridge sent a malformed identify reply (\(error))")
        }
    }

    /// Sets the clock whose time every later request carries as `at`.
    public func use(clock: any FlowClock) { self.clock.withLock { $0 = clock } }

    /// Why the link went down for a malformed answer, nil when it did not.
    public var malformedReplyCause: String? { malformedReply.withLock { $0 } }

    /// True while the link is up.
    public var isConnected: Bool { state.withLock { $0.linkUp } }
}
