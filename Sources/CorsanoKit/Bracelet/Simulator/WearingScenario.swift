/// How the simulated firmware runs wearing optimization (special mode 4): a model, or scripted
/// poll results, per attempt. An attempt is one `startSpecialMode(value: 4)`.
public struct WearingScenario: Codable, Equatable, Sendable {
    /// The model used by attempts without a script of their own.
    public var model: WearingModel
    /// Per attempt (element 0 = attempt 1): a model or a list of polls. Past the end: `model`.
    public var attempts: [WearingAttemptScript]

    /// Creates the wearing behaviour.
    public init(model: WearingModel = .init(), attempts: [WearingAttemptScript] = []) {
        self.model = model
        self.attempts = attempts
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        model = try c.decodeIfPresent(WearingModel.self, forKey: .model) ?? WearingModel()
        attempts = try c.decodeIfPresent([WearingAttemptScript].self, forKey: .attempts) ?? []
    }

    /// What drives 1-based `attempt`.
    func script(attempt: Int) -> WearingAttemptScript {
        attempt >= 1 && attempt <= attempts.count ? attempts[attempt - 1] : WearingAttemptScript(model: model)
    }
}

/// One attempt's behaviour: `polls` (returned exactly as given, the last repeating) wins over `model`.
public struct WearingAttemptScript: Codable, Equatable, Sendable {
    /// A model for this attempt.
    public var model: WearingModel?
    /// Scripted poll results for this attempt, in order.
    public var polls: [WearingPoll]?

    /// Creates an attempt script.
    public init(model: WearingModel? = nil, polls: [WearingPoll]? = nil) {
        self.model = model
        self.polls = polls
    }
}

/// The physical situation the wearing model simulates.
///
/// Still converges in about 120 s, `some` movement in about 180 s, `restless` in about 240 s
/// (seed: "~2 minutes if the patient stays still, up to ~4 minutes if movement is detected").
/// Quality rises over the run toward a target set by contact: a good strap fit, a light skin tone
/// and little hair give the best signal.
public struct WearingModel: Codable, Equatable, Sendable {
    /// Fitzpatrick skin type 1-6; nil = from the bracelet's profile, else 3.
    public var skinTone: Int?
    /// `none`, `low`, `medium`, `high`; nil = from the bracelet's profile, else `low`.
    public var hairDensity: UserProfile.HairDensity?
    /// How the strap sits.
    public var strapFit: StrapFit
    /// How much the patient moves.
    public var movement: Movement
    /// False when the bracelet is not on the wrist (no skin contact).
    public var worn: Bool
    /// Overrides the accelerometer's gravity vector (g); nil = follow the announced position.
    public var gravity: GravityVector?

    /// Creates a model; defaults: good fit, still, worn.
    public init(skinTone: Int? = nil, hairDensity: UserProfile.HairDensity? = nil, strapFit: StrapFit = .good,
                movement: Movement = .still, worn: Bool = true, gravity: GravityVector? = nil) {
        self.skinTone = skinTone
        self.hairDensity = hairDensity
        self.strapFit = strapFit
        self.movement = movement
        self.worn = worn
        self.gravity = gravity
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        skinTone = try c.decodeIfPresent(Int.self, forKey: .skinTone)
        if let tone = skinTone, !(1...6).contains(tone) {
            throw DecodingError.dataCorruptedError(forKey: .skinTone, in: c, debugDescription: "expected 1-6, got \(tone)")
        }
        hairDensity = try c.decodeIfPresent(String.self, forKey: .hairDensity).map { raw in
            guard let v = UserProfile.HairDensity(rawValue: raw) else {
                throw DecodingError.dataCorruptedError(forKey: .hairDensity, in: c, debugDescription: "unknown value '\(raw)'")
            }
            return v
        }
        strapFit = try c.decodeIfPresent(StrapFit.self, forKey: .strapFit) ?? .good
        movement = try c.decodeIfPresent(Movement.self, forKey: .movement) ?? .still
        worn = try c.decodeIfPresent(Bool.self, forKey: .worn) ?? true
        gravity = try c.decodeIfPresent(GravityVector.self, forKey: .gravity)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(skinTone, forKey: .skinTone)
        try c.encodeIfPresent(hairDensity?.rawValue, forKey: .hairDensity)
        try c.encode(strapFit, forKey: .strapFit)
        try c.encode(movement, forKey: .movement)
        try c.encode(worn, forKey: .worn)
        try c.encodeIfPresent(gravity, forKey: .gravity)
    }

    enum CodingKeys: String, CodingKey { case skinTone, hairDensity, strapFit, movement, worn, gravity }

    /// How the strap sits on the wrist.
    public enum StrapFit: String, Codable, Sendable { case good, tight, loose }
    /// How much the patient moves during the run.
    public enum Movement: String, Codable, Sendable { case still, some, restless }
}

/// One scripted status poll, returned exactly as given. `timeout: true` makes the poll a missed
/// one (`BraceletError.timeout`) instead.
public struct WearingPoll: Codable, Equatable, Sendable {
    public var percent: Int?
    public var quality: Int?
    public var isSuccess: Bool?
    public var motionLevel: Int?
    public var finished: Bool?
    public var worn: Bool?
    /// Nil = follow the announced position.
    public var gravity: GravityVector?
    /// True = this poll goes unanswered.
    public var timeout: Bool?

    /// Creates a poll; unset fields default to 0 / false / worn.
    public init(percent: Int? = nil, quality: Int? = nil, isSuccess: Bool? = nil, motionLevel: Int? = nil,
                finished: Bool? = nil, worn: Bool? = nil, gravity: GravityVector? = nil, timeout: Bool? = nil) {
        self.percent = percent
        self.quality = quality
        self.isSuccess = isSuccess
        self.motionLevel = motionLevel
        self.finished = finished
        self.worn = worn
        self.gravity = gravity
        self.timeout = timeout
    }
}
