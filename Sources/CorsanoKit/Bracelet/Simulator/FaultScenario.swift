/// Faults a scenario injects, so tests reach every way out of a flow deterministically.
///
/// After any disconnect the link stays down: every later call throws `.disconnected`.
public struct FaultScenario: Codable, Equatable, Sendable {
    /// The `enterStep` call at this step blocks until its task is cancelled (or the link drops).
    public var holdAtStep: StepPoint?
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
    public init(holdAtStep: StepPoint? = nil, disconnectAtStep: StepPoint? = nil,
                disconnectAtMeasurement: MeasurementPoint? = nil, disconnectAtPoll: PollPoint? = nil,
                pollTimeoutFrom: PollPoint? = nil, failPlanSwitch: PlanSwitchPoint? = nil, unavailable: String? = nil) {
        self.holdAtStep = holdAtStep
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
