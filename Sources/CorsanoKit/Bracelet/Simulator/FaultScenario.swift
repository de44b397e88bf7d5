/// Faults a scenario injects, so tests reach every way out of a flow deterministically.
///
/// After any disconnect the link stays down: every later call throws `.disconnected`.
public struct FaultScenario: Codable, Equatable, Sendable {
    /// The `enterStep` call at this step blocks until its task is cancelled (or the link drops),
    /// or for `seconds` of real time.
    public var holdAtStep: HoldPoint?
    /// The `enterStep` call at this step is never answered: over the bridge the server sends
    /// nothing for it (no answer, no `working`), so the client's request timeout ends the run
    /// as a disconnect; in process it waits like `holdAtStep`.
    public var silentAtStep: StepPoint?
    /// The `enterStep` call at this step drops the link.
    public var disconnectAtStep: StepPoint?
    /// Feeding this measurement drops the link.
    public var disconnectAtMeasurement: MeasurementPoint?
    /// This status poll drops the link.
    public var disconnectAtPoll: PollPoint?
    /// Status polls from this one on go unanswered (`.timeout`); without `attempt`, in every attempt.
    public var pollTimeoutFrom: PollPoint?
    /// Switching to this plan fails with `.refused`.
    public var failPlanSwitch: PlanSwitchPoint?
    /// When set, `identify` fails with `.unavailable(this text)` (cannot connect, exit 69).
    public var unavailable: String?

    /// Creates a fault set (none by default).
    public init(holdAtStep: HoldPoint? = nil, silentAtStep: StepPoint? = nil, disconnectAtStep: StepPoint? = nil,
                disconnectAtMeasurement: MeasurementPoint? = nil, disconnectAtPoll: PollPoint? = nil,
                pollTimeoutFrom: PollPoint? = nil, failPlanSwitch: PlanSwitchPoint? = nil, unavailable: String? = nil) {
        self.holdAtStep = holdAtStep
        self.silentAtStep = silentAtStep
        self.disconnectAtStep = disconnectAtStep
        self.disconnectAtMeasurement = disconnectAtMeasurement
        self.disconnectAtPoll = disconnectAtPoll
        self.pollTimeoutFrom = pollTimeoutFrom
        self.failPlanSwitch = failPlanSwitch
        self.unavailable = unavailable
    }
}

/// A named flow step, at its n-th entry (1-based, default 1); `flow` nil = any flow.
public struct StepPoint: Codable, Equatable, Sendable {
    public var flow: String?
    public var step: String
    public var occurrence: Int?

    /// Creates a step point.
    public init(flow: String? = nil, step: String, occurrence: Int? = nil) {
        self.flow = flow
        self.step = step
        self.occurrence = occurrence
    }

    func matches(flow: String, step: String, occurrence: Int) -> Bool {
        (self.flow == nil || self.flow == flow) && self.step == step && (self.occurrence ?? 1) == occurrence
    }
}

/// Where a call is held (`faults.holdAtStep`): a flow step at its n-th entry, as `StepPoint`, and
/// for how long.
public struct HoldPoint: Codable, Equatable, Sendable {
    public var flow: String?
    public var step: String
    public var occurrence: Int?
    /// Seconds of real time the call is held before it goes on as usual (the run's clock may be
    /// virtual: a hold is for a person or a test to act in); nil holds until the task is
    /// cancelled or the link drops.
    public var seconds: Int?

    /// Creates a hold point.
    public init(flow: String? = nil, step: String, occurrence: Int? = nil, seconds: Int? = nil) {
        self.flow = flow
        self.step = step
        self.occurrence = occurrence
        self.seconds = seconds
    }

    func matches(flow: String, step: String, occurrence: Int) -> Bool {
        StepPoint(flow: self.flow, step: self.step, occurrence: self.occurrence).matches(flow: flow, step: step, occurrence: occurrence)
    }

    /// What the simulator says on stderr when the hold begins: where, and until what.
    func notice(flow: String, occurrence: Int) -> String {
        let until = seconds.map { "for \($0) s (faults.holdAtStep.seconds), then goes on" }
            ?? "until the run is cancelled (Control-C, SIGINT or SIGTERM) or the link drops"
        return "simulator: holding \(flow) at step \(step) (entry \(occurrence), faults.holdAtStep) \(until)"
    }
}

/// A calibration measurement: 1-based attempt (default 1) and index within it.
public struct MeasurementPoint: Codable, Equatable, Sendable {
    public var attempt: Int?
    public var index: Int

    /// Creates a measurement point.
    public init(attempt: Int? = nil, index: Int) {
        self.attempt = attempt
        self.index = index
    }
}

/// A status poll: 1-based poll number within a wearing-optimization attempt (1-based, default 1).
public struct PollPoint: Codable, Equatable, Sendable {
    public var attempt: Int?
    public var poll: Int

    /// Creates a poll point.
    public init(attempt: Int? = nil, poll: Int) {
        self.attempt = attempt
        self.poll = poll
    }
}

/// A plan switch: to plan `to`, at its n-th request (default: every one).
public struct PlanSwitchPoint: Codable, Equatable, Sendable {
    public var to: String
    public var occurrence: Int?

    /// Creates a plan-switch point.
    public init(to: String, occurrence: Int? = nil) {
        self.to = to
        self.occurrence = occurrence
    }
}
