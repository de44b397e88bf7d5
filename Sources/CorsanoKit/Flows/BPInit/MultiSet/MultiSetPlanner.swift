/// What one `bp-init --protocol corsano|sets` invocation does with a bracelet, decided from the
/// state store and the run's clock before the plan-safety claim ("Order and time"):
/// the order is identify → this decision → claim, so an invocation before the next set is due
/// sends nothing but `identify`/`getPlan` and writes nothing.
/// Source: docs/design.md "Multi-set calibration".
public enum MultiSetDecision: Equatable, Sendable {
    /// Run set `calibration.nextSet` of `calibration` (a new calibration when it has no sets and
    /// `isNew`). `expired` is the calibration found expired, to be recorded as such first.
    case run(MultiSetCalibration, isNew: Bool, expired: MultiSetCalibration?)
    /// The next set is not due before `dueAt` (exit 75, nothing sent or written).
    case notDue(MultiSetCalibration, set: Int, dueAt: Instant)
    /// An open calibration with other parameters, or a single session asked for while one is
    /// open: refused (69) naming it and `--abandon`.
    case conflict(MultiSetCalibration)
}

/// The multi-set rules as functions of the store's record and the run's clock.
public enum MultiSetPlanner {
    /// Decides what an invocation asking for `asked` on bracelet `serial` at `now` does, given the
    /// bracelet's open calibration `open` (nil when none); `run` names a calibration it opens.
    public static func decide(open: MultiSetCalibration?, asked: MultiSetProtocol, serial: String, run: String,
                              now: Instant) -> MultiSetDecision {
        let fresh = MultiSetCalibration(id: run, serial: serial, parameters: asked, startedAt: now)
        guard let open else { return .run(fresh, isNew: true, expired: nil) }
        guard open.parameters.sameParameters(as: asked) else { return .conflict(open) }
        switch open.schedule(at: now) {
        case .due: return .run(open, isNew: false, expired: nil)
        case .notYet(let set, let dueAt): return .notDue(open, set: set, dueAt: dueAt)
        case .expired(let at):
            var closed = open
            closed.status = .expired
            closed.closedAt = at
            closed.closedBy = run
            return .run(fresh, isNew: true, expired: closed)
        }
    }

    /// The cuff rule ("One cuff per calibration"): nil when `cuff` may take the set of
    /// `calibration`, else why not. An unknown cuff (nil) is always allowed (noted); a known one
    /// must be the calibration's.
    public static func cuffConflict(_ calibration: MultiSetCalibration, cuff: String?) -> String? {
        guard let cuff, let first = calibration.cuff, first.caseInsensitiveCompare(cuff) != .orderedSame else { return nil }
        return "set \(calibration.nextSet) of calibration \(calibration.id) on bracelet \(calibration.serial) names cuff \(cuff), "
            + "but its earlier sets used cuff \(first): a calibration against two cuffs is not one "
            + "(use the same cuff, --force to run it anyway, or --abandon to start over)"
    }

    /// The message of a refusal because `open` is in the way (69).
    public static func conflictMessage(_ open: MultiSetCalibration, asked: MultiSetProtocol?) -> String {
        let what = asked == nil ? "a single-session bp-init" : "other protocol parameters"
        return "bracelet \(open.serial) has an open \(open.parameters.kind.rawValue) calibration \(open.id) "
            + "(\(open.sets.count) of \(open.parameters.sets) sets, \(open.parameters.readingsPerSet) readings each, "
            + "interval \(WholeSeconds.truncating(open.parameters.intervalSeconds)) s): \(what) is refused; finish it, "
            + "or close it with 'corsano bp-init --protocol \(open.parameters.kind.rawValue) --abandon'"
    }
}
