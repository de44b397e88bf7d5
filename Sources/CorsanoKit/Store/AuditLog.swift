/// The audit log in the state store: what each bracelet was calibrated against (DESIGN "State
/// store"; seed: `didCollectReadings` is "exactly when knowing what was fed to the bracelet matters").
///
/// One row per run (bracelet, gateway, start and end on the run's clock, effective config,
/// result) and one per reading fed, with its attempt, index, the firmware's verdict and whether
/// it was typed in. The rows live in either engine (`StateStore`).
public final class AuditLog: @unchecked Sendable {
    private let store: any StateStore
    /// The gateway this process records its runs under ('' when none is known).
    public let gateway: String

    /// Opens the log in `store` (its tables come with the store's migrations); runs begun through
    /// it are recorded under `gateway` (host name or `--gateway ID`).
    public init(store: any StateStore, gateway: String = "") {
        self.store = store
        self.gateway = gateway
    }

    /// Records the start of `run`. - Throws: `StoreError`.
    public func begin(run: String, flow: String, bracelet: BraceletIdentity, at: Instant, config: JSONValue) throws {
        try store.auditBegin(AuditRun(run: run, flow: flow, bracelet: bracelet, startedAt: RFC3339.format(at), endedAt: nil,
                                      configJSON: config.serialized, resultJSON: nil, readings: [],
                                      gateway: gateway.isEmpty ? nil : gateway))
    }

    /// Records one reading fed to the bracelet. - Throws: `StoreError`.
    /// `mapReported`: whether the cuff reported the MAP the reading carries (nil: not known).
    public func record(run: String, attempt: Int, index: Int, accepted: Bool, manual: Bool, reading: JSONValue,
                       mapReported: Bool? = nil) throws {
        try store.auditRecord(run: run, AuditReading(attempt: attempt, index: index, accepted: accepted, manual: manual,
                                                     readingJSON: reading.serialized, mapReported: mapReported))
    }

    /// Records how `run` ended. - Throws: `StoreError`.
    public func finish(run: String, at: Instant, result: JSONValue) throws {
        try store.auditFinish(run: run, endedAt: RFC3339.format(at), resultJSON: result.serialized)
    }

    /// The `flow` of a plan-restore record (`recordPlanRestored`).
    public static let planRestoreFlow = "plan-restore"

    /// Appends the record that the plan a killed run left switched on `bracelet` was restored to
    /// `previousPlan` (by the journal repair of the run `by`, or an operator's `bracelet repair
    /// --plan`): a run row of flow `plan-restore`, started and ended `at`, whose result is
    /// `{"kind":"planRestored","previousPlan":…,"why":…,"restoredRun":RUN|null}`. The run it refers
    /// to is the newest one on that bracelet without a result that no earlier record refers to (the
    /// one whose switch the journal still held); its own rows are never changed: the audit log only
    /// grows (issue 26; DESIGN "State store"). Returns the run it refers to, nil when none.
    /// - Throws: `StoreError`.
    @discardableResult
    public func recordPlanRestored(bracelet: BraceletIdentity, previousPlan: BraceletPlan, why: PlanRestoreReason,
                                   by run: String, at: Instant) throws -> String? {
        let runs = try store.auditRuns(AuditFilter(serial: bracelet.serial))
        let referenced = Set(runs.compactMap { $0.planRestore?.restoredRun })
        let killed = runs.last { $0.resultJSON == nil && $0.run != run && $0.flow != Self.planRestoreFlow && !referenced.contains($0.run) }
        let record = PlanRestoreRecord(at: RFC3339.format(at), previousPlan: previousPlan.description, why: why.rawValue,
                                       restoredRun: killed?.run, record: "\(run).planRestored")
        let stamp = RFC3339.format(at)
        try store.auditBegin(AuditRun(run: record.record, flow: Self.planRestoreFlow, bracelet: bracelet, startedAt: stamp, endedAt: stamp,
                                      configJSON: JSONValue.object([("by", .string(run))]).serialized,
                                      resultJSON: record.resultJSON.serialized, readings: [],
                                      gateway: gateway.isEmpty ? nil : gateway))
        return killed?.run
    }

    /// The runs that started at or after `since` (on their run's clock), on bracelet `serial`
    /// and recorded by `gateway` when given, oldest first, each with its readings in order.
    /// - Throws: `StoreError`.
    public func runs(since: Instant? = nil, serial: String? = nil, gateway: String? = nil) throws -> [AuditRun] {
        try store.auditRuns(AuditFilter(since: since, serial: serial, gateway: gateway))
    }
}

/// One run as the audit log holds it; JSON fields are kept as their stored text.
public struct AuditRun: Equatable, Sendable {
    public var run: String
    public var flow: String
    public var bracelet: BraceletIdentity
    /// Start and end on the run's clock, RFC 3339; `endedAt` nil when the run was killed.
    public var startedAt: String
    public var endedAt: String?
    /// The effective config and the result object, as JSON text; result nil when the run was killed.
    public var configJSON: String
    public var resultJSON: String?
    public var readings: [AuditReading]
    /// The gateway that ran it (host name or `--gateway ID`); nil for runs recorded before gateways.
    public var gateway: String? = nil

    /// Creates a run.
    public init(run: String, flow: String, bracelet: BraceletIdentity, startedAt: String, endedAt: String?,
                configJSON: String, resultJSON: String?, readings: [AuditReading], gateway: String? = nil) {
        self.run = run
        self.flow = flow
        self.bracelet = bracelet
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.configJSON = configJSON
        self.resultJSON = resultJSON
        self.readings = readings
        self.gateway = gateway
    }

    /// The start as seconds since the epoch (the stores order and filter by it); 0 when unreadable.
    public var startedSeconds: Int64 { RFC3339.parseInstant(startedAt)?.secondsSinceEpoch ?? 0 }
}

/// One reading fed during a run: its place, the firmware's verdict, whether typed in, the reading as fed (JSON text).
public struct AuditReading: Equatable, Sendable {
    public var attempt: Int
    public var index: Int
    public var accepted: Bool
    public var manual: Bool
    public var readingJSON: String
    /// Whether the cuff reported the MAP in `readingJSON` (false: derived by the seed's rule;
    /// nil: not recorded — rows written before the store kept it).
    public var mapReported: Bool? = nil

    /// Creates a reading row.
    public init(attempt: Int, index: Int, accepted: Bool, manual: Bool, readingJSON: String, mapReported: Bool? = nil) {
        self.attempt = attempt
        self.index = index
        self.accepted = accepted
        self.manual = manual
        self.readingJSON = readingJSON
        self.mapReported = mapReported
    }
}

/// That the plan a killed run left switched was restored, as the audit log records it
/// (`AuditLog.recordPlanRestored`): a `plan-restore` row whose result names the run.
public struct PlanRestoreRecord: Equatable, Sendable {
    /// When it was restored (wall time, RFC 3339).
    public var at: String
    /// The plan given back.
    public var previousPlan: String
    /// `journal` (the next command that reached the bracelet) or `operator` (`bracelet repair --plan`).
    public var why: String
    /// The killed run whose plan this was; nil when no unfinished run was recorded for it.
    public var restoredRun: String?
    /// The record's own id in the audit log.
    public var record: String

    /// Creates a record.
    public init(at: String, previousPlan: String, why: String, restoredRun: String?, record: String) {
        self.at = at
        self.previousPlan = previousPlan
        self.why = why
        self.restoredRun = restoredRun
        self.record = record
    }

    /// The stored result object.
    var resultJSON: JSONValue {
        .object([("kind", .string("planRestored")), ("previousPlan", .string(previousPlan)), ("why", .string(why)),
                 ("restoredRun", restoredRun.map(JSONValue.string) ?? .null)])
    }
}

extension AuditRun {
    /// This row as a plan-restore record; nil for a flow's run.
    public var planRestore: PlanRestoreRecord? {
        guard flow == AuditLog.planRestoreFlow, let text = resultJSON,
              let result = try? JSONValue.parse(Array(text.utf8)), result["kind"]?.stringValue == "planRestored" else { return nil }
        return PlanRestoreRecord(at: endedAt ?? startedAt, previousPlan: result["previousPlan"]?.stringValue ?? "",
                                 why: result["why"]?.stringValue ?? "", restoredRun: result["restoredRun"]?.stringValue, record: run)
    }
}

extension Array where Element == AuditRun {
    /// The plan-restore record referring to each killed run, by that run's id.
    public var planRestores: [String: PlanRestoreRecord] {
        var out: [String: PlanRestoreRecord] = [:]
        for run in self { if let record = run.planRestore, let killed = record.restoredRun { out[killed] = record } }
        return out
    }
}
