/// The settings of one NIBP calibration run, as the SDK's `BPInitializationConfig` plus the host
/// rules `bp-init` applies to the cuff stream.
///
/// Source: seeds/bp-initialization.txt ("Configuration", "Replayed and stale readings") and
/// docs/design.md "Host-side cuff rules". Branding is the SDK's UI concern and has no counterpart here.
public struct BPInitializationConfig: Equatable, Sendable {
    /// A 3rd measurement is taken when the first two differ by MORE than this on systolic or
    /// diastolic, mmHg (seed default 10, "matches the Corsano patient app").
    public var deviationThresholdMmHg: Int
    /// Calibration attempts allowed; 1 disables the retry prompt (seed default 3).
    public var maxAttempts: Int
    /// Whether the instructions include the preparation checklist (seed default true).
    public var includePreparation: Bool
    /// Readings stamped further than this from now, either direction, end the flow with
    /// `cuffError(staleReading)`, seconds; nil disables the check (seed default 900).
    public var maxReadingAge: Double?
    /// Host rule 2's allowance: readings stamped more than this before the request are replayed
    /// history, seconds (seed: "at least 90 s").
    public var backdateSeconds: Double
    /// Whether host rules 2 (replayed) and 3 (duplicate) apply to the cuff stream.
    public var replayFilter: Bool
    /// A multi-set protocol (issue 32: `--protocol corsano|sets`); nil: the seed's single session.
    public var multiSet: MultiSetProtocol?
    /// Whether a reading whose own `status` flags it (body movement, cuff too loose, …;
    /// `ReadingQuality`) is fed; false (the default) drops it as `flagged` and waits for
    /// another: validation protocols repeat such measurements (docs/design.md "Host-side cuff rules").
    public var feedFlagged = false

    /// Creates a config; the defaults are the seed's (the host rules' are `HostRules`').
    public init(deviationThresholdMmHg: Int = 10, maxAttempts: Int = 3, includePreparation: Bool = true,
                maxReadingAge: Double? = HostRules.defaultMaxReadingAge, backdateSeconds: Double = HostRules.defaultBackdate,
                replayFilter: Bool = true) {
        self.deviationThresholdMmHg = max(0, deviationThresholdMmHg)
        self.maxAttempts = max(1, maxAttempts)
        self.includePreparation = includePreparation
        self.maxReadingAge = maxReadingAge
        self.backdateSeconds = backdateSeconds
        self.replayFilter = replayFilter
    }

    /// The seed's defaults: threshold 10 mmHg, 3 attempts, preparation on, max age 900 s.
    public static let `default` = BPInitializationConfig()

    /// The longest real-time wait for one cuff reading a caller uses when it names none,
    /// seconds: the whole human sequence (seed: "Size your provider's timeout for the whole
    /// human sequence"). The cuff source's setting, not the SDK config's.
    public static let defaultCuffTimeoutSeconds = 300

    /// True when two readings deviate enough to call a 3rd measurement: strictly more than the
    /// threshold on systolic OR diastolic (seed: "The two-measurement rule"; exactly 10 → no 3rd).
    public func needsThirdMeasurement(_ first: CuffReading, _ second: CuffReading) -> Bool {
        exceedsThreshold(first.systolic, second.systolic) || exceedsThreshold(first.diastolic, second.diastolic)
    }

    /// |a - b| > threshold without trapping on any input value (an overflow is a deviation).
    private func exceedsThreshold(_ a: Int, _ b: Int) -> Bool {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return overflow || difference.magnitude > UInt(max(0, deviationThresholdMmHg))
    }

    /// The effective config as the `started` event's `config` object.
    public var json: JSONValue {
        .object([
            ("deviationThresholdMmHg", .int(deviationThresholdMmHg)),
            ("maxAttempts", .int(maxAttempts)),
            ("includePreparation", .bool(includePreparation)),
            ("maxReadingAge", maxReadingAge.map { .int(WholeSeconds.truncating($0)) } ?? .null),
            ("backdate", .int(WholeSeconds.truncating(backdateSeconds))),
            ("replayFilter", .bool(replayFilter)),
        ] + (multiSet.map { [("protocol", $0.json)] } ?? []))
    }
}
