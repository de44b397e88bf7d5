import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on 127.0.0.1 in front of a PostgreSQL server's unix socket that reads the
/// protocol's messages as they pass and cuts one connection at one chosen moment of a seen-set
/// claim's transaction, so a test can lose the connection exactly where a crash would be
/// ambiguous. Connections after the cut are passed on untouched.
///
/// The client must connect with `sslmode=disable&gssencmode=disable`: every message is then
/// framed (type byte and length; the client's first one without the type byte). PostgreSQL
/// "Frontend/Backend Protocol", "Message Formats".
public final class CommitCuttingProxy: @unchecked Sendable {
    public enum Cut: Sendable {
        /// The server committed the claim (its ReadyForQuery says idle) and the client never
        /// sees that answer: the server's CommandComplete and ReadyForQuery are withheld and
        /// both sides closed.
        case afterServerCommit
        /// The client's COMMIT of the claim's transaction never reaches the server, the client's
        /// side is closed and the server's side is left open (its backend idle in transaction
        /// until the proxy stops).
        case beforeCommitArrives
    }

    /// The port the proxy listens on (127.0.0.1).
    public let port: Int
    private let listener: Int32
    private let socketPath: String
    private let cut: Cut
    private struct State {
        var done = false
        var sockets: [Int32] = []
        var threads = 0
    }
    private let state = Mutex(State())
    /// The text a client message holds once the claim's statement is sent (it arms the cut).
    private static let claimText = Array("INSERT INTO seen_reading (scope".utf8)

    /// Listens on a free port of 127.0.0.1 and passes connections to `socketPath`.
    public init(socketPath: String, cut: Cut) throws {
        self.socketPath = socketPath
        self.cut = cut
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 16) == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Whether the cut happened.
    public var didCut: Bool { state.withLock { $0.done } }

    /// Stops listening and closes every connection it passes.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for fd in state.withLock({ $0.sockets }) { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            var on: Int32 = 1  // libpq's messages are small: no Nagle delay on the proxy's side either
            _ = setsockopt(client, Int32(IPPROTO_TCP), 1 /* TCP_NODELAY */, &on, socklen_t(MemoryLayout<Int32>.size))
            let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, byte) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard connected == 0 else { close(client); close(server); continue }
            let armed = Armed()
            state.withLock { $0.sockets += [client, server] }
            Thread { [self] in pass(from: client, to: server, armed: armed, fromClient: true) }.start()
            Thread { [self] in pass(from: server, to: client, armed: armed, fromClient: false) }.start()
        }
    }

    /// Passes framed messages from `source` to `target` until either side ends or the cut.
    private func pass(from source: Int32, to target: Int32, armed: Armed, fromClient: Bool) {
        var buffer: [UInt8] = []
        var startup = fromClient  // the client's first message has no type byte
        var withheld: [UInt8] = []  // a server CommandComplete held until the next message shows what it ended
        var chunk = [UInt8](repeating: 0, count: 65536)
        defer { shutdown(source, Int32(SHUT_RDWR)) }
        while true {
            let n = read(source, &chunk, chunk.count)
            guard n > 0 else { shutdown(target, Int32(SHUT_WR)); return }
            buffer += chunk[..<n]
            while let message = Self.nextMessage(&buffer, startup: startup) {
                startup = false
                let type = message.first ?? 0
                if fromClient {
                    if !state.withLock({ $0.done }), Self.contains(message, Self.claimText) { armed.flag.withLock { $0 = true } }
                    if cut == .beforeCommitArrives, armed.flag.withLock({ $0 }), type == UInt8(ascii: "Q"),
                       Self.contains(message, Array("COMMIT".utf8)), takeCut(armed) {
                        shutdown(source, Int32(SHUT_RDWR))  // the client's side only
                        return
                    }
                } else if cut == .afterServerCommit, armed.flag.withLock({ $0 }) {
                    if type == UInt8(ascii: "C") { withheld += message; continue }
                    // ReadyForQuery, idle: the claim's transaction is committed.
                    if type == UInt8(ascii: "Z"), message.last == UInt8(ascii: "I"), takeCut(armed) {
                        shutdown(target, Int32(SHUT_RDWR))
                        return
                    }
                }
                guard forward(target, withheld + message) else { return }
                withheld = []
            }
        }
    }

    /// Marks the cut done (once, for the armed connection); false when it was done already.
    private func takeCut(_ armed: Armed) -> Bool {
        armed.flag.withLock { $0 = false }
        return state.withLock { state in
            guard !state.done else { return false }
            state.done = true
            return true
        }
    }

    private func forward(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            // MSG_NOSIGNAL: a side already closed is an error here, not SIGPIPE for the test process.
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// The first complete message of `buffer`, removed from it; nil while it is incomplete.
    private static func nextMessage(_ buffer: inout [UInt8], startup: Bool) -> [UInt8]? {
        let header = startup ? 4 : 5
        guard buffer.count >= header else { return nil }
        let at = header - 4
        let length = buffer[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        let total = at + length
        guard buffer.count >= total else { return nil }
        let message = Array(buffer[..<total])
        buffer.removeFirst(total)
        return message
    }

    /// Whether this connection sent the claim and is not cut yet: it is the one cut.
    private final class Armed: Sendable {
        let flag = Mutex(false)
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { i in haystack[i..<i + needle.count].elementsEqual(needle) }
    }
}
