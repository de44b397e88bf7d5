/// The audit log in the state store: what each bracelet was calibrated against (docs/design.md
/// "State store"; seed: `didCollectReadings` is "exactly when knowing what was fed to the bracelet matters").
///
/// One row per run (bracelet, gateway, start and end on the run's clock, effective config,
/// result) and one per reading fed, with its attempt, index, the firmware's verdict and whether
/// it was typed in. The rows live in either engine (`StateStore`).
public final class AuditLog: @unchecked Sendable {
    private let store: any StateStore
    /// The gateway this process records its runs under ('' when none is known).
    public let gateway: String
    /// The HMAC key every record appended through this log is keyed with; nil appends
    /// unkeyed records, refused by a store whose chain is keyed.
    public let key: AuditKey?

    /// Opens the log in `store` (its tables come with the store's migrations); runs begun through
    /// it are recorded under `gateway` (host name or `--gateway ID`) and chained with `key`.
    public init(store: any StateStore, gateway: String = "", key: AuditKey? = nil) {
        self.store = store
        self.gateway = gateway
        self.key = key
    }

    /// Records the start of `run`. - Throws: `StoreError`.
    public func begin(run: String, flow: FlowName, bracelet: BraceletIdentity, at: Instant, config: JSONValue) throws {
        try store.auditAppend(.begin(AuditRun(run: run, flow: flow.rawValue, bracelet: bracelet, startedAt: RFC3339.format(at), endedAt: nil,
                                      configJSON: config.serialized, resultJSON: nil, readings: [],
                                      gateway: gateway.isEmpty ? nil : gateway)), key: key)
    }

    /// Records one reading fed to the bracelet: its record as encoded (`FedCuffReading.json`)
    /// and the columns queries use. - Throws: `StoreError`.
    public func record(run: String, _ fed: FedCuffReading) throws {
        try store.auditAppend(.reading(run: run, AuditReading(fed)), key: key)
    }

    /// Records how `run` ended; with `calibration`, saves that multi-set calibration's row in the
    /// same transaction, so a set is counted only with its run's chain record (docs/design.md
    /// "Audit chain"). - Throws: `StoreError`, the chain's refusals (`AuditKeyMismatch`, `AuditChainStripped`).
    public func finish(run: String, at: Instant, result: JSONValue, calibration: MultiSetCalibration? = nil) throws {
        try store.auditAppend(.finish(run: run, endedAt: RFC3339.format(at), resultJSON: result.serialized), key: key) {
            if let calibration { try store.calibrationSave(calibration) }
        }
    }

    /// The `flow` of a plan-restore record (`recordPlanRestored`).
    public static let planRestoreFlow = FlowName.planRestore.rawValue

    /// Appends the record that the plan a killed run left switched on `bracelet` was restored to
    /// `previousPlan` (by the journal repair of the run `by`, or an operator's `bracelet repair
    /// --plan`): a run row of flow `plan-restore`, started and ended `at`, whose result is
    /// `{"kind":"planRestored","previousPlan":…,"why":…,"restoredRun":RUN|null}`. The run it refers
    /// to is the newest one on that bracelet without a result that no earlier record refers to (the
    /// one whose switch the journal still held); its own rows are never changed: the audit log only
    /// grows (docs/design.md "State store"). Returns the run it refers to, nil when none.
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
        try store.auditAppend(.begin(AuditRun(run: record.record, flow: Self.planRestoreFlow, bracelet: bracelet, startedAt: stamp,
                                              endedAt: stamp, configJSON: JSONValue.object([("by", .string(run))]).serialized,
                                              resultJSON: record.resultJSON.serialized, readings: [],
                                              gateway: gateway.isEmpty ? nil : gateway)), key: key)
        return killed?.run
    }

    /// The `flow` of a signature record (`sign`).
    public static let signatureFlow = FlowName.signature.rawValue

    /// Appends a signature of `run` (21 CFR 11.50's printed name, date and time, and
    /// meaning): a record of flow `signature` holding the typed `name`, the OS user, this log's
    /// gateway, `at` (the store's time as the command layer reads it), the `meaning` and the hash
    /// of the run's records at that moment (`AuditChain.runHash`). The run itself is not changed;
    /// `history --verify` finds a signed run whose records changed after. A signature signs what
    /// verifies (docs/design.md "Audit chain"): a run whose records do not verify under this log's
    /// key is refused, and so is an `approval` of a run that did not succeed; the same name and
    /// meaning on the same run again appends nothing and returns the earlier signature (`repeated`).
    /// - Throws: `AuditSignError.unknownRun` and `.killed` (66), `.unfinished` (75), `.unverified` and
    ///   `.approvalOfFailure` (65), `AuditKeyMismatch`, `AuditChainStripped`, `StoreError`.
    @discardableResult
    public func sign(run id: String, name: String, osUser: String, meaning: SignatureMeaning,
                     at: Instant) throws -> (record: SignatureRecord, repeated: Bool) {
        do { return try appendSignature(run: id, name: name, osUser: osUser, meaning: meaning, at: at) } catch let same as AlreadySigned {
            return (same.record, true)
        }
    }

    /// An identical signature is there already (`sign` returns it; control flow only, never shown).
    private struct AlreadySigned: Error { var record: SignatureRecord }

    private func appendSignature(run id: String, name: String, osUser: String, meaning: SignatureMeaning,
                                 at: Instant) throws -> (record: SignatureRecord, repeated: Bool) {
        guard let run = try store.auditRuns(AuditFilter(run: id)).first,
              run.flow != Self.signatureFlow, run.flow != Self.planRestoreFlow else { throw AuditSignError.unknownRun(id) }
        guard run.endedAt != nil, let resultJSON = run.resultJSON else { throw try unfinished(run) }
        let verification = try store.auditVerify(key: key)
        if let why = verification.whyNotVerified(id) { throw AuditSignError.unverified(id, why) }
        let kind = (try? JSONValue.parse(Array(resultJSON.utf8)))?["kind"]?.stringValue ?? resultJSON
        if meaning == .approval, kind != "success" { throw AuditSignError.approvalOfFailure(id, result: kind) }
        let runHash = AuditChain.runHash(run)
        // The same signer, meaning and run again is one signature: looked for under the chain's
        // lock, so two gateways signing the same at once append it once.
        let signatures = { [store] in
            try store.auditRuns(AuditFilter(serial: run.bracelet.serial)).compactMap(\.signature).filter { $0.signedRun == id }
        }
        let same = { (s: SignatureRecord) in s.name == name && s.meaning == meaning.rawValue && s.runHash == runHash }
        let stamp = RFC3339.format(at)
        var number = try signatures().count + 1
        while true {
            // Another gateway may take the same number at the same moment: the append says so, and the next is tried.
            let record = SignatureRecord(record: "\(id).signature.\(number)", signedRun: id, name: name, osUser: osUser, gateway: gateway,
                                         at: stamp, meaning: meaning.rawValue, runHash: runHash)
            let appended = try store.auditAppend(.begin(AuditRun(run: record.record, flow: Self.signatureFlow, bracelet: run.bracelet, startedAt: stamp,
                                                                 endedAt: stamp, configJSON: record.configJSON.serialized,
                                                                 resultJSON: JSONValue.object([("kind", .string("signature"))]).serialized, readings: [],
                                                                 gateway: gateway.isEmpty ? nil : gateway)), key: key) {
                if let earlier = try signatures().first(where: same) { throw AlreadySigned(record: earlier) }
            }
            if appended { return (record, false) }
            number += 1
        }
    }

    /// Why `run` (not ended) cannot be signed: `.killed` when it never will end — a plan-restore
    /// record names it, or a later run reached its bracelet (one run holds a bracelet at a time) —
    /// with the finished runs of its bracelet that can be signed instead; else `.unfinished`.
    private func unfinished(_ run: AuditRun) throws -> AuditSignError {
        let onBracelet = try store.auditRuns(AuditFilter(serial: run.bracelet.serial))
        let flows = onBracelet.filter { $0.flow != Self.signatureFlow && $0.flow != Self.planRestoreFlow }
        let restored = onBracelet.planRestores[run.run]
        let started = RFC3339.parseInstant(run.startedAt)
        let later = started.map { start in
            flows.contains { $0.run != run.run && (RFC3339.parseInstant($0.startedAt).map { $0 > start } ?? false) }
        } ?? false
        guard restored != nil || later else { return .unfinished(run.run) }
        let finished = flows.filter { $0.endedAt != nil && $0.resultJSON != nil }.suffix(3).map(\.run)
        return .killed(run.run, bracelet: run.bracelet.serial, restoredAt: restored?.at, signable: Array(finished))
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

/// One reading fed during a run: its place, the firmware's verdict, whether typed in, the reading as fed (JSON text),
/// and the fed-reading record as it was encoded (`FedCuffReading.json`).
public struct AuditReading: Equatable, Sendable {
    public var attempt: Int
    public var index: Int
    public var accepted: Bool
    public var manual: Bool
    public var readingJSON: String
    /// Whether the cuff reported the MAP in `readingJSON` (false: derived by the seed's rule;
    /// nil: not recorded — rows written before the store kept it).
    public var mapReported: Bool? = nil
    /// The record as encoded when it was fed (`FedCuffReading.json`), kept as that text; nil in
    /// rows written before the store kept it (SQLite migration 9, PostgreSQL migration 4).
    public var recordJSON: String? = nil

    /// Creates a reading row.
    public init(attempt: Int, index: Int, accepted: Bool, manual: Bool, readingJSON: String, mapReported: Bool? = nil,
                recordJSON: String? = nil) {
        self.attempt = attempt
        self.index = index
        self.accepted = accepted
        self.manual = manual
        self.readingJSON = readingJSON
        self.mapReported = mapReported
        self.recordJSON = recordJSON
    }

    /// The row of `fed`: the record encoded once (`FedCuffReading.json`); the columns are read
    /// off it (the reading's text is the record's `reading` member).
    public init(_ fed: FedCuffReading) {
        let record = fed.json
        self.init(attempt: fed.attempt, index: fed.index, accepted: fed.braceletAccepted, manual: fed.reading.isManualEntry,
                  readingJSON: record["reading"]?.serialized ?? "{}", mapReported: fed.reading.meanArterialPressure != nil,
                  recordJSON: record.serialized)
    }

    /// The record as stored; for a row written before the store kept it, the same shape built from
    /// its columns by the record's one encoder (`FedCuffReading.record`), its reading as stored.
    public var record: JSONValue {
        recordJSON.map(JSONValue.raw)
            ?? FedCuffReading.record(attempt: attempt, index: index, reading: .raw(readingJSON), braceletAccepted: accepted)
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

/// What a signature means (21 CFR 11.50(a)(3)): the signer reviewed the run, approved
/// the calibration, or takes responsibility for it.
public enum SignatureMeaning: String, CaseIterable, Sendable {
    case review, approval, responsibility
}

/// Why a run cannot be signed.
public enum AuditSignError: Error, Equatable, Sendable {
    /// No flow run has that id (exit 66).
    case unknownRun(String)
    /// The run has not ended (exit 75: sign it when it ends).
    case unfinished(String)
    /// The run was killed and never ends (exit 66): its plan was restored at `restoredAt` by a later
    /// command, or a later run reached its bracelet; `signable` are the last finished runs of that
    /// bracelet, which can be signed instead.
    case killed(String, bracelet: String, restoredAt: String?, signable: [String])
    /// The run's records do not verify (exit 65): the run and why.
    case unverified(String, String)
    /// `approval` of a run whose result is not a success (exit 65): the run and its result's kind.
    case approvalOfFailure(String, result: String)
}

/// A signature as the audit log records it (`AuditLog.sign`).
public struct SignatureRecord: Equatable, Sendable {
    /// The record's own id, and the run it signs.
    public var record: String
    public var signedRun: String
    /// The typed name, the OS user and the gateway that signed.
    public var name: String
    public var osUser: String
    public var gateway: String
    /// When (RFC 3339) and what it means (`SignatureMeaning`).
    public var at: String
    public var meaning: String
    /// SHA-256 of the signed run's records when signed (`AuditChain.runHash`).
    public var runHash: String

    /// Creates a record.
    public init(record: String, signedRun: String, name: String, osUser: String, gateway: String, at: String, meaning: String, runHash: String) {
        self.record = record
        self.signedRun = signedRun
        self.name = name
        self.osUser = osUser
        self.gateway = gateway
        self.at = at
        self.meaning = meaning
        self.runHash = runHash
    }

    /// The stored config object of the record.
    var configJSON: JSONValue {
        .object([("signs", .string(signedRun)), ("name", .string(name)), ("osUser", .string(osUser)), ("gateway", .string(gateway)),
                 ("meaning", .string(meaning)), ("runHash", .string(runHash))])
    }

    /// The signature as JSON (history's `signatures` member).
    public var json: JSONValue {
        .object([("record", .string(record)), ("name", .string(name)), ("osUser", .string(osUser)), ("gateway", .string(gateway)),
                 ("at", .string(at)), ("meaning", .string(meaning)), ("runHash", .string(runHash))])
    }
}

extension AuditRun {
    /// This row as a signature record; nil for any other.
    public var signature: SignatureRecord? {
        guard flow == AuditLog.signatureFlow, let config = try? JSONValue.parse(Array(configJSON.utf8)),
              let signs = config["signs"]?.stringValue else { return nil }
        return SignatureRecord(record: run, signedRun: signs, name: config["name"]?.stringValue ?? "",
                               osUser: config["osUser"]?.stringValue ?? "", gateway: config["gateway"]?.stringValue ?? "",
                               at: endedAt ?? startedAt, meaning: config["meaning"]?.stringValue ?? "",
                               runHash: config["runHash"]?.stringValue ?? "")
    }
}

extension Array where Element == AuditRun {
    /// The signatures of each run, by that run's id, oldest first.
    public var signatures: [String: [SignatureRecord]] {
        var out: [String: [SignatureRecord]] = [:]
        for run in self { if let signature = run.signature { out[signature.signedRun, default: []].append(signature) } }
        return out
    }
}

extension AuditLog {
    /// The multi-set calibration one of whose sets run `run` recorded; nil for a
    /// single-session run. - Throws: `StoreError`.
    public func multiSetCalibration(of run: String) throws -> MultiSetCalibration? {
        try store.calibrations(openOnly: false).first { $0.sets.contains { $0.run == run } }
    }
}
