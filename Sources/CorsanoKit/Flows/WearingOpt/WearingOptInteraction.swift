/// The user's side of wearing optimization: preparation prompts, Start, retry and position.
///
/// At a terminal the executable implements it with prompts; in scripts
/// `ScriptedWearingOptInteraction` answers from flags and the stored profile and always retries.
/// Every method may throw `CancellationError` (SIGINT at a prompt). Source: seed "Flow reference".
public protocol WearingOptInteraction: Sendable {
    /// Preparation substep 1: skin tone, hair density and wrist, starting from `current`.
    /// - Returns: the values to push. - Throws: `CancellationError`.
    func pickPreparation(_ current: PreparationChoices) async throws -> PreparationChoices
    /// Preparation substep 2: the strap is tight (the forced profile push follows).
    /// - Returns: false when the user declines. - Throws: `CancellationError`.
    func confirmStrapTightness() async throws -> Bool
    /// Preparation substep 3: the bracelet sits in place on `wrist`.
    /// - Returns: false when the user declines. - Throws: `CancellationError`.
    func confirmPlacement(wrist: UserProfile.Wrist) async throws -> Bool
    /// Instructions screen: remain still in `position`; the user starts the attempt.
    /// - Returns: false when the user declines. - Throws: `CancellationError`.
    func confirmStart(attempt: Int, position: BraceletPosition) async throws -> Bool
    /// Retry prompt with the position picker after attempt `attempt` failed for `reason`.
    /// - Returns: the position for the next attempt, nil when the user declines (cancelledByUser).
    /// - Throws: `CancellationError`.
    func retry(after attempt: Int, reason: FailureReason, position: BraceletPosition) async throws -> BraceletPosition?
}

/// The preparation picker's values (seed: "skin tone + hair density + wrist").
public struct PreparationChoices: Equatable, Sendable {
    /// Fitzpatrick skin type 1-6.
    public var skinTone: Int
    public var hairDensity: UserProfile.HairDensity
    public var wrist: UserProfile.Wrist

    /// Creates choices.
    public init(skinTone: Int, hairDensity: UserProfile.HairDensity, wrist: UserProfile.Wrist) {
        self.skinTone = skinTone
        self.hairDensity = hairDensity
        self.wrist = wrist
    }

    /// The picker's values of `profile`.
    public init(_ profile: UserProfile) {
        self.init(skinTone: profile.skinTone, hairDensity: profile.hairDensity, wrist: profile.wrist)
    }

    /// `profile` with these values applied.
    public func applied(to profile: UserProfile) -> UserProfile {
        var p = profile
        p.skinTone = skinTone
        p.hairDensity = hairDensity
        p.wrist = wrist
        return p
    }
}

/// The non-interactive answers: picker values as given (the flow already applied the flags),
/// every confirmation yes, and always retry in `position` (`--position`, default seated).
public struct ScriptedWearingOptInteraction: WearingOptInteraction {
    /// The position every retry uses.
    public var position: BraceletPosition

    /// Creates scripted answers retrying in `position`.
    public init(position: BraceletPosition) { self.position = position }

    public func pickPreparation(_ current: PreparationChoices) async throws -> PreparationChoices { current }
    public func confirmStrapTightness() async throws -> Bool { true }
    public func confirmPlacement(wrist: UserProfile.Wrist) async throws -> Bool { true }
    public func confirmStart(attempt: Int, position: BraceletPosition) async throws -> Bool { true }
    public func retry(after attempt: Int, reason: FailureReason, position: BraceletPosition) async throws -> BraceletPosition? {
        self.position
    }
}
