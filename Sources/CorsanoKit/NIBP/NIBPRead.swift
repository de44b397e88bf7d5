/// `corsano nibp read`'s work: the bracelet's own NIBP values as reading lines — the
/// stored ones in a range, or one spot measurement now — with `"source":"bracelet"`,
/// `"bracelet":SERIAL`, `quality` when known and `subject` when named (docs/design.md "Data on the wire").
public enum NIBPRead {
    /// What to read.
    public enum Request: Equatable, Sendable {
        /// The stored values measured in `since...until` (either end open: all stored values).
        case stored(since: Instant?, until: Instant?)
        /// One spot measurement now (a long request: about 2 minutes on a 287-2).
        case spot
    }

    /// Why a request cannot be made (a usage error: exit 64).
    public enum RequestError: Error, Equatable, Sendable {
        /// `since` is after `until`.
        case emptyRange(since: Instant, until: Instant)

        /// One line naming the options.
        public var message: String {
            switch self {
            case let .emptyRange(since, until):
                return "--since \(RFC3339.format(since)) is after --until \(RFC3339.format(until))"
            }
        }
    }

    /// Checks a request. - Throws: `RequestError.emptyRange`.
    public static func check(_ request: Request) throws {
        if case .stored(let since?, let until?) = request, since > until { throw RequestError.emptyRange(since: since, until: until) }
    }

    /// Reads `request` from the bracelet `session` reached, as reading lines (oldest first).
    /// - Parameter measuring: told once that a spot measurement is under way: at the bridge's
    ///   first `working` notice, or at once for a bracelet that sends none (in process).
    /// - Throws: `RequestError`, `BraceletError` (`.unavailable` naming the method a bridge lacks:
    ///   -32601, exit 69).
    public static func run(_ request: Request, session: BraceletSession, subject: String?,
                           measuring: @escaping @Sendable () -> Void = {}) async throws -> [CuffReading] {
        try check(request)
        let values: [NIBPValue]
        switch request {
        case .stored(let since, let until):
            values = try await session.bracelet.readNIBP(since: since, until: until)
        case .spot:
            if let client = session.bracelet as? BridgeClient {
                client.onFirstWorking(measuring)
            } else {
                measuring()
            }
            values = [try await session.bracelet.measureNIBP()]
        }
        return values.map { $0.reading(serial: session.identity.serial, subject: subject) }
    }
}

extension NIBPRead.RequestError: DiagnosticError {}
