import Synchronization

/// One event of a flow (docs/design.md "Events"): the envelope (`flow`, `run`, `at`,
/// `bracelet`) and a typed payload. `json` is the one encoder: `event`, `flow`, `run`, `at`,
/// `bracelet` once the bracelet is identified, then the payload's members in the order scripts
/// have always seen.
///
/// `flow` is `bp-init`, `wearing-opt` or `profile-push` (or the command repairing a plan:
/// `repl`, `bracelet-repair`; `FlowName`); `run` is an id per process run; `at` comes from the run's clock (virtual time when
/// the clock is virtual).
public struct FlowEvent: Equatable, Sendable {
    public var flow: FlowName
    public var run: String
    public var at: Instant
    /// The bracelet's serial, so that the logs of parallel runs can be split; set by
    /// `BraceletStampedSink` for every event after the bracelet was identified (all of them).
    public var bracelet: String?
    /// The set of a multi-set calibration the run takes (`"set":2,"of":3`, issue 32); nil otherwise.
    public var calibrationSet: SetPosition?
    /// What happened.
    public var payload: FlowEventPayload

    /// Creates an event.
    public init(flow: FlowName, run: String, at: Instant, bracelet: String? = nil, _ payload: FlowEventPayload) {
        self.flow = flow
        self.run = run
        self.at = at
        self.bracelet = bracelet
        self.payload = payload
    }

    /// The event's name on the wire (`started`, `step`, ...).
    public var event: String { payload.name }

    /// The member called `name` of the encoded payload, if present (a view of `json`).
    public subscript(name: String) -> JSONValue? { payload.members.first { $0.0 == name }?.1 }

    /// The whole event as one JSON object, envelope first.
    public var json: JSONValue {
        .object([("event", .string(event)), ("flow", .string(flow.rawValue)), ("run", .string(run)),
                 ("at", .string(RFC3339.format(at)))] + (bracelet.map { [("bracelet", .string($0))] } ?? [])
                + (calibrationSet.map { [("set", .int($0.set)), ("of", .int($0.of))] } ?? []) + payload.members)
    }
}

/// Puts the bracelet's serial on every event before passing it on (docs/design.md "Events": "once the
/// bracelet is identified, `bracelet`"); `BraceletSession.run` wraps a run's sink in one.
public struct BraceletStampedSink: EventSink {
    /// The serial `identify` reported.
    public let serial: String
    /// Where the stamped events go.
    public let next: any EventSink

    /// Stamps with `serial` what goes to `next`.
    public init(serial: String, next: any EventSink) {
        self.serial = serial
        self.next = next
    }

    public func emit(_ event: FlowEvent) {
        var stamped = event
        stamped.bracelet = serial
        next.emit(stamped)
    }
}

/// What a flow event says, one case per event name of docs/design.md "Events".
public enum FlowEventPayload: Equatable, Sendable {
    /// The run began with this effective config.
    case started(FlowConfig)
    /// The flow entered a screen.
    case step(FlowStep)
    /// A cuff reading was fed to the bracelet, with the firmware's verdict (bp-init).
    case measurement(FedCuffReading)
    /// An attempt ended; wearing optimization says why one failed.
    case attempt(attempt: Int, succeeded: Bool, reason: FailureReason? = nil)
    /// Every reading fed during the run, in order (bp-init, before `finished`).
    case readings([FedCuffReading])
    /// The run ended.
    case finished(FlowResult)
    /// A cuff item did not pass the host rules; the flow keeps waiting (bp-init).
    case cuffReadingDropped(DroppedCuffItem)
    /// A status poll of the optimization (wearing-opt).
    case progress(WearingProgress)
    /// A user profile was pushed to the bracelet, or the push skipped.
    case profile(ProfileEvent)
    /// The bracelet's previous plan was restored.
    case planRestored(previousPlan: BraceletPlan, why: PlanRestoreReason)
    /// Restoring the previous plan failed (refused, timed out, the link died): the bracelet was
    /// left in `plan` (issue 25: a failed compensation is a failure, exit 4).
    case planRestoreFailed(plan: BraceletPlan, previousPlan: BraceletPlan, reason: String)

    /// The event's name on the wire.
    public var name: String {
        switch self {
        case .started: return "started"
        case .step: return "step"
        case .measurement: return "measurement"
        case .attempt: return "attempt"
        case .readings: return "readings"
        case .finished: return "finished"
        case .cuffReadingDropped: return "cuffReadingDropped"
        case .progress: return "progress"
        case .profile: return "profile"
        case .planRestored: return "planRestored"
        case .planRestoreFailed: return "planRestoreFailed"
        }
    }

    /// The payload's JSON members in wire order (docs/design.md "Events"; scripts match on them). A fed
    /// reading is its one record (`FedCuffReading.json`): the `measurement` payload and each
    /// element of `readings`.
    public var members: [(String, JSONValue)] {
        switch self {
        case .started(let config):
            return [("config", config.json)]
        case .step(let step):
            return step.members
        case .measurement(let fed):
            guard case .object(let members) = fed.json else { return [] }
            return members
        case .attempt(let attempt, let succeeded, let reason):
            return [("attempt", .int(attempt)), ("succeeded", .bool(succeeded))] + (reason.map { [("reason", $0.json)] } ?? [])
        case .readings(let fed):
            return [("readings", .array(fed.map(\.json)))]
        case .finished(let result):
            if case .bpInitSets(_, let sets) = result { return [("result", result.json), ("sets", .array(sets.map(\.summary)))] }
            return [("result", result.json)]
        case .cuffReadingDropped(let drop):
            return drop.members
        case .progress(let p):
            return [("attempt", .int(p.attempt)), ("percent", .int(p.percent)), ("quality", .int(p.quality)),
                    ("motionLevel", .int(p.motionLevel))]
        case .profile(let profile):
            return profile.members
        case .planRestored(let plan, let why):
            return [("previousPlan", .string(plan.name)), ("why", .string(why.rawValue))]
        case .planRestoreFailed(let plan, let previous, let reason):
            return [("plan", .string(plan.name)), ("previousPlan", .string(previous.name)), ("reason", .string(reason))]
        }
    }
}

/// Which set of a multi-set calibration a run takes: `set` (1-based) of `of`. Only
/// the core builds one (`MultiSetStart`), by the memberwise initializer.
public struct SetPosition: Equatable, Sendable {
    public var set: Int
    public var of: Int
}

/// The effective config of a run, as its `started` event carries it.
public enum FlowConfig: Equatable, Sendable {
    case bpInit(BPInitializationConfig)
    case wearingOpt(WearingOptimizationConfig)

    /// The `config` object.
    public var json: JSONValue {
        switch self {
        case .bpInit(let config): return config.json
        case .wearingOpt(let config): return config.json
        }
    }

    /// The attempt budget.
    public var maxAttempts: Int {
        switch self {
        case .bpInit(let config): return config.maxAttempts
        case .wearingOpt(let config): return config.maxAttempts
        }
    }

    /// Whether the run shows its preparation.
    public var includePreparation: Bool {
        switch self {
        case .bpInit(let config): return config.includePreparation
        case .wearingOpt(let config): return config.includePreparation
        }
    }
}

/// How a run ended, as its `finished` event carries it.
public enum FlowResult: Equatable, Sendable {
    case bpInit(BPInitializationResult)
    case wearingOpt(WearingOptimizationResult)
    /// The last set of a multi-set calibration: the firmware's verdict and every set's means
    /// (`finished`'s `sets`, issue 32).
    case bpInitSets(BPInitializationResult, sets: [CalibrationSetRecord])

    /// The `result` object.
    public var json: JSONValue {
        switch self {
        case .bpInit(let result), .bpInitSets(let result, _): return result.json
        case .wearingOpt(let result): return result.json
        }
    }

    /// True for the success case of either flow.
    public var isSuccess: Bool {
        switch self {
        case .bpInit(.success), .wearingOpt(.success), .bpInitSets(.success, _): return true
        default: return false
        }
    }

    /// True when the person left the flow (declined retry, SIGINT, SIGTERM).
    public var isCancelled: Bool {
        switch self {
        case .bpInit(.cancelledByUser), .wearingOpt(.cancelledByUser), .bpInitSets(.cancelledByUser, _): return true
        default: return false
        }
    }
}

/// The screens of wearing optimization, by the SDK's step names (seeds/wearing-optimization.txt,
/// "Flow reference").
public enum WearingOptimizationStep: String, CaseIterable, Equatable, Sendable {
    case preparation, armedPreparing, running, retryPrompt, finalSuccess, finalFailure
}

/// A `step` event: the screen and what the flow knows there. Members are written in one fixed
/// order (`step`, `preparation`, `attempt`, `index`, `maxAttempts`, `position`, `instructions`,
/// `reason`), each only when set.
public struct FlowStep: Equatable, Sendable {
    /// Which flow's screen.
    public enum Screen: Equatable, Sendable {
        case bpInit(BPInitializationStep)
        case wearingOpt(WearingOptimizationStep)

        /// The step's name on the wire.
        public var name: String {
            switch self {
            case .bpInit(let step): return step.rawValue
            case .wearingOpt(let step): return step.rawValue
            }
        }
    }

    public var screen: Screen
    /// bp-init's `instructions`: whether the preparation checklist shows.
    public var preparation: Bool?
    /// The attempt (1-based) the screen belongs to.
    public var attempt: Int?
    /// The measurement (1-based) within the attempt (bp-init).
    public var index: Int?
    /// The attempt budget (bp-init's `retryPrompt`).
    public var maxAttempts: Int?
    /// The position for the attempt (wearing-opt's `armedPreparing`).
    public var position: BraceletPosition?
    /// The instruction steps for that position (`BraceletPosition.instructionSteps`).
    public var instructions: [String]?
    /// Why the last attempt failed (wearing-opt's `retryPrompt`).
    public var reason: FailureReason?

    /// Creates a step.
    public init(_ screen: Screen, preparation: Bool? = nil, attempt: Int? = nil, index: Int? = nil, maxAttempts: Int? = nil,
                position: BraceletPosition? = nil, instructions: [String]? = nil, reason: FailureReason? = nil) {
        self.screen = screen
        self.preparation = preparation
        self.attempt = attempt
        self.index = index
        self.maxAttempts = maxAttempts
        self.position = position
        self.instructions = instructions
        self.reason = reason
    }

    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("step", .string(screen.name))]
        if let preparation { members.append(("preparation", .bool(preparation))) }
        if let attempt { members.append(("attempt", .int(attempt))) }
        if let index { members.append(("index", .int(index))) }
        if let maxAttempts { members.append(("maxAttempts", .int(maxAttempts))) }
        if let position { members.append(("position", .string(position.rawValue))) }
        if let instructions { members.append(("instructions", .array(instructions.map(JSONValue.string)))) }
        if let reason { members.append(("reason", reason.json)) }
        return members
    }
}

/// A cuff item bp-init dropped and why (`cuffReadingDropped`).
public struct DroppedCuffItem: Equatable, Sendable {
    /// The `reason` word.
    public enum Reason: String, CaseIterable, Equatable, Sendable {
        case unanchored, replayed, duplicate, invalid
        /// No pulse: the SDK's CuffReading requires one (docs/design.md "Data on the wire").
        case incomplete
        /// The reading's own `status` flags it (`problem` names the flags; `ReadingQuality`).
        case flagged

        /// The bp-init drop of a host-rule drop; nil for the rules that end the flow instead
        /// (`stale`, `future`).
        public init?(_ rule: DropReason) {
            switch rule {
            case .unanchored: self = .unanchored
            case .replayed: self = .replayed
            case .duplicate: self = .duplicate
            case .invalid: self = .invalid
            case .stale, .future: return nil
            }
        }
    }

    /// What was dropped.
    public enum Item: Equatable, Sendable {
        /// A line that is not a reading (`line`, `problem` naming the field).
        case line(String, problem: String)
        /// A reading; `problem` says what is implausible for `invalid`, the flags for `flagged`.
        case reading(CuffReading, problem: String?)
    }

    public var reason: Reason
    public var item: Item

    /// Creates a drop.
    public init(_ reason: Reason, _ item: Item) {
        self.reason = reason
        self.item = item
    }

    var members: [(String, JSONValue)] {
        switch item {
        case .line(let line, let problem):
            return [("reason", .string(reason.rawValue)), ("line", .string(line)), ("problem", .string(problem))]
        case .reading(let reading, let problem):
            return [("reason", .string(reason.rawValue)), ("reading", reading.json())] + (problem.map { [("problem", .string($0))] } ?? [])
        }
    }
}

/// One status poll of a wearing optimization (built only by the flow, memberwise).
public struct WearingProgress: Equatable, Sendable {
    public var attempt: Int
    /// 0-100.
    public var percent: Int
    /// The raw 0-100 PPG quality.
    public var quality: Int
    public var motionLevel: Int
}

/// A `profile` event: a push, or a push skipped because the bracelet holds the same profile.
public struct ProfileEvent: Equatable, Sendable {
    /// Why the profile was pushed or skipped.
    public enum Why: String, Equatable, Sendable {
        /// wearing-opt without preparation pushes the stored profile itself (seed "Configuration").
        case noPreparation
        /// wearing-opt's strap-tightness substep pushes, forced (seed).
        case strapTightness
        /// `profile push` found the same profile on the bracelet.
        case sameProfile
    }

    public var outcome: ProfilePush.Outcome
    public var forced: Bool
    public var why: Why?
    public var serial: String
    public var values: UserProfile

    /// Creates the event's payload.
    public init(outcome: ProfilePush.Outcome, forced: Bool, why: Why?, serial: String, values: UserProfile) {
        (self.outcome, self.forced, self.why, self.serial, self.values) = (outcome, forced, why, serial, values)
    }

    /// `profile`, `forced`, then a push's `why` before `serial`, a skip's after it, then `values`
    /// (the order each flow has always written).
    var members: [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("profile", .string(outcome.rawValue)), ("forced", .bool(forced))]
        let why = self.why.map { [("why", JSONValue.string($0.rawValue))] } ?? []
        members += outcome == .skipped ? [("serial", .string(serial))] + why : why + [("serial", .string(serial))]
        return members + [("values", values.json)]
    }
}

/// Why a plan was restored.
public enum PlanRestoreReason: String, Equatable, Sendable {
    /// The flow restored it on its way out.
    case flowEnded
    /// The journal repair restored what an earlier run left (docs/design.md "Plan safety").
    case journal
    /// A person set the plan with `corsano bracelet repair --plan PLAN`: nothing recorded what
    /// the bracelet ran before.
    case `operator`
}

/// Where a flow's events go: JSON lines, localized text, a test recorder, the audit log.
public protocol EventSink: Sendable {
    /// Receives one event, in order. Must not block on the terminal for long.
    func emit(_ event: FlowEvent)
}

/// An event sink that keeps every event, for tests and for fan-out.
public final class EventRecorder: EventSink {
    private let stored = Mutex<[FlowEvent]>([])

    /// Creates an empty recorder.
    public init() {}

    public func emit(_ event: FlowEvent) { stored.withLock { $0.append(event) } }

    /// Every event received so far, in order.
    public var events: [FlowEvent] { stored.withLock { $0 } }

    /// The names of the events received so far.
    public var names: [String] { events.map(\.event) }
}

/// Sends each event to several sinks in order (e.g. stdout and the audit log).
public struct EventFanOut: EventSink {
    public let sinks: [any EventSink]
    /// Creates a fan-out.
    public init(_ sinks: [any EventSink]) { self.sinks = sinks }
    public func emit(_ event: FlowEvent) { for sink in sinks { sink.emit(event) } }
}
