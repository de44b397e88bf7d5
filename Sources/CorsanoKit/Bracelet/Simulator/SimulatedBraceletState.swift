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

    /// True once a calibration attempt was accepted.
    public var calibrated: Bool {
        get { stored.withLock { $0.calibrated } }
        set { stored.withLock { $0.calibrated = newValue } }
    }
}
