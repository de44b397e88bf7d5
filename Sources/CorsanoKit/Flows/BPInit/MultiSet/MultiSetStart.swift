/// The store side of starting a multi-set invocation ("Order and time",
/// "Interactions"): after identify, before the plan-safety claim. Everything here is decided from
/// the store and the run's clock: refusals are 69 (`BraceletError.unavailable`) or 75
/// (`MultiSetNotDue`), never 64. Source: docs/design.md "Multi-set calibration".
public enum MultiSetStart {
    /// The calibration whose next set this invocation runs, or nil for a single session that may
    /// run. An expired calibration is recorded as such here and a new one begun (a notice says so).
    /// - Parameters:
    ///   - asked: the protocol asked for; nil for the seed's single session.
    /// - Throws: `MultiSetNotDue` (75: nothing was written), `BraceletError.unavailable` (69: an
    ///   open calibration is in the way, named with `--abandon`), `StoreError` (74).
    public static func prepare(store: any StateStore, asked: MultiSetProtocol?, serial: String, run: String, now: Instant,
                               diagnostics: Diagnostics) throws -> MultiSetCalibration? {
        let open = try store.calibrationOpen(serial: serial)
        guard let asked else {
            if let open { throw BraceletError.unavailable(MultiSetPlanner.conflictMessage(open, asked: nil)) }
            return nil
        }
        switch MultiSetPlanner.decide(open: open, asked: asked, serial: serial, run: run, now: now) {
        case .conflict(let open):
            throw BraceletError.unavailable(MultiSetPlanner.conflictMessage(open, asked: asked))
        case .notDue(let open, let set, let dueAt):
            throw MultiSetNotDue(calibration: open, set: set, dueAt: dueAt, now: now)
        case .run(let calibration, _, let expired):
            if let expired {
                try store.calibrationSave(expired)
                diagnostics.notice(.flow, "calibration \(expired.id) of bracelet \(serial) expired at \(RFC3339.format(expired.closedAt ?? now)) "
                     + "(set \(expired.nextSet) of \(expired.parameters.sets) was more than "
                     + "\(WholeSeconds.truncating(expired.parameters.maxGapSeconds)) s late): starting a new calibration")
            }
            return calibration
        }
    }

    /// Whether the open calibration of `serial` has a set that is not due at `now` for the
    /// protocol `asked` (nil: a single session, never "not due"); reads only.
    /// - Throws: `StoreError`.
    public static func notDue(store: any StateStore, asked: MultiSetProtocol?, serial: String, run: String,
                              now: Instant) throws -> MultiSetNotDue? {
        guard let asked, let open = try store.calibrationOpen(serial: serial) else { return nil }
        guard case .notDue(let open, let set, let dueAt) = MultiSetPlanner.decide(open: open, asked: asked, serial: serial, run: run, now: now)
        else { return nil }
        return MultiSetNotDue(calibration: open, set: set, dueAt: dueAt, now: now)
    }

    /// Checks, once the bracelet is claimed, that no other gateway recorded a set of `calibration`
    /// between the decision and the claim. - Throws: `BraceletError.unavailable`, `StoreError`.
    public static func confirm(store: any StateStore, _ calibration: MultiSetCalibration) throws {
        let now = try store.calibrationOpen(serial: calibration.serial)
        let expected = calibration.sets.isEmpty ? nil : calibration
        guard now?.id == expected?.id, now?.sets.count == expected?.sets.count else {
            throw BraceletError.unavailable("calibration of bracelet \(calibration.serial) changed while this run claimed it "
                                            + "(another gateway ran a set); run again")
        }
    }

    /// `--abandon`: closes the open calibration of `serial` as abandoned by `run`; nil when none is open.
    /// - Throws: `StoreError`.
    public static func abandon(store: any StateStore, serial: String, run: String, now: Instant) throws -> MultiSetCalibration? {
        guard var open = try store.calibrationOpen(serial: serial) else { return nil }
        open.status = .abandoned
        open.closedAt = now
        open.closedBy = run
        try store.calibrationSave(open)
        return open
    }
}

extension MultiSetStart {
    /// The audit log's result of an `--abandon` run: `{"kind":"abandoned","calibration":ID,"setsRecorded":N,"of":M}`.
    public static func abandonedResult(_ closed: MultiSetCalibration) -> JSONValue {
        .object([("kind", .string("abandoned")), ("calibration", .string(closed.id)), ("setsRecorded", .int(closed.sets.count)),
                 ("of", .int(closed.parameters.sets))])
    }
}

/// The next set of a multi-set calibration is not due yet (exit 75, EX_TEMPFAIL): nothing was
/// sent but identify/getPlan and nothing written. The message says when it is due.
public struct MultiSetNotDue: DiagnosticError, RetryLater, Equatable {
    /// The set's due time.
    public var retryAfter: Instant? { dueAt }
    public var refusal: String { "notDue" }

    public var calibration: MultiSetCalibration
    public var set: Int
    public var dueAt: Instant
    public var now: Instant

    public var message: String {
        let minutes = Int((dueAt.seconds(since: now) / 60).rounded(.up))
        return "bracelet \(calibration.serial): set \(set) of \(calibration.parameters.sets) of calibration \(calibration.id) "
            + "is not due before \(RFC3339.format(dueAt)) (in \(minutes) min); run bp-init again then"
    }
}
