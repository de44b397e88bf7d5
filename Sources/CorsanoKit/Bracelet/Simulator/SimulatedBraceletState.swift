import Synchronization

/// What a simulated bracelet remembers across connections, like a real one: its plan, its user
/// profile, and whether its NIBP model is calibrated. `bracelet serve` keeps one per serial.
public final class SimulatedBraceletState: Sendable {
    /// The serial this state belongs to.
    public let serial: String
    private let stored: Mutex<Stored>
    /// Holds at a step on any connection to this bracelet.
    let holds = HoldSignal()

    struct Stored {
        var plan: BraceletPlan
        var profile: UserProfile?
        var calibrated = false
        var stepCounts: [String: Int] = [:]
        /// The connection holding the calibration plan, and the run it named.
        var hold: (connection: Int, holder: BraceletHolder)?
        /// The special mode running (4 = wearing optimization), kept with the bracelet: a client
        /// killed mid-optimization leaves it running until a command stops it.
        var specialMode: Int?
        /// Every NIBP calibration attempt's effect on the model, oldest first.
        var nibpHistory: [SimulatedNIBPCalibration] = []
        /// A multi-set calibration's per-reading verdicts by set and index, and its set count.
        var setVerdicts: [Int: [Int: Bool]] = [:]
        /// The readings each set was fed, with the instant each was fed (the final verdict
        /// calibrates the NIBP model from all of them, as an attempt's does).
        var setFed: [Int: [Int: (reading: CuffReading, fedAt: Instant)]] = [:]
        var setsOf = 0
        /// Plan switches done on this bracelet, over every connection (`sim.planSwitches`).
        var planSwitches = 0
    }

    /// Creates the state a scenario starts with.
    public init(scenario: Scenario) {
        serial = scenario.serial
        stored = Mutex(Stored(plan: BraceletPlan(scenario.plan), profile: scenario.profile?.profile))
    }

    /// The plan the bracelet runs now.
    public var plan: BraceletPlan {
        get { stored.withLock { $0.plan } }
        set { stored.withLock { $0.plan = newValue } }
    }

    /// The plan and the run holding it in calibration (docs/bridge-protocol.md "Holders").
    public var planStatus: PlanStatus {
        stored.withLock { PlanStatus(plan: $0.plan, holder: $0.hold?.holder) }
    }

    /// Switches to `plan` for `connection`, atomically: the calibration plan is held by the
    /// connection that switched to it, and refused to any other while held (`-32005`); any
    /// other plan ends the hold. Source: issue 25 (one flow per bracelet at a time).
    /// - Throws: `BraceletError.held` naming the live holder.
    func switchPlan(to plan: BraceletPlan, connection: Int, holder: BraceletHolder) throws {
        try stored.withLock { s in
            if plan == .nibpCalibration {
                if let hold = s.hold, hold.connection != connection { throw BraceletError.held(hold.holder) }
                s.hold = (connection, holder)
            } else {
                s.hold = nil
            }
            s.plan = plan
            s.planSwitches += 1
        }
    }

    /// Ends `connection`'s hold, if it holds one (its connection closed); the plan stays.
    func releaseHold(connection: Int) {
        stored.withLock { s in if s.hold?.connection == connection { s.hold = nil } }
    }

    /// The special mode running on the bracelet, nil when none.
    public var specialMode: Int? {
        get { stored.withLock { $0.specialMode } }
        set { stored.withLock { $0.specialMode = newValue } }
    }

    /// The profile the bracelet holds.
    public var profile: UserProfile? {
        get { stored.withLock { $0.profile } }
        set { stored.withLock { $0.profile = newValue } }
    }

    /// Counts one more entry of `step` of `flow` on this bracelet and returns the count (1-based).
    /// Kept with the bracelet, not the connection, so a scripted hold or disconnect at a step fires
    /// once per served bracelet: the next run on it (a rerun, a repairing command) passes.
    func enter(flow: String, step: String) -> Int {
        stored.withLock { s in
            s.stepCounts[flow + "/" + step, default: 0] += 1
            return s.stepCounts[flow + "/" + step, default: 0]
        }
    }

    /// Every calibration attempt's effect on the NIBP model, oldest first.
    public var nibpHistory: [SimulatedNIBPCalibration] { stored.withLock { $0.nibpHistory } }

    /// Records an attempt's effect on the NIBP model.
    func record(_ calibration: SimulatedNIBPCalibration) {
        stored.withLock { $0.nibpHistory.append(calibration) }
    }

    /// Records a multi-set reading (fed at `fedAt`) and its verdict: index 1 of set N starts set N
    /// afresh (a set cut short is redone whole, and later sets are gone with it), and another set
    /// count starts over.
    func recordSetVerdict(_ verdict: Bool, reading: CuffReading, fedAt: Instant, set: Int, of: Int, index: Int) {
        stored.withLock { s in
            if s.setsOf != of {
                s.setVerdicts = [:]
                s.setFed = [:]
                s.setsOf = of
            }
            if index == 1 {
                s.setVerdicts = s.setVerdicts.filter { $0.key < set }
                s.setFed = s.setFed.filter { $0.key < set }
            }
            s.setVerdicts[set, default: [:]][index] = verdict
            s.setFed[set, default: [:]][index] = (reading, fedAt)
        }
    }

    /// Every reading fed to the sets of a calibration of `of` sets, in set and index order.
    func setReadings(of: Int) -> [(reading: CuffReading, fedAt: Instant)] {
        stored.withLock { s in
            guard s.setsOf == of else { return [] }
            return s.setFed.keys.sorted().flatMap { set in s.setFed[set]!.keys.sorted().map { s.setFed[set]![$0]! } }
        }
    }

    /// Plan switches done on this bracelet so far, over every connection (a test's witness that a
    /// run sent no `setPlan`, issue 32).
    public var planSwitches: Int { stored.withLock { $0.planSwitches } }

    /// The multi-set verdicts recorded for a calibration of `of` sets, by set (none for another count).
    func setVerdicts(of: Int) -> [Int: [Int: Bool]] {
        stored.withLock { $0.setsOf == of ? $0.setVerdicts : [:] }
    }

    /// True once a calibration attempt was accepted.
    public var calibrated: Bool {
        get { stored.withLock { $0.calibrated } }
        set { stored.withLock { $0.calibrated = newValue } }
    }
}
