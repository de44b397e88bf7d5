/// What a fleet worker has to do for one bracelet now, decided from the store's data alone:
/// the next set of its open calibration when due; a new calibration when it has none that
/// succeeded, its last success ended more than `days` ago, or its open one expired; after failed
/// calibrations a new one only while they are at most `retryFailed` in a row, past which a person
/// must look; else nothing until a known instant. The rule `fleet run` *(planned)* claims by;
/// `fleet status` shows the same data. Source: docs/design.md "Fleet status" (the work due).
public enum FleetWork: Equatable, Sendable {
    /// The open calibration's next set is due now.
    case nextSet(calibration: String, set: Int, of: Int)
    /// A new calibration is due now, and why.
    case newCalibration(NewCalibrationReason)
    /// Nothing is due before `until` (the next set's due time, or the recalibration's).
    case notYet(until: Instant)
    /// More than `retryFailed` calibrations failed in a row: skipped until a person looks.
    case needsPerson(consecutiveFailures: Int)

    /// Why a new calibration is due.
    public enum NewCalibrationReason: String, Equatable, Sendable {
        /// No calibration of the bracelet ever succeeded (and none failed).
        case never
        /// Its last success ended more than the recalibration interval ago.
        case recalibration
        /// Its open calibration's next set missed its window.
        case expired
        /// The last calibration failed, and failures in a row are still within `--retry-failed`.
        case retry
    }

    /// Failed calibrations in a row a worker retries before a person must look (`--retry-failed`).
    public static let defaultRetryFailed = 1

    /// The work due for bracelet `serial`.
    /// - Parameters:
    ///   - runs: its audit runs, oldest first (others are ignored). A calibration's outcome is a
    ///     finished `bp-init` run whose result is not `setRecorded`: `success`, or a failure
    ///     (`failedAfterRetries`, `cuffError`, `braceletDisconnected`, `cancelledByUser`).
    ///   - open: its open multi-set calibration, if any.
    ///   - days: the recalibration interval (`CalibrationDue`).
    ///   - retryFailed: failures in a row still retried.
    ///   - now: the instant judged at.
    public static func decide(serial: String, runs: [AuditRun], open: MultiSetCalibration?, days: Int, retryFailed: Int,
                              now: Instant) -> FleetWork {
        if let open, open.status == .open {
            switch open.schedule(at: now) {
            case .due(let set): return .nextSet(calibration: open.id, set: set, of: open.parameters.sets)
            case .notYet(_, let dueAt): return .notYet(until: dueAt)
            case .expired: return .newCalibration(.expired)
            }
        }
        let outcomes = runs.filter { $0.bracelet.serial == serial && $0.flow == FlowName.bpInit.rawValue }
            .compactMap { run -> (kind: String, at: Instant)? in
                guard let kind = run.resultKind, kind != "setRecorded",
                      let at = RFC3339.parseInstant(run.endedAt ?? run.startedAt) else { return nil }
                return (kind, at)
            }
        let failures = outcomes.reversed().prefix { $0.kind != "success" }.count
        if failures > retryFailed { return .needsPerson(consecutiveFailures: failures) }
        if failures > 0 { return .newCalibration(.retry) }
        guard let success = outcomes.last(where: { $0.kind == "success" }) else { return .newCalibration(.never) }
        let dueAt = success.at.adding(interval: Double(days) * 86_400)
        return now > dueAt ? .newCalibration(.recalibration) : .notYet(until: dueAt)
    }
}
