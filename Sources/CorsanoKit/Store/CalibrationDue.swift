import Foundation

/// Whether a bracelet is due for NIBP recalibration: its last successful `bp-init` ended more than
/// a number of days ago, or it never had one (cuffless blood-pressure devices ask for a new cuff
/// calibration every 4 weeks: Samsung Health Monitor, Aktiia). Read from the audit log.
public struct CalibrationDue: Equatable, Sendable {
    /// The recalibration interval `fleet status` judges by unless `--due` says otherwise: 28 days
    /// (the 4 weeks of Samsung Health Monitor and Aktiia above).
    public static let defaultDays = 28

    /// The bracelet as its latest run saw it (model and firmware may change between runs).
    public var bracelet: BraceletIdentity
    /// When its last successful calibration ended (on that run's clock); nil when none succeeded.
    public var lastCalibratedAt: Instant?
    /// Whole days from `lastCalibratedAt` to the check's now (rounded down); nil with no calibration.
    public var days: Int?
    /// True when `days` exceeds the allowed age, or there was no successful calibration.
    public var due: Bool

    /// One entry per bracelet in `runs` (ordered by serial): due when its last successful
    /// `bp-init` ended more than `days` × 86 400 s before `now`, or none succeeded.
    /// A run's end is its `endedAt`, else its start (a run killed after success never ends).
    public static func check(_ runs: [AuditRun], days allowed: Int, now: Instant) -> [CalibrationDue] {
        var latest: [String: BraceletIdentity] = [:]
        var calibrated: [String: Instant] = [:]
        for run in runs {
            latest[run.bracelet.serial] = run.bracelet
            guard run.flow == FlowName.bpInit.rawValue, run.resultKind == "success",
                  let end = RFC3339.parseInstant(run.endedAt ?? run.startedAt) else { continue }
            if calibrated[run.bracelet.serial].map({ end > $0 }) ?? true { calibrated[run.bracelet.serial] = end }
        }
        return latest.keys.sorted().map { serial in
            let last = calibrated[serial]
            let seconds = last.map { now.secondsSinceEpoch - $0.secondsSinceEpoch }
            let days = seconds.map { Int($0 >= 0 ? $0 / 86_400 : -((-$0 + 86_399) / 86_400)) }
            let due = seconds.map { $0 > Int64(allowed) * 86_400 } ?? true
            return CalibrationDue(bracelet: latest[serial]!, lastCalibratedAt: last, days: days, due: due)
        }
    }
}

extension AuditRun {
    /// The `kind` of the stored result object (`success`, `cuffError`...); nil when the run did
    /// not finish or the stored text is not such an object.
    public var resultKind: String? {
        guard let resultJSON else { return nil }
        return (try? JSONValue.parse(Array(resultJSON.utf8)))?["kind"]?.stringValue
    }
}

/// The next set of an open multi-set calibration, for a scheduler (`history --due`, issue 32):
/// due from one interval after the previous set ended (`MultiSetCalibration.nextDueAt`).
public struct NextSetDue: Equatable, Sendable {
    /// The bracelet: serial always; model and firmware as its latest audit run saw them, when one did.
    public var bracelet: BraceletIdentity
    public var calibration: String
    public var set: Int
    public var of: Int
    public var dueAt: Instant
    /// True when `dueAt` is not after the check's now.
    public var due: Bool

    /// One entry per open calibration in `open` that has a set recorded (a calibration is stored
    /// from its first set on), with the bracelet identity from the latest of `runs` on its serial.
    public static func check(_ open: [MultiSetCalibration], runs: [AuditRun], now: Instant) -> [NextSetDue] {
        var latest: [String: BraceletIdentity] = [:]
        for run in runs { latest[run.bracelet.serial] = run.bracelet }
        return open.filter { $0.status == .open }.compactMap { c in
            guard let dueAt = c.nextDueAt else { return nil }
            let bracelet = latest[c.serial] ?? BraceletIdentity(model: "", firmware: "", serial: c.serial)
            return NextSetDue(bracelet: bracelet, calibration: c.id, set: c.nextSet, of: c.parameters.sets, dueAt: dueAt, due: dueAt <= now)
        }
    }
}
