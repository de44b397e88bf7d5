import Synchronization

/// The in-process firmware simulator: a `Bracelet` driven by a `Scenario`, deterministic for a
/// seed, on the client's clock (optimization progress = clock time since `startSpecialMode`).
///
/// One instance is one connection: attempt and poll counters and the link start fresh; plan,
/// profile and step counts live in a `SimulatedBraceletState` that `bracelet serve` keeps per serial.
public final class SimulatedBracelet: Bracelet {
    /// The scenario this bracelet follows.
    public let scenario: Scenario
    /// Plan, profile and calibration, shared across connections to the same serial.
    public let state: SimulatedBraceletState
    let clock: any FlowClock
    /// The PRNG seed (`--seed`): also the seed of the NIBP model's noise.
    let seed: UInt64
    let link = SimulatedLink()
    /// Tells the person what a fault does that they would otherwise wait on (a hold: a notice).
    let diagnostics: Diagnostics
    let session: Mutex<Session>
    /// This connection's number, which a hold of the calibration plan names.
    let connection = SimulatedBracelet.connections.add(1, ordering: .relaxed).newValue
    private static let connections = Atomic<Int>(0)
    /// The run this connection's requests name (`holder`); an unnamed one when none did.
    private let holder = Mutex(BraceletHolder(run: "unnamed", gateway: "", pid: 0))

    struct Session {
        var rng: SplitMix64
        var planSwitchCounts: [String: Int] = [:]
        var verdicts: [Int: [Int: Bool]] = [:]
        /// The readings fed per attempt, with when (the NIBP model's calibration).
        var fed: [Int: [(reading: CuffReading, fedAt: Instant)]] = [:]
        var position: BraceletPosition = .seated
        var wearingAttempt = 0
        var modeStartedAt: Instant?
        var pollCount = 0
    }

    /// The PRNG seed a caller uses when it names none (`--seed`).
    public static let defaultSeed: UInt64 = 1

    /// Creates a simulator for `scenario` with PRNG `seed`, reading time from `clock`.
    /// - Parameters:
    ///   - state: the bracelet's persistent state (a fresh one from the scenario when nil).
    ///   - diagnostics: hears, as a notice, when a call starts being held and until what.
    public init(scenario: Scenario = Scenario(), seed: UInt64 = defaultSeed, clock: any FlowClock,
                state: SimulatedBraceletState? = nil, diagnostics: Diagnostics = .none) {
        self.scenario = scenario
        self.clock = clock
        self.seed = seed
        self.diagnostics = diagnostics
        self.state = state ?? SimulatedBraceletState(scenario: scenario)
        session = Mutex(Session(rng: SplitMix64(seed: seed)))
    }

    public func identify() async throws -> BraceletIdentity {
        try link.check()
        if let why = scenario.faults.unavailable { throw BraceletError.unavailable(why) }
        return BraceletIdentity(model: scenario.model, firmware: scenario.firmware, serial: scenario.serial)
    }

    public func currentPlan() async throws -> BraceletPlan {
        try link.check()
        return state.plan
    }

    public func planStatus() async throws -> PlanStatus {
        try link.check()
        return state.planStatus
    }

    public func name(holder: BraceletHolder) {
        self.holder.withLock { $0 = holder }
    }

    /// Ends this connection's hold of the calibration plan (its connection closed).
    public func releaseHold() {
        state.releaseHold(connection: connection)
    }

    public func setPlan(_ plan: BraceletPlan) async throws {
        try link.check()
        let n = session.withLock { s in
            s.planSwitchCounts[plan.name, default: 0] += 1
            return s.planSwitchCounts[plan.name, default: 0]
        }
        if let fault = scenario.faults.failPlanSwitch, fault.to == plan.name, fault.occurrence.map({ $0 == n }) ?? true {
            throw BraceletError.refused("switch to plan \(plan.name) failed")
        }
        try state.switchPlan(to: plan, connection: connection, holder: holder.withLock { $0 })
    }

    public func readProfile() async throws -> UserProfile? {
        try link.check()
        return state.profile
    }

    public func pushProfile(_ profile: UserProfile, force: Bool) async throws {
        try link.check()
        state.profile = profile
    }

    public func enterStep(flow: String, step: String) async throws {
        try link.check()
        let n = state.enter(flow: flow, step: step)
        if scenario.faults.disconnectAtStep?.matches(flow: flow, step: step, occurrence: n) == true {
            throw disconnect()
        }
        if let hold = scenario.faults.holdAtStep, hold.matches(flow: flow, step: step, occurrence: n) {
            diagnostics.notice(.simulator, hold.notice(flow: flow, occurrence: n))
            try await link.hold(step: step, signal: state.holds, for: hold.seconds.map { .seconds($0) })
        }
        if scenario.faults.silentAtStep?.matches(flow: flow, step: step, occurrence: n) == true {
            SimulatedSilence.current?.silence()
            try await link.hold(step: step, signal: state.holds)
        }
    }

    public func announcePosition(_ position: BraceletPosition) async throws {
        try link.check()
        session.withLock { $0.position = position }
    }

    public func close() async {
        link.drop()
        releaseHold()
    }

    /// Drops the link now: held and later calls fail with `.disconnected` (the BLE link dropped).
    @discardableResult
    public func disconnect() -> BraceletError {
        link.drop()
        return .disconnected
    }

    /// True while the link is up.
    public var isConnected: Bool { link.isUp }

    /// Returns once a call is held at a step (`faults.holdAtStep`) on any connection to this
    /// bracelet; at once when one already was; early when the waiting task is cancelled.
    public func waitUntilHeld() async { await state.holds.waitUntilHeld() }

    /// The steps calls of this connection are held at right now.
    public var heldSteps: [String] { link.heldSteps }

    /// Every step a call to this bracelet was held at, on any connection, in order.
    public var stepsHeldSoFar: [String] { state.holds.steps }
}

/// Marks a served request the scenario keeps silent (`faults.silentAtStep`): the bridge session
/// then sends no `working` for it, as a bridge that hung would.
final class SimulatedSilence: Sendable {
    @TaskLocal static var current: SimulatedSilence?
    private let state = Mutex((silent: false, answered: false))

    /// From now on the request is silent.
    func silence() { state.withLock { $0.silent = true } }

    /// True once silenced.
    var isSilent: Bool { state.withLock { $0.silent } }

    /// The request's work is over (answered, or cancelled unanswered): no more `working`.
    func answered() { state.withLock { $0.answered = true } }

    /// True once `answered()`.
    var isAnswered: Bool { state.withLock { $0.answered } }
}
