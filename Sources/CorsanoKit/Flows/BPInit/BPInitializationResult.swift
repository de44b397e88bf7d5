/// How an NIBP calibration run ended, as the SDK's `BPInitializationResult`.
///
/// Source: seeds/bp-initialization.txt ("Result handling"); the JSON is the `result` object of docs/design.md "Events".
public enum BPInitializationResult: Equatable, Sendable {
    /// The firmware accepted an attempt; how many cuff measurements it took (2 or 3).
    case success(measurementCount: Int)
    /// The flow was left before it concluded: a declined retry, SIGINT, SIGTERM.
    case cancelledByUser
    /// The bracelet link dropped mid-flow (terminal, distinct from a failed attempt).
    case braceletDisconnected
    /// The cuff gave no reading, is unpaired or disconnected, or its reading was stale.
    case cuffError(CuffError)
    /// Every attempt of the budget ran and the firmware accepted none.
    case failedAfterRetries(attemptCount: Int)
    /// A set of a multi-set calibration that is not its last was recorded (beyond the
    /// SDK's cases): `set` of `of`, the next one due at `nextDueAt` (run clock).
    case setRecorded(CalibrationSetRecord, of: Int, nextDueAt: Instant)

    /// The `result` object of the `finished` event, e.g. `{"kind":"success","measurementCount":2}`.
    public var json: JSONValue {
        switch self {
        case .success(let count):
            return .object([("kind", .string("success")), ("measurementCount", .int(count))])
        case .cancelledByUser:
            return .object([("kind", .string("cancelledByUser"))])
        case .braceletDisconnected:
            return .object([("kind", .string("braceletDisconnected"))])
        case .cuffError(let error):
            return .object([("kind", .string("cuffError")), ("error", error.json)])
        case .failedAfterRetries(let count):
            return .object([("kind", .string("failedAfterRetries")), ("attemptCount", .int(count))])
        case .setRecorded(let record, let of, let due):
            guard case .object(let summary) = record.summary else { return .null }
            return .object([("kind", .string("setRecorded")), ("set", .int(record.set)), ("of", .int(of)),
                            ("nextDueAt", .string(RFC3339.format(due)))] + summary.filter { $0.0.hasPrefix("mean") })
        }
    }

    /// The case name as in the SDK (`success`, `cuffError`, ...).
    public var kind: String {
        switch self {
        case .success: return "success"
        case .cancelledByUser: return "cancelledByUser"
        case .braceletDisconnected: return "braceletDisconnected"
        case .cuffError: return "cuffError"
        case .failedAfterRetries: return "failedAfterRetries"
        case .setRecorded: return "setRecorded"
        }
    }
}

extension CuffError {
    /// The `error` object of a cuffError result; a stale reading's age as `WholeSeconds` reports it
    /// (whole seconds truncated toward zero, negative when future-dated), e.g.
    /// `{"kind":"staleReading","age":-94608000}`.
    public var json: JSONValue {
        switch self {
        case .noReading: return .object([("kind", .string("noReading"))])
        case .cuffDisconnected: return .object([("kind", .string("cuffDisconnected"))])
        case .staleReading(let age):
            return .object([("kind", .string("staleReading")), ("age", .int(WholeSeconds.truncating(age)))])
        case .unknown(let message):
            return .object([("kind", .string("unknown")), ("message", .string(message))])
        }
    }
}
