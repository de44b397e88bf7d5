/// The host-side rules 2-4 (seed "Replayed and stale readings"; docs/design.md "Host-side cuff rules"),
/// as configured by `--requested-at`, `--backdate` and `--max-reading-age`.
public struct HostRules: Equatable, Sendable {
    /// Backdating allowance, seconds (seed rule 2: "allow at least 90 s").
    public var backdate: Double
    /// Largest |now - measuredAt| kept, seconds, in either direction; nil disables the check.
    public var maxReadingAge: Double?
    /// When the measurement was requested; nil disables rule 2.
    public var requestedAt: Instant?

    /// The seed's backdating allowance, seconds (rule 2: "allow at least 90 s").
    public static let defaultBackdate: Double = 90
    /// The SDK's maxReadingAge, seconds.
    public static let defaultMaxReadingAge: Double = 900

    /// Creates rules; the defaults are the seed's (90 s) and the SDK's maxReadingAge (900 s).
    public init(backdate: Double = defaultBackdate, maxReadingAge: Double? = defaultMaxReadingAge, requestedAt: Instant? = nil) {
        self.backdate = backdate
        self.maxReadingAge = maxReadingAge
        self.requestedAt = requestedAt
    }
}

/// Why a reading was dropped; the raw value is the word written in reports.
public enum DropReason: String, CaseIterable, Equatable, Sendable {
    /// `deviceTime` without `measuredAt`: never went through the clock anchor (docs/design.md "Host-side cuff rules", rule 1).
    case unanchored
    /// Measured more than the backdating allowance before the request (seed rule 2).
    case replayed
    /// Same measuredAt instant and values as a reading already handed on (seed rule 3).
    case duplicate
    /// Older than maxReadingAge (positive age).
    case stale
    /// Dated further ahead than maxReadingAge (negative age: a corrupt cuff clock).
    case future
    /// Implausible values (checked by the caller before the filter).
    case invalid
}

/// What the filter decided for one reading.
public enum FilterDecision: Equatable, Sendable {
    /// Hand the reading on; its key (when it has one) is now in the seen-set.
    case keep
    /// Drop it; `age` (seconds, negative when future-dated) is set for `stale` and `future`.
    case drop(DropReason, age: Double? = nil)
}

extension DropReason {
    /// The rule that drops a reading for this reason, for `-v` (docs/design.md
    /// "Host-side cuff rules", "Diagnostics"); the run's values are said once by `HostRules.described`.
    public var rule: String {
        switch self {
        case .unanchored: return "a deviceTime without measuredAt: its cuff clock was never anchored to real time (host rule 1)"
        case .replayed: return "measured more than the backdating allowance before the request: history the cuff sent again (host rule 2)"
        case .duplicate: return "the same instant and values as a reading already handed on: the seen-set holds its key (host rule 3)"
        case .stale: return "measured longer ago than the maximum reading age (host rule 4)"
        case .future: return "dated further ahead than the maximum reading age: a cuff clock set wrong (host rule 4)"
        case .invalid: return "implausible values (the plausibility ranges)"
        }
    }
}

extension HostRules {
    /// The rules' values for `-v`: `requested at 2026-11-29T10:00:30Z, backdate 90 s, maximum reading age 900 s`.
    public var described: String {
        (requestedAt.map { "requested at \(RFC3339.format($0)), backdate \(WholeSeconds.truncating(backdate)) s" }
            ?? "no request time (host rule 2 off)")
            + ", maximum reading age " + (maxReadingAge.map { "\(WholeSeconds.truncating($0)) s" } ?? "none (host rule 4 off)")
    }
}
