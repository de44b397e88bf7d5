#if canImport(Glibc)
import Glibc
#endif

/// The shared secret of a TCP bridge (docs/bridge-protocol.md "Authentication"): at least 128
/// random bits, kept as hex digits in a 0600 file, never on a command line.
public struct BridgeToken: Sendable, Equatable {
    /// The secret's bytes (the file's hex digits decoded).
    public let bytes: [UInt8]
    /// The fewest bytes a token may have: 128 bits (as OpenSSH's minimum key strength).
    public static let minimumBytes = 16
    /// Bytes of a token `create` makes: 256 bits.
    public static let generatedBytes = 32

    /// A token of `bytes`. - Throws: `BridgeAuthError.badToken` when shorter than 128 bits.
    public init(bytes: [UInt8], path: String = "token") throws(BridgeAuthError) {
        guard bytes.count >= Self.minimumBytes else {
            throw .badToken(path: path, reason: "holds \(bytes.count * 8) bits; a token needs at least \(Self.minimumBytes * 8)")
        }
        self.bytes = bytes
    }

    /// Reads the token file at `path`: hex digits (whitespace around them ignored), owned by
    /// this user (or root) and readable by nobody else, as ssh requires of a private key.
    /// - Throws: `BridgeAuthError.badToken` naming the path and how to fix it (exit 77).
    public static func load(path: String) throws(BridgeAuthError) -> BridgeToken {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let why = String(cString: strerror(errno))
            throw .badToken(path: path, reason: "\(why) (give --token-file FILE or CORSANO_BRIDGE_TOKEN_FILE: the server's token file)")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { throw .badToken(path: path, reason: "not a regular file") }
        guard st.st_uid == geteuid() || st.st_uid == 0 else { throw .badToken(path: path, reason: "owned by another user (uid \(st.st_uid))") }
        guard st.st_mode & 0o077 == 0 else {
            throw .badToken(path: path, reason: "readable by others (mode \(String(st.st_mode & 0o777, radix: 8))): run chmod 600 on it")
        }
        var raw = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &raw, raw.count)
        guard n >= 0 else { throw .badToken(path: path, reason: String(cString: strerror(errno))) }
        let text = raw[..<n].filter { ![9, 10, 13, 32].contains($0) }
        guard let bytes = Self.decodeHex(Array(text)) else { throw .badToken(path: path, reason: "not hex digits") }
        return try BridgeToken(bytes: bytes, path: path)
    }

    /// Makes a new token file at `path`, mode 0600 whatever the umask, never through a symlink
    /// and never over an existing file (`O_CREAT|O_EXCL|O_NOFOLLOW`), its directory 0700 when made.
    /// - Throws: `BridgeAuthError.badToken` naming the path.
    public static func create(path: String) throws(BridgeAuthError) -> BridgeToken {
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !directory.isEmpty {
            do { try PrivateFiles.makeDirectory(directory) } catch { throw .badToken(path: path, reason: "\(error)") }
        }
        let token = try BridgeToken(bytes: randomBytes(generatedBytes), path: path)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .badToken(path: path, reason: "cannot create: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let text = Array((token.hex + "\n").utf8)
        guard fchmod(fd, 0o600) == 0, write(fd, text, text.count) == text.count else {
            unlink(path)
            throw .badToken(path: path, reason: "cannot write: \(String(cString: strerror(errno)))")
        }
        return token
    }

    /// The token as lowercase hex (what its file holds).
    public var hex: String { Self.hex(bytes) }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] }, as: UTF8.self)
    }

    static func decodeHex(_ text: [UInt8]) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 2)
        var i = 0
        while i < text.count {
            guard let hi = nibble(text[i]), let lo = nibble(text[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    /// `count` bytes from the system's CSPRNG (`SystemRandomNumberGenerator`: getrandom(2) on Linux).
    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

/// Why a bridge connection was not authenticated (exit 77, docs/design.md "Exit status").
public enum BridgeAuthError: Error, Equatable, Sendable, DiagnosticError {
    /// The token file cannot be used; `reason` says why and how to fix it.
    case badToken(path: String, reason: String)
    /// The server refused our proof (error -32006): a different token.
    case refused(address: String, message: String)
    /// The server did not prove it holds the token (a wrong or missing `mac`, or no greeting).
    case serverUnproven(address: String, reason: String)

    public var message: String {
        switch self {
        case .badToken(let path, let reason): return "bridge token file \(path): \(reason)"
        case .refused(let address, let message): return "bridge \(address) refused our token: \(message) (is --token-file the server's token file?)"
        case .serverUnproven(let address, let reason): return "bridge \(address) did not prove it holds the token: \(reason); nothing was sent to it"
        }
    }
}

/// The `hello` exchange that opens every TCP bridge connection (docs/bridge-protocol.md
/// "Authentication"): the server greets with a nonce; the client answers with its own nonce and
/// a MAC over both under the token; the server checks it and answers with its MAC over both, or
/// with error -32006 and closes. Neither side sends the token; the two MACs use distinct labels
/// so one side's proof can never be replayed as the other's. Lines are read a byte at a time so
/// nothing after the handshake is consumed before the line reader takes over.
public enum BridgeHandshake {
    /// JSON-RPC error code of a refused or missing `hello` (docs/bridge-protocol.md "Errors").
    public static let refusedCode = -32006
    /// Bytes of each side's nonce.
    static let nonceBytes = 32
    /// The longest handshake line read, bytes.
    static let maxLine = 4096
    /// Seconds the server waits for a client's `hello` before closing.
    public static let serverTimeout: Double = 10

    static func clientProof(_ token: BridgeToken, server: [UInt8], client: [UInt8]) -> [UInt8] {
        HMACSHA256.mac(key: token.bytes, Array("corsano-bridge client\n".utf8) + server + client)
    }

    static func serverProof(_ token: BridgeToken, server: [UInt8], client: [UInt8]) -> [UInt8] {
        HMACSHA256.mac(key: token.bytes, Array("corsano-bridge server\n".utf8) + server + client)
    }

    /// The server's half on a just-accepted socket: greets, checks the client's proof, proves
    /// its own. Returns nil on success, else why the connection was refused (the socket then has
    /// been answered -32006 where it could be, and the caller closes it).
    public static func serve(fd: Int32, token: BridgeToken) -> String? {
        let serverNonce = BridgeToken.randomBytes(nonceBytes)
        let greeting = BridgeMessage.request(id: nil, method: "greeting", params: [
            ("protocol", .string("corsano-bridge")), ("auth", .string("hmac-sha256")), ("nonce", .string(BridgeToken.hex(serverNonce)))])
        guard writeLine(fd, greeting) else { return "the client went away" }
        guard let line = readLine(fd, timeout: serverTimeout) else { return "no hello within \(Int(serverTimeout)) s" }
        let message = try? BridgeMessage(line: line)
        func refuse(_ why: String) -> String {
            _ = writeLine(fd, BridgeMessage.errorResponse(id: message?.id, code: refusedCode, message: why))
            return why
        }
        guard let message, message.method == "hello", let id = message.id else { return refuse("authenticate first: send hello") }
        guard case .string(let n)? = message.params.value["nonce"], let clientNonce = BridgeToken.decodeHex(Array(n.utf8)),
              clientNonce.count >= BridgeToken.minimumBytes,
              case .string(let m)? = message.params.value["mac"], let mac = BridgeToken.decodeHex(Array(m.utf8)) else {
            return refuse("hello needs params.nonce and params.mac (hex)")
        }
        guard HMACSHA256.constantTimeEqual(mac, clientProof(token, server: serverNonce, client: clientNonce)) else {
            return refuse("wrong token")
        }
        let proof = serverProof(token, server: serverNonce, client: clientNonce)
        guard writeLine(fd, BridgeMessage.response(id: id, result: .object([("mac", .string(BridgeToken.hex(proof)))]))) else {
            return "the client went away"
        }
        return nil
    }

    /// The client's half on a just-connected socket: reads the greeting, proves the token, and
    /// checks the server's proof before anything else is sent.
    /// - Throws: `BridgeAuthError.refused` (the server said -32006), `.serverUnproven` (no
    ///   greeting, or a wrong proof), `BraceletError.unavailable` when the connection drops.
    public static func authenticate(fd: Int32, token: BridgeToken, address: String, timeout: Double) throws {
        guard let line = readLine(fd, timeout: timeout) else { throw BraceletError.unavailable("\(address): no greeting from the bridge") }
        guard let greeting = try? BridgeMessage(line: line), greeting.method == "greeting",
              case .string(let n)? = greeting.params.value["nonce"], let serverNonce = BridgeToken.decodeHex(Array(n.utf8)),
              serverNonce.count >= BridgeToken.minimumBytes else {
            throw BridgeAuthError.serverUnproven(address: address, reason: "it sent no greeting with a nonce")
        }
        let clientNonce = BridgeToken.randomBytes(nonceBytes)
        let proof = clientProof(token, server: serverNonce, client: clientNonce)
        let hello = BridgeMessage.request(id: 0, method: "hello", params: [
            ("nonce", .string(BridgeToken.hex(clientNonce))), ("mac", .string(BridgeToken.hex(proof)))])
        guard writeLine(fd, hello) else { throw BraceletError.unavailable("\(address): the bridge closed the connection") }
        guard let answer = readLine(fd, timeout: timeout), let reply = try? BridgeMessage(line: answer) else {
            throw BraceletError.unavailable("\(address): the bridge closed the connection during hello")
        }
        if let error = reply.error {
            if error.code == refusedCode { throw BridgeAuthError.refused(address: address, message: error.message) }
            throw BridgeAuthError.serverUnproven(address: address, reason: "it answered hello with error \(error.code)")
        }
        guard case .string(let m)? = reply.result?["mac"], let mac = BridgeToken.decodeHex(Array(m.utf8)),
              HMACSHA256.constantTimeEqual(mac, serverProof(token, server: serverNonce, client: clientNonce)) else {
            throw BridgeAuthError.serverUnproven(address: address, reason: "its answer to hello holds a wrong proof")
        }
    }

    /// One line (without its `\n`) read a byte at a time within `timeout` seconds; nil on end of
    /// input, a timeout or a line over `maxLine`.
    static func readLine(_ fd: Int32, timeout: Double) -> String? {
        var bytes: [UInt8] = []
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let end = Double(deadline.tv_sec) + Double(deadline.tv_nsec) / 1e9 + timeout
        while bytes.count <= maxLine {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = end - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32(min(left * 1000, 60_000)) + 1)
            if r < 0, errno == EINTR { continue }
            guard r > 0 else { continue }
            var byte: UInt8 = 0
            let n = recv(fd, &byte, 1, 0)
            if n < 0, errno == EINTR { continue }
            guard n == 1 else { return nil }
            if byte == 10 {
                if bytes.last == 13 { bytes.removeLast() }
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes.append(byte)
        }
        return nil
    }

    static func writeLine(_ fd: Int32, _ line: String) -> Bool {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }
}
