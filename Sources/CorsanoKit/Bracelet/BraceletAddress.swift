/// Where a bracelet is: the parsed `--bracelet URI` (env `CORSANO_BRACELET`).
///
/// `sim` / `sim:SCENARIO.json` is the in-process simulator; `unix:PATH`, `tcp:HOST:PORT` and
/// `exec:COMMAND` reach a bridge process. Source: docs/design.md "The bracelet port".
public enum BraceletAddress: Equatable, Sendable {
    /// The in-process simulator, with an optional scenario file.
    case simulator(scenario: String?)
    /// A bridge listening on a unix-domain socket.
    case unix(path: String)
    /// A bridge listening on TCP.
    case tcp(host: String, port: UInt16)
    /// A bridge run as a child process speaking on its stdin/stdout (`sh -c COMMAND`).
    case exec(command: String)

    /// The URI a caller uses when it names none: the in-process simulator.
    public static let defaultURI = "sim"

    /// The address as a `--bracelet` URI, for messages.
    public var described: String {
        switch self {
        case .simulator(let scenario): return scenario.map { "sim:" + $0 } ?? "sim"
        case .unix(let path): return "unix:" + path
        case .tcp(let host, let port): return "tcp:" + (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        case .exec(let command): return "exec:" + command
        }
    }

    /// Parses `uri`. - Throws: `BraceletAddressError` saying what is expected.
    public init(_ uri: String) throws {
        if uri == "sim" { self = .simulator(scenario: nil); return }
        guard let colon = uri.firstIndex(of: ":") else { throw BraceletAddressError.unknownScheme(uri) }
        let scheme = uri[..<colon]
        let rest = String(uri[uri.index(after: colon)...])
        switch scheme {
        case "sim":
            guard !rest.isEmpty else { throw BraceletAddressError.missingPart(uri, "a scenario file after sim:") }
            self = .simulator(scenario: rest)
        case "unix":
            guard !rest.isEmpty else { throw BraceletAddressError.missingPart(uri, "a socket path after unix:") }
            self = .unix(path: rest)
        case "exec":
            guard !rest.isEmpty else { throw BraceletAddressError.missingPart(uri, "a command after exec:") }
            self = .exec(command: rest)
        case "tcp":
            guard let portColon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: portColon)...]) else {
                throw BraceletAddressError.missingPart(uri, "tcp:HOST:PORT with a port 0-65535")
            }
            var host = String(rest[..<portColon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw BraceletAddressError.missingPart(uri, "a host in tcp:HOST:PORT") }
            self = .tcp(host: host, port: port)
        default:
            throw BraceletAddressError.unknownScheme(uri)
        }
    }

    /// True for the in-process simulator.
    public var isSimulator: Bool { if case .simulator = self { return true } else { return false } }
}

/// Why a bracelet URI did not parse.
public enum BraceletAddressError: Error, Equatable, Sendable {
    case unknownScheme(String)
    case missingPart(String, String)

    /// What is expected, for a usage message.
    public var expected: String {
        switch self {
        case .unknownScheme: return "sim, sim:SCENARIO.json, unix:PATH, tcp:HOST:PORT or exec:COMMAND"
        case .missingPart(_, let what): return what
        }
    }
}
