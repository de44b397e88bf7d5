/// The fleet as the state store sees it, one entry per bracelet (`corsano fleet status`):
/// who holds it, where its calibration stands, what it last did, whether a recalibration is due,
/// and what needs a person. Read only: built from the audit log, the open multi-set calibrations
/// and the plan journal, judged at an injected `now` with an injected owner probe.
/// Source: docs/design.md "Fleet status".
public struct FleetBracelet: Equatable, Sendable {
    /// The bracelet as its latest audit run saw it (serial only when no run names it).
    public var bracelet: BraceletIdentity
    /// The gateway of its latest run (signatures aside); nil when no run names one.
    public var lastGateway: String?
    /// Its plan-journal entry, judged: held by a live run, or stuck (owner gone); nil when none.
    public var journal: JournalState?
    /// Its open multi-set calibration; nil when none is open.
    public var calibration: OpenCalibration?
    /// Its last `bp-init` run; nil when none.
    public var lastRun: LastRun?
    /// The recalibration rule (`--due DAYS`, as `history --due`).
    public var recalibration: CalibrationDue
    /// True when there is work a gateway would run now: the open calibration's next set is due
    /// (and not expired), or, with none open, a recalibration is due.
    public var due: Bool
    /// What needs a person, in this order: `stuck`, `overdue`, `failed` (empty: nothing).
    public var needsPerson: [Attention]

    /// A plan-journal entry as the fleet sees it.
    public enum JournalState: Equatable, Sendable {
        /// A live run holds the bracelet: on this machine its process still runs; elsewhere its
        /// lease has time left on the store's clock.
        case held(PlanJournal.Entry)
        /// The entry's owner is gone (its process on this machine ended, or its lease ran out):
        /// the plan may still be switched; the next command that reaches the bracelet repairs it.
        case stuck(PlanJournal.Entry, why: String)

        /// The entry judged.
        public var entry: PlanJournal.Entry {
            switch self {
            case .held(let entry), .stuck(let entry, _): return entry
            }
        }
    }

    /// Why a bracelet needs a person.
    public enum Attention: String, Equatable, Sendable, CaseIterable {
        /// A plan-journal entry whose owner is gone.
        case stuck
        /// An open calibration whose next set missed its window (`--max-set-gap` after it was due).
        case overdue
        /// The last `bp-init` run ended with anything but success (or a recorded set).
        case failed
    }

    /// An open multi-set calibration: the set that runs next and when.
    public struct OpenCalibration: Equatable, Sendable {
        public var id: String
        /// `corsano` or `sets`.
        public var protocolKind: String
        /// The set that runs next (1-based) and the calibration's sets.
        public var set: Int
        public var of: Int
        /// When the next set is due and when the calibration expires without it; nil before set 1 (due at once).
        public var dueAt: Instant?
        public var expiresAt: Instant?
    }

    /// A bracelet's last `bp-init` run.
    public struct LastRun: Equatable, Sendable {
        public var run: String
        /// The result's `kind` (`success`, `setRecorded`, `failedAfterRetries`, …); nil when the run never finished.
        public var result: String?
        /// When it ended (its start when it never finished), as stored (RFC 3339).
        public var at: String
        public var gateway: String?
        /// When a killed run's switched plan was restored (its `plan-restore` record), as stored; nil otherwise.
        public var planRestoredAt: String? = nil
    }

    /// Result kinds of a `bp-init` run that are not a failure: the calibration succeeded, or a set
    /// of a multi-set calibration was recorded.
    public static let fineResults: Set<String> = ["success", "setRecorded"]

    /// One entry per bracelet known to `runs`, `open` or `journal`, by serial.
    /// - Parameters:
    ///   - runs: the audit log (every run; signatures and plan-restore records are recognised).
    ///   - open: the open multi-set calibrations.
    ///   - journal: the open plan-journal entries, each with its lease's remaining seconds on the store's clock.
    ///   - days: the recalibration interval (`CalibrationDue.check`).
    ///   - now: the instant judged at (the run clock: `--now` rehearses a date).
    ///   - probe: this machine's processes: an entry whose boot id is this machine's is judged by
    ///     its process (pid, start time, boot id), any other by its lease.
    public static func check(runs: [AuditRun], open: [MultiSetCalibration], journal: [PlanJournal.Entry], days: Int, now: Instant,
                             probe: OwnerProbe) -> [FleetBracelet] {
        let records = runs.filter { $0.flow != AuditLog.signatureFlow }
        var latest: [String: AuditRun] = [:], lastBPInit: [String: AuditRun] = [:]
        for run in records {
            latest[run.bracelet.serial] = run
            if run.flow == FlowName.bpInit.rawValue { lastBPInit[run.bracelet.serial] = run }
        }
        let due = Dictionary(CalibrationDue.check(records, days: days, now: now).map { ($0.bracelet.serial, $0) }) { a, _ in a }
        let calibrations = Dictionary(open.filter { $0.status == .open }.map { ($0.serial, $0) }) { a, _ in a }
        let entries = Dictionary(journal.map { ($0.serial, $0) }) { a, _ in a }
        let restores = runs.planRestores
        let serials = Set(latest.keys).union(calibrations.keys).union(entries.keys).sorted()
        return serials.map { serial in
            let run = latest[serial]
            let identity = run?.bracelet ?? BraceletIdentity(model: "", firmware: "", serial: serial)
            let recalibration = due[serial] ?? CalibrationDue(bracelet: identity, lastCalibratedAt: nil, days: nil, due: true)
            let calibration = calibrations[serial].map { c in
                OpenCalibration(id: c.id, protocolKind: c.parameters.kind.rawValue, set: c.nextSet, of: c.parameters.sets,
                                dueAt: c.nextDueAt, expiresAt: c.expiresAt)
            }
            let last = lastBPInit[serial].map { r in
                LastRun(run: r.run, result: r.resultKind, at: r.endedAt ?? r.startedAt, gateway: r.gateway,
                        planRestoredAt: r.resultJSON == nil ? restores[r.run]?.at : nil)
            }
            let state = entries[serial].map { judge($0, probe: probe) }
            var needs: [Attention] = []
            if case .stuck? = state { needs.append(.stuck) }
            if let expires = calibration?.expiresAt, now > expires { needs.append(.overdue) }
            if let result = last?.result, !fineResults.contains(result) { needs.append(.failed) }
            let isDue: Bool
            if let calibration {
                isDue = (calibration.dueAt.map { $0 <= now } ?? true) && !(calibration.expiresAt.map { now > $0 } ?? false)
            } else {
                isDue = recalibration.due
            }
            return FleetBracelet(bracelet: identity, lastGateway: run?.gateway, journal: state, calibration: calibration, lastRun: last,
                                 recalibration: recalibration, due: isDue, needsPerson: needs)
        }
    }

    /// `entry` judged: an owner on this machine (its boot id is this boot's) by its process, when
    /// that can be confirmed either way; otherwise by its lease on the store's clock (a live run
    /// renews it every third of its length).
    public static func judge(_ entry: PlanJournal.Entry, probe: OwnerProbe) -> JournalState {
        if let boot = entry.owner.bootID, boot == probe.bootID() {
            switch probe.liveness(of: entry.owner) {
            case .running: return .held(entry)
            case .gone: return .stuck(entry, why: "its process (pid \(entry.owner.pid)) on this machine has ended")
            case .unconfirmed: break
            }
        }
        if let left = entry.leaseRemaining, left > 0 { return .held(entry) }
        return .stuck(entry, why: "its lease ran out \(WholeSeconds.truncating(-(entry.leaseRemaining ?? 0))) s ago and was not renewed")
    }
}

/// The fleet's counts, as `fleet status` sums them up and its metrics give them (each series
/// summed over its labels equals these).
public struct FleetCounts: Equatable, Sendable {
    public var bracelets = 0
    public var due = 0
    public var overdue = 0
    public var stuck = 0
    public var held = 0
    public var failed = 0
    /// Bracelets with anything in `needsPerson`.
    public var needPerson = 0

    /// The counts of `fleet`.
    public init(_ fleet: [FleetBracelet]) {
        for b in fleet {
            bracelets += 1
            if b.due { due += 1 }
            if b.needsPerson.contains(.overdue) { overdue += 1 }
            if b.needsPerson.contains(.stuck) { stuck += 1 }
            if case .held? = b.journal { held += 1 }
            if b.needsPerson.contains(.failed) { failed += 1 }
            if !b.needsPerson.isEmpty { needPerson += 1 }
        }
    }
}

extension FleetBracelet {
    /// The `fleet status` JSON line of this bracelet (docs/design.md "Fleet status"): `kind`
    /// `bracelet`, the identity, `lastGateway`, `holder` or `stuck` (the journal entry, its lease's
    /// end as `readAt` plus the seconds it had left), `calibration`, `lastRun`, `recalibration`,
    /// `due` and `needsPerson`. Stamps are RFC 3339 to the whole second.
    public func json(readAt: Instant) -> JSONValue {
        func stamp(_ instant: Instant) -> JSONValue { .string(RFC3339.format(Instant(secondsSinceEpoch: instant.secondsSinceEpoch))) }
        func stored(_ text: String) -> JSONValue { RFC3339.parseInstant(text).map(stamp) ?? .string(text) }
        func owner(_ entry: PlanJournal.Entry) -> [(String, JSONValue)] {
            [("gateway", .string(entry.owner.gateway)), ("pid", .int(Int(entry.owner.pid))), ("flow", .string(entry.flow)),
             ("openedAt", stamp(entry.openedAt)), ("previousPlan", .string(entry.previousPlan.name))]
        }
        var holder = JSONValue.null, stuck = JSONValue.null
        switch journal {
        case .held(let entry)?:
            holder = .object(owner(entry) + [("leaseUntil", entry.leaseRemaining.map { stamp(readAt.adding(interval: $0)) } ?? .null)])
        case .stuck(let entry, let why)?:
            stuck = .object(owner(entry) + [("why", .string(why))])
        case nil: break
        }
        var open = JSONValue.null
        if let c = calibration {
            open = .object([("id", .string(c.id)), ("protocol", .string(c.protocolKind)), ("set", .int(c.set)), ("of", .int(c.of)),
                            ("dueAt", c.dueAt.map(stamp) ?? .null), ("expiresAt", c.expiresAt.map(stamp) ?? .null)])
        }
        var last = JSONValue.null
        if let r = lastRun {
            let result: JSONValue = r.result.map(JSONValue.string) ?? .null
            let gateway: JSONValue = r.gateway.map(JSONValue.string) ?? .null
            let restored: JSONValue = r.planRestoredAt.map(stored) ?? .null
            last = .object([("run", .string(r.run)), ("result", result), ("at", stored(r.at)), ("gateway", gateway),
                            ("planRestoredAt", restored)])
        }
        let calibratedAt: JSONValue = recalibration.lastCalibratedAt.map(stamp) ?? .null
        let days: JSONValue = recalibration.days.map(JSONValue.int) ?? .null
        let recalibrationJSON = JSONValue.object([("lastCalibratedAt", calibratedAt), ("days", days), ("due", .bool(recalibration.due))])
        let gateway: JSONValue = lastGateway.map(JSONValue.string) ?? .null
        let needs: [JSONValue] = needsPerson.map { JSONValue.string($0.rawValue) }
        let members: [(String, JSONValue)] = [
            ("kind", .string("bracelet")), ("bracelet", bracelet.json), ("lastGateway", gateway), ("holder", holder), ("stuck", stuck),
            ("calibration", open), ("lastRun", last), ("recalibration", recalibrationJSON), ("due", .bool(due)), ("needsPerson", .array(needs)),
        ]
        return .object(members)
    }
}

extension FleetCounts {
    /// The `fleet status` summary line: `{"kind":"summary","bracelets":N,"due":…,"overdue":…,"stuck":…,"held":…,"failed":…,"needPerson":…}`.
    public var json: JSONValue {
        .object([("kind", .string("summary")), ("bracelets", .int(bracelets)), ("due", .int(due)), ("overdue", .int(overdue)),
                 ("stuck", .int(stuck)), ("held", .int(held)), ("failed", .int(failed)), ("needPerson", .int(needPerson))])
    }
}
