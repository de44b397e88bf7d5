/// PPG wearing optimization, step for step as the seed's "Flow reference" says:
/// preparation → instructions (`armedPreparing`) → running → retry prompt → final success/failure.
///
/// The bracelet, clock, event sink and user are injected, so a 4-minute optimization runs in a
/// test in milliseconds on a virtual clock. Special mode is stopped on every way out. The
/// firmware gate (287-2, firmware >= 7.0) is the caller's job before `run()`.
public struct WearingOptimizationFlow: Sendable {
    public var bracelet: any Bracelet
    public var clock: any FlowClock
    public var events: any EventSink
    public var interaction: any WearingOptInteraction
    public var config: WearingOptimizationConfig
    /// The bracelet's serial (keys the stored profile).
    public var serial: String
    /// The profile to start from and push: the caller's (`--profile`), else the one last pushed
    /// to this bracelet (state store), else what the bracelet holds. nil is refused
    /// (`WearingOptError.noProfile`).
    public var profile: UserProfile?
    /// Where a pushed profile is recorded as the bracelet's last; nil records nothing.
    public var profileStore: ProfileStore?
    /// The run id written in every event.
    public var run: String
    /// With `profile` nil, read the profile the bracelet holds at the start of `run()`: a
    /// bracelet that fails then ends the run as `braceletDisconnected` with `started` and
    /// `finished` written (it was identified; issue 18).
    public var readsBraceletProfile = false
    /// The fields named in `WearingOptError.noProfile` when no profile is found at all.
    public var missingWithoutProfile = ProfileRules.fields

    /// Creates a flow.
    public init(bracelet: any Bracelet, clock: any FlowClock, events: any EventSink,
                interaction: any WearingOptInteraction, config: WearingOptimizationConfig,
                serial: String, profile: UserProfile?, profileStore: ProfileStore?, run: String) {
        self.bracelet = bracelet
        self.clock = clock
        self.events = events
        self.interaction = interaction
        self.config = config
        self.serial = serial
        self.profile = profile
        self.profileStore = profileStore
        self.run = run
    }

    /// The bracelet error that ended the run as `braceletDisconnected`, shared by copies of the
    /// flow value, for the command to name on stderr.
    let braceletFailure = FailureBox()
    /// The error behind a `braceletDisconnected` result, if any.
    public var braceletFailureCause: BraceletError? { braceletFailure.value.withLock { $0 } }

    /// Runs the whole flow and returns its result; cancellation of the task is `cancelledByUser`.
    /// - Throws: `WearingOptError.noProfile` before anything starts (no `started`) when there is no
    ///   profile to push; `BraceletError.refused` when the bracelet refuses the profile;
    ///   `StoreError` when the pushed profile cannot be recorded. A bracelet that fails while its
    ///   profile is read (`readsBraceletProfile`) ends the run as `braceletDisconnected`.
    public func run() async throws -> WearingOptimizationResult {
        var profile = self.profile
        var readFailure: WearingOptimizationResult?
        if profile == nil, readsBraceletProfile {
            do {
                profile = try await bracelet.readProfile()
            } catch let error as BraceletError where error.endsFlowAsDisconnect {
                braceletFailure.value.withLock { $0 = error }
                readFailure = .braceletDisconnected
            } catch is CancellationError {
                readFailure = .cancelledByUser
            }
        }
        guard readFailure != nil || profile != nil else {
            throw WearingOptError.noProfile(serial: serial, missing: missingWithoutProfile)
        }
        emit(.started(.wearingOpt(config)))
        let result: WearingOptimizationResult
        do {
            if let readFailure { throw WearingRunEnd(result: readFailure) }
            try await prepare(profile!)
            result = try await attempts()
        } catch let end as WearingRunEnd {
            result = end.result
        } catch is CancellationError {
            result = .cancelledByUser
        } catch let error as BraceletError where error.endsFlowAsDisconnect {
            braceletFailure.value.withLock { $0 = $0 ?? error }
            result = .braceletDisconnected
        } catch FlowStop.declined {
            result = .cancelledByUser
        }
        emit(.finished(.wearingOpt(result)))
        return result
    }

    /// The preparation phase, or the host-side forced push when it is off (seed: "Configuration").
    func prepare(_ stored: UserProfile) async throws {
        var profile = PreparationChoices(
            skinTone: config.skinTone ?? stored.skinTone, hairDensity: config.hairDensity ?? stored.hairDensity,
            wrist: config.wrist ?? stored.wrist).applied(to: stored)
        guard config.includePreparation else {
            try await push(profile, why: .noPreparation)
            return
        }
        try await enter(FlowStep(.wearingOpt(.preparation)))
        profile = try await interaction.pickPreparation(PreparationChoices(profile)).applied(to: profile)
        guard try await interaction.confirmStrapTightness() else { throw FlowStop.declined }
        // Seed: the strap-tightness substep fires sendUserProfileToBracelet(force: true).
        try await push(profile, why: .strapTightness)
        guard try await interaction.confirmPlacement(wrist: profile.wrist) else { throw FlowStop.declined }
    }

    /// Pushes `profile` forced, records it as the bracelet's last and says so (`profile` event).
    func push(_ profile: UserProfile, why: ProfileEvent.Why) async throws {
        try await bracelet.pushProfile(profile, force: true)
        try profileStore?.save(profile, serial: serial, at: clock.now())
        emit(.profile(ProfileEvent(outcome: .pushed, forced: true, why: why, serial: serial, values: profile)))
    }

    /// Emits `step` and tells the bracelet side (a scenario may hold or disconnect there).
    func enter(_ step: FlowStep) async throws {
        emit(.step(step))
        try await bracelet.enterStep(flow: FlowName.wearingOpt.rawValue, step: step.screen.name)
    }

    /// Writes one event stamped with the flow's clock.
    func emit(_ payload: FlowEventPayload) {
        events.emit(FlowEvent(flow: .wearingOpt, run: run, at: clock.now(), payload))
    }
}

/// The user said no at a prompt (→ cancelledByUser).
enum FlowStop: Error { case declined }

/// Ends the run with a result decided before preparation (the profile could not be read).
struct WearingRunEnd: Error {
    let result: WearingOptimizationResult
}

/// Why a wearing optimization cannot start.
public enum WearingOptError: Error, Equatable, Sendable {
    /// No profile to start from: none given, none pushed to this bracelet before, none on the
    /// bracelet; `missing` are the fields (JSON names, `ProfileRules.fields` order) nothing gave
    /// (seed: "Configuration": the host pushes the profile).
    case noProfile(serial: String, missing: [String])
}

extension BraceletError {
    /// Disconnects, unreachable links and timeouts of requests other than status polls end the
    /// flow as `braceletDisconnected` (docs/design.md "The bracelet port").
    var endsFlowAsDisconnect: Bool {
        switch self {
        case .disconnected, .unavailable, .timeout, .held, .busy: return true
        case .refused: return false
        }
    }
}
