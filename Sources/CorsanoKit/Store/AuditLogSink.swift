import Synchronization

/// Writes a flow's events into the audit log as they happen: `started` opens the run,
/// `measurement` records each reading fed, `finished` closes it. A run killed mid-way keeps
/// what was fed so far.
///
/// `emit` cannot throw, so the first store error is kept in `failure` for the command to
/// report (exit 74) and later writes are skipped.
public final class AuditLogSink: EventSink {
    private let log: AuditLog
    private let bracelet: BraceletIdentity
    private let firstError = Mutex<StoreError?>(nil)
    /// A `planRestoreFailed` of this run, recorded with its result (issue 25: history says so).
    private let restoreFailed = Mutex<JSONValue?>(nil)

    /// Creates a sink recording runs on `bracelet` into `log`.
    public init(log: AuditLog, bracelet: BraceletIdentity) {
        self.log = log
        self.bracelet = bracelet
    }

    /// The first store error met, if any.
    public var failure: StoreError? { firstError.withLock { $0 } }

    public func emit(_ event: FlowEvent) {
        guard failure == nil else { return }
        do {
            switch event.payload {
            case .started(let config):
                try log.begin(run: event.run, flow: event.flow, bracelet: bracelet, at: event.at, config: config.json)
            case .measurement(let fed):
                try log.record(run: event.run, attempt: fed.attempt, index: fed.index, accepted: fed.braceletAccepted,
                               manual: fed.reading.isManualEntry, reading: fed.reading.json(includeDerivedMAP: true),
                               mapReported: fed.reading.meanArterialPressure != nil)
            case .planRestoreFailed:
                restoreFailed.withLock { $0 = .object(event.payload.members) }
            case .finished(let result):
                // The verdict stays as the firmware gave it; a plan left switched is recorded
                // beside it (`planRestoreFailed`: plan, previousPlan, reason).
                var json = result.json
                if let failed = restoreFailed.withLock({ $0 }), case .object(let members) = json {
                    json = .object(members + [("planRestoreFailed", failed)])
                }
                try log.finish(run: event.run, at: event.at, result: json)
            default:
                return
            }
        } catch let error as StoreError {
            firstError.withLock { $0 = $0 ?? error }
        } catch {
            firstError.withLock { $0 = $0 ?? .failed(path: "audit log", message: "\(error)") }
        }
    }
}
