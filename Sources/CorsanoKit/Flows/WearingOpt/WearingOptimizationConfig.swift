/// What one wearing-optimization run does: retry budget, preparation, position and timing.
///
/// Defaults follow the seed (seeds/wearing-optimization.txt, "Configuration" and "Flow
/// reference"): 3 attempts, preparation on, status polled every 5 s. The finish bound and the
/// missed-poll limit are ours: the seed names `bleTimeout` but not when it fires.
public struct WearingOptimizationConfig: Equatable, Sendable {
    /// Attempts allowed, 1 or more; 1 disables the retry prompt (seed: "first miss is terminal").
    public var maxAttempts: Int
    /// Run the preparation phase (pickers, strap tightness with the forced profile push,
    /// placement). When false the host pushes the stored profile itself, forced (seed).
    public var includePreparation: Bool
    /// The position the user is told to take for the first attempt; a retry may change it.
    public var position: BraceletPosition
    /// Seconds between status polls on the flow's clock (seed: "every 5 seconds").
    public var pollIntervalSeconds: Double
    /// Seconds of clock time an attempt may run from `startSpecialMode(4)` without the bracelet
    /// reporting `finished`; past it the attempt fails with `bleTimeout`. 300 s is above the
    /// seed's ~4-minute worst case (movement detected) with one minute of slack.
    public var finishBoundSeconds: Double
    /// Consecutive status polls that time out (`BraceletError.timeout`) while the link lives
    /// before the attempt fails with `bleTimeout`: 3 polls, i.e. ~15 s of silence at 5 s a poll.
    public var missedPollLimit: Int
    /// Preparation picker values given up front (flags); nil keeps the profile's value.
    public var skinTone: Int?
    public var hairDensity: UserProfile.HairDensity?
    public var wrist: UserProfile.Wrist?

    /// The lowest PPG signal quality (the SDK's 0-100 scale) of a successful session (seed
    /// "Result handling": "A session is successful when the bracelet reports isSuccess == 1 AND
    /// quality ≥ 50").
    public static let minimumSuccessQuality = 50

    /// True when `quality` (0-100) is high enough for a successful session: at least
    /// `minimumSuccessQuality` (exactly 50 succeeds; seed "Result handling").
    public static func isSuccessQuality(_ quality: Int) -> Bool { quality >= minimumSuccessQuality }

    /// True when a status poll shows a successful session: the firmware's `isSuccess` AND a quality
    /// of at least `minimumSuccessQuality` (seed "Result handling").
    public static func isSuccessful(_ status: SpecialModeStatus) -> Bool { status.isSuccess && isSuccessQuality(status.quality) }

    /// The seed's defaults: 3 attempts, preparation, seated, 5 s polls, 300 s bound, 3 missed polls.
    public static let `default` = WearingOptimizationConfig()

    /// Creates a config; `maxAttempts` below 1 is treated as 1.
    public init(maxAttempts: Int = 3, includePreparation: Bool = true, position: BraceletPosition = .seated,
                pollIntervalSeconds: Double = 5, finishBoundSeconds: Double = 300, missedPollLimit: Int = 3,
                skinTone: Int? = nil, hairDensity: UserProfile.HairDensity? = nil, wrist: UserProfile.Wrist? = nil) {
        self.maxAttempts = max(1, maxAttempts)
        self.includePreparation = includePreparation
        self.position = position
        self.pollIntervalSeconds = pollIntervalSeconds
        self.finishBoundSeconds = finishBoundSeconds
        self.missedPollLimit = max(1, missedPollLimit)
        self.skinTone = skinTone
        self.hairDensity = hairDensity
        self.wrist = wrist
    }

    /// The effective config as written in the `started` event.
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("maxAttempts", .int(maxAttempts)), ("includePreparation", .bool(includePreparation)),
            ("position", .string(position.rawValue)), ("pollInterval", .double(pollIntervalSeconds)),
            ("finishBound", .double(finishBoundSeconds)), ("missedPollLimit", .int(missedPollLimit)),
        ]
        if let skinTone { members.append(("skinTone", .int(skinTone))) }
        if let hairDensity { members.append(("hairDensity", .string(hairDensity.rawValue))) }
        if let wrist { members.append(("wrist", .string(wrist.rawValue))) }
        return .object(members)
    }
}
