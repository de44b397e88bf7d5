import Synchronization

/// Writes a flow's events into the audit log as they happen: `started` opens the run,
/// `measurement` records each reading fed, `finished` closes it. A run killed mid-way keeps
/// what was fed so far.
///
/// A run's start and end are recorded on `recordedAt`, the wall clock the command injects: the run
/// clock may be virtual (`--now`, a simulator), where a whole run takes no time. A
/// `planRestored` event of a repair (`why` other than `flowEnded`) appends the record that the
/// killed run's plan was restored (`AuditLog.recordPlanRestored`).
///
/// `emit` cannot throw, so the first error is kept in `failure` for the command to report (a
/// store's or the audit key's, exit 74) and later writes are skipped.
public final class AuditLogSink: EventSink {
    private let log: AuditLog
    private let bracelet: BraceletIdentity
    private let recordedAt: (@Sendable () -> Instant)?
    /// Who runs the flow (`--operator`, default the OS user), recorded in the run's config.
    private let operatorName: String?
    private let firstError = Mutex<(any Error)?>(nil)
    /// A `planRestoreFailed` of this run, recorded with its result (issue 25: history says so).
    private let restoreFailed = Mutex<JSONValue?>(nil)
    /// A multi-set calibration as this run's set left it, saved with the run's finish record.
    private let calibration = Mutex<MultiSetCalibration?>(nil)

    /// Creates a sink recording runs on `bracelet` into `log`, their start and end read from
    /// `recordedAt` (the wall clock; nil: each event's own instant, as a unit test's virtual clock).
    /// `operatorName`, when given, is added to the recorded config as `operator` (the person a
    /// calibration certificate names; ISO/IEC 17025 §7.5.1: who performed the activity).
    public init(log: AuditLog, bracelet: BraceletIdentity, recordedAt: (@Sendable () -> Instant)? = nil, operatorName: String? = nil) {
        self.log = log
        self.bracelet = bracelet
        self.recordedAt = recordedAt
        self.operatorName = operatorName
    }

    /// Saves `updated` (a multi-set calibration after this run's set) in the transaction that
    /// appends the run's finish record (`MultiSetRun.save`): no set is counted without its record.
    public func saveWithFinish(_ updated: MultiSetCalibration) {
        calibration.withLock { $0 = updated }
    }

    /// The first error met, if any: a `StoreError`, or the chain's refusal (`AuditKeyMismatch`,
    /// `AuditChainStripped`) as it was thrown, so it reaches a person with its own message.
    public var failure: (any Error)? { firstError.withLock { $0 } }

    public func emit(_ event: FlowEvent) {
        guard failure == nil else { return }
        do {
            let at = recordedAt?() ?? event.at
            switch event.payload {
            case .started(let config):
                var json = config.json
                if let operatorName, case .object(let members) = json { json = .object(members + [("operator", .string(operatorName))]) }
                try log.begin(run: event.run, flow: event.flow, bracelet: bracelet, at: at, config: json)
            case .measurement(let fed):
                try log.record(run: event.run, fed)
            case .planRestoreFailed:
                restoreFailed.withLock { $0 = .object(event.payload.members) }
            case .finished(let result):
                // The verdict stays as the firmware gave it; a plan left switched is recorded
                // beside it (`planRestoreFailed`: plan, previousPlan, reason).
                var json = result.json
                // A multi-set calibration's last run keeps every set's means with its verdict.
                if case .bpInitSets(_, let sets) = result, case .object(let members) = json {
                    json = .object(members + [("sets", .array(sets.map(\.summary)))])
                }
                if let failed = restoreFailed.withLock({ $0 }), case .object(let members) = json {
                    json = .object(members + [("planRestoreFailed", failed)])
                }
                try log.finish(run: event.run, at: at, result: json, calibration: calibration.withLock { $0 })
            case .planRestored(let previousPlan, let why) where why != .flowEnded:
                try log.recordPlanRestored(bracelet: bracelet, previousPlan: previousPlan, why: why, by: event.run, at: at)
            default:
                return
            }
        } catch {
            firstError.withLock { $0 = $0 ?? error }
        }
    }
}
