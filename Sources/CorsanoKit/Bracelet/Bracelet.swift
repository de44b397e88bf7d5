/// The bracelet port: everything a flow asks of a Corsano bracelet, async and cancellable.
///
/// Implementations: the in-process simulator (`sim`, `sim:SCENARIO.json`) and the JSON-RPC
/// bridge client (`unix:`, `tcp:`, `exec:`). A disconnect interrupts any call with
/// `BraceletError.disconnected`. Source: docs/design.md "The bracelet port"; seeds for the SDK calls
/// (`startSpecialModeCustom(value: 4)`, `getSpecialModeStatus(typeOfParam: 4)`).
public protocol Bracelet: Sendable {
    /// Model, firmware version and serial. - Throws: `BraceletError`.
    func identify() async throws -> BraceletIdentity
    /// The plan the bracelet runs now. - Throws: `BraceletError`.
    func currentPlan() async throws -> BraceletPlan
    /// Switches the bracelet to `plan`. - Throws: `BraceletError` (`.refused` when the switch fails).
    func setPlan(_ plan: BraceletPlan) async throws
    /// The user profile the bracelet holds, nil when none. - Throws: `BraceletError`.
    func readProfile() async throws -> UserProfile?
    /// Sends `profile` (the SDK's `sendUserProfileToBracelet(force:)`). - Throws: `BraceletError`.
    func pushProfile(_ profile: UserProfile, force: Bool) async throws
    /// Feeds one cuff reading of a calibration attempt (1-based `attempt`, `index`) and returns
    /// the firmware's per-measurement verdict (true = accepted). - Throws: `BraceletError`.
    func feedCalibrationReading(_ reading: CuffReading, attempt: Int, index: Int) async throws -> Bool
    /// The firmware's verdict on a whole calibration attempt (true = calibrated). - Throws: `BraceletError`.
    func calibrationVerdict(attempt: Int) async throws -> Bool
    /// The bracelet's stored NIBP values measured in `since...until` (either end open), oldest
    /// first (bridge `readNIBP`, issue 33). - Throws: `BraceletError` (`.unavailable` naming the
    /// method when a bridge does not implement it: -32601).
    func readNIBP(since: Instant?, until: Instant?) async throws -> [NIBPValue]
    /// One spot NIBP measurement now (bridge `measureNIBP`, a long request: the bracelet measures
    /// for about 2 minutes). - Throws: `BraceletError` (`.unavailable` naming the method on -32601).
    func measureNIBP() async throws -> NIBPValue
    /// Feeds reading `index` (1-based) of set `set` of a multi-set calibration of `of` sets
    /// (the bridge's `feedCalibrationReading` with `set` and `of`): index 1 starts set
    /// `set` afresh, so a set cut short is redone whole. Returns the per-reading verdict.
    /// - Throws: `BraceletError`.
    func feedSetReading(_ reading: CuffReading, set: Int, of: Int, index: Int) async throws -> Bool
    /// The firmware's verdict on a whole multi-set calibration of `of` sets, asked once after the
    /// last set (the bridge's `calibrationVerdict` with `sets`). - Throws: `BraceletError`.
    func setsVerdict(of: Int) async throws -> Bool
    /// Starts special mode `value` (4 = wearing optimization). - Throws: `BraceletError`.
    func startSpecialMode(value: Int) async throws
    /// Polls special-mode status `type` (4). - Throws: `BraceletError` (`.timeout` = a missed poll).
    func specialModeStatus(type: Int) async throws -> SpecialModeStatus
    /// Stops special mode. - Throws: `BraceletError`.
    func stopSpecialMode() async throws
    /// Tells the bracelet side which flow step was entered (`flow`: `bp-init`, `wearing-opt`),
    /// so a simulator scenario can hold or disconnect at a named step; a real bracelet ignores it.
    /// - Throws: `BraceletError.disconnected` when a scenario disconnects here; `CancellationError`.
    func enterStep(flow: String, step: String) async throws
    /// Tells the bracelet side the position the patient was asked to take for the next
    /// wearing-optimization attempt; the simulator points its accelerometer's gravity that way
    /// (unless its scenario overrides gravity). A real bracelet ignores it.
    /// - Throws: `BraceletError.disconnected` when the link is down.
    func announcePosition(_ position: BraceletPosition) async throws
    /// Closes the link (idempotent).
    func close() async
    /// The plan the bracelet runs now and, while a run holds the calibration plan through a
    /// bridge, that run (`getPlan`'s `holder`, docs/bridge-protocol.md). - Throws: `BraceletError`.
    func planStatus() async throws -> PlanStatus
    /// Names the run every later request comes from (run id, gateway, pid): a bridge records it
    /// as the holder of the calibration plan this connection switches to.
    func name(holder: BraceletHolder)
}

extension Bracelet {
    /// Default: a bracelet that cannot use the announcement ignores it.
    public func announcePosition(_ position: BraceletPosition) async throws {}
    /// Default: the plan, no holder (a bracelet nothing else reaches).
    public func planStatus() async throws -> PlanStatus { PlanStatus(plan: try await currentPlan(), holder: nil) }
    /// Default: a bracelet that cannot record a holder ignores it.
    public func name(holder: BraceletHolder) {}
}

/// The run that holds a bracelet's calibration plan, as a bridge reports it: the holder a
/// request named (docs/bridge-protocol.md "Holders", issue 25).
public struct BraceletHolder: Equatable, Sendable, CustomStringConvertible {
    /// The run id (the `run` of its events).
    public var run: String
    /// The gateway it runs on (`--gateway`, else the host name; '' when none was given).
    public var gateway: String
    /// Its process id on that gateway.
    public var pid: Int32

    /// Creates a holder.
    public init(run: String, gateway: String, pid: Int32) {
        self.run = run
        self.gateway = gateway
        self.pid = pid
    }

    /// `run R (gateway G, pid P)`.
    public var description: String {
        "run \(run) (" + (gateway.isEmpty ? "" : "gateway \(gateway), ") + "pid \(pid))"
    }
}

/// What `getPlan` says: the plan, and the live run holding it in calibration, if one does.
public struct PlanStatus: Equatable, Sendable {
    /// The plan the bracelet runs now.
    public var plan: BraceletPlan
    /// The run holding the calibration plan (only while `plan` is `nibpCalibration`).
    public var holder: BraceletHolder?

    /// Creates a status.
    public init(plan: BraceletPlan, holder: BraceletHolder?) {
        self.plan = plan
        self.holder = holder
    }
}

/// What a bracelet says it is.
public struct BraceletIdentity: Equatable, Sendable {
    /// Hardware model, e.g. `287-2`.
    public var model: String
    /// Firmware version, dotted numbers, e.g. `7.0`, `10.0.3`.
    public var firmware: String
    /// Serial number; keys the plan journal, audit log and stored profile.
    public var serial: String

    /// Creates an identity.
    public init(model: String, firmware: String, serial: String) {
        self.model = model
        self.firmware = firmware
        self.serial = serial
    }

    /// The identity as every JSON output writes it: `{"serial":…,"model":…,"firmware":…}` (history's
    /// runs and `--due` lines, the REPL's `status`, the bridge's `identify` answer, which adds
    /// `simulated`). The one encoder: the member order scripts see is decided here.
    public var json: JSONValue {
        .object([("serial", .string(serial)), ("model", .string(model)), ("firmware", .string(firmware))])
    }
}

/// A bracelet measurement plan, by name (e.g. `monitoring`, `nibpCalibration`).
public struct BraceletPlan: Hashable, Sendable, CustomStringConvertible {
    /// The plan's name as the bracelet reports it.
    public var name: String
    /// Creates a plan value.
    public init(_ name: String) { self.name = name }
    /// The NIBP-calibration plan a bp-init switches to for the duration of the flow.
    public static let nibpCalibration = BraceletPlan("nibpCalibration")
    public var description: String { name }
}

/// One status poll of special mode type 4 (wearing optimization).
public struct SpecialModeStatus: Equatable, Sendable {
    /// `percent` and `quality` are the SDK's 0-100 scales; `motionLevel` is never negative
    /// (issue 27: a bridge's or a scenario's value outside them is refused, naming the field).
    public static let percentRange = 0...100, qualityRange = 0...100, motionLevelRange = 0...Int(Int32.max)
    /// Progress, 0-100 %.
    public var percent: Int
    /// PPG signal quality, 0-100.
    public var quality: Int
    /// The firmware's success flag (a successful session needs this AND a quality of at least
    /// `WearingOptimizationConfig.minimumSuccessQuality`).
    public var isSuccess: Bool
    /// Motion level, 0 (still) and up.
    public var motionLevel: Int
    /// True when the bracelet finished the optimization.
    public var finished: Bool
    /// True when the bracelet senses skin contact (worn correctly).
    public var worn: Bool
    /// Accelerometer gravity vector (g) at this poll, bracelet axes x, y, z.
    public var gravity: GravityVector

    /// Creates a status.
    public init(percent: Int, quality: Int, isSuccess: Bool, motionLevel: Int, finished: Bool, worn: Bool, gravity: GravityVector) {
        self.percent = percent
        self.quality = quality
        self.isSuccess = isSuccess
        self.motionLevel = motionLevel
        self.finished = finished
        self.worn = worn
        self.gravity = gravity
    }
}

/// An accelerometer reading of gravity in g, in the bracelet's axes.
public struct GravityVector: Equatable, Sendable, Codable {
    /// What one axis may read, g: the accelerometer's full scale (±16 g; issue 27 refuses ±1e308).
    public static let axisRange: ClosedRange<Double> = -16...16
    public var x: Double, y: Double, z: Double
    /// Creates a vector.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// Why a bracelet call failed.
public enum BraceletError: Error, Equatable, Sendable {
    /// The link dropped or the bracelet sent `disconnected`.
    case disconnected
    /// The request got no answer within its timeout while the link lives (a missed status poll).
    case timeout
    /// The bracelet refused the request, e.g. a plan switch that failed; with its message.
    case refused(String)
    /// The bracelet cannot be reached at all (connect failed, bad URI); with why.
    case unavailable(String)
    /// A live run holds the bracelet (bridge error -32005 `held`): this run must not touch it;
    /// waiting for the holder's end fixes it (exit 75). The bridge does not know when its holder
    /// ends, so no `retryAfter`. Source: docs/bridge-protocol.md "Holders", docs/design.md "Plan safety".
    case held(BraceletHolder)
    /// A live run's journal entry holds the bracelet (`why` names it), or it is held and its next
    /// set not due either: this run must not touch it, and waiting fixes it (exit 75).
    /// `retryAfter` is when to try again (the holder's lease's end on the store's clock, or the
    /// set's due time when that is later); nil when unknown. Source: docs/design.md "Plan safety".
    case busy(String, retryAfter: Instant?)

    /// True for the errors that mean this run must not touch the bracelet at all (another live
    /// run holds it: 75; or its plan cannot be given back: 69), never "disconnected".
    public var refusesTheRun: Bool {
        switch self {
        case .held, .busy, .unavailable: return true
        case .disconnected, .timeout, .refused: return false
        }
    }
}

/// An error that ends a run which waiting would let through (exit 75, EX_TEMPFAIL): a bracelet a
/// live run holds, a set not due yet. `retryAfter` is the earliest instant worth trying again,
/// nil when nobody knows (docs/design.md "Exit status").
public protocol RetryLater: Error {
    /// When to try again; nil when unknown.
    var retryAfter: Instant? { get }
    /// One word for the refusal (`held`, `busy`, `notDue`): the `error` of the run's JSON error line.
    var refusal: String { get }
}

extension BraceletError: RetryLater {
    /// The `busy` case's time; nil for every other case (a `held` holder's end is unknown).
    public var retryAfter: Instant? {
        if case .busy(_, let at) = self { return at }
        return nil
    }

    public var refusal: String {
        if case .held = self { return "held" }
        return "busy"
    }

    /// True for the cases that waiting fixes (`held`, `busy`: exit 75).
    public var waitingFixes: Bool {
        switch self {
        case .held, .busy: return true
        case .disconnected, .timeout, .refused, .unavailable: return false
        }
    }
}
