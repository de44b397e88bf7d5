/// How a wearing-optimization run ended (seed: `WearingOptimizationResult`).
///
/// The SDK's misspelled `bracelect...` cases are spelled `bracelet...` here (docs/design.md "Events").
public enum WearingOptimizationResult: Equatable, Sendable {
    /// A poll reported isSuccess AND quality >= 50; the raw 0-100 quality at that poll and the
    /// position inferred from the gravity vector at that poll.
    case success(spo2Quality: Int, position: BraceletPosition)
    /// The user declined a retry, or SIGINT / SIGTERM.
    case cancelledByUser
    /// The link dropped during the flow (never counted as `bleTimeout`).
    case braceletDisconnected
    /// Every allowed attempt failed; with the last attempt's reason.
    case failedAfterRetries(attemptCount: Int, lastReason: FailureReason)

    /// `{"kind":"success","spo2Quality":72,"position":"seated"}` and so on (docs/design.md "Events").
    public var json: JSONValue {
        switch self {
        case .success(let quality, let position):
            return .object([("kind", .string("success")), ("spo2Quality", .int(quality)),
                            ("position", .string(position.rawValue))])
        case .cancelledByUser: return .object([("kind", .string("cancelledByUser"))])
        case .braceletDisconnected: return .object([("kind", .string("braceletDisconnected"))])
        case .failedAfterRetries(let count, let reason):
            return .object([("kind", .string("failedAfterRetries")), ("attemptCount", .int(count)),
                            ("lastReason", reason.json)])
        }
    }
}

/// Why one attempt failed (seed: `FailureReason`).
public enum FailureReason: Equatable, Sendable {
    /// The bracelet finished with quality below 50.
    case ppgSignalQualityTooLow
    /// The bracelet finished reporting no skin contact.
    case braceletNotWornCorrectly
    /// Status polls stopped answering while the link lived, or no finish within the bound.
    case bleTimeout
    /// Anything else, with what happened (the seed's forward-compatibility case).
    case unknown(String)

    /// `{"kind":"ppgSignalQualityTooLow"}`; unknown carries `message` (as cuffError's unknown).
    public var json: JSONValue {
        switch self {
        case .ppgSignalQualityTooLow: return .object([("kind", .string("ppgSignalQualityTooLow"))])
        case .braceletNotWornCorrectly: return .object([("kind", .string("braceletNotWornCorrectly"))])
        case .bleTimeout: return .object([("kind", .string("bleTimeout"))])
        case .unknown(let message): return .object([("kind", .string("unknown")), ("message", .string(message))])
        }
    }
}
