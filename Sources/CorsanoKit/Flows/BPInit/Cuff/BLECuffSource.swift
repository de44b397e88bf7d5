import Synchronization

/// Cuff readings from a live Bluetooth cuff (`bp-init --cuff ble:MAC`): the `CuffCollector`
/// runs from the first request to `close()`, across disconnects and reconnects, and its
/// readings are the items; the flow's host rules then drop the stored history as replayed and
/// a replay of an earlier measurement as duplicate, exactly as for readings from stdin.
///
/// A payload that is not a reading is `.invalid` (its bytes in hex); no item within `timeout`
/// of a request (real time, the whole human sequence) is `noReading`; a collector failure
/// (adapter off, BlueZ gone) is `.failed(.unknown(message))`, which ends the flow.
public final class BLECuffSource: CuffSource {
    private let collector: CuffCollector
    private let channel = Channel<CuffItem>(capacity: nil)
    private let wait: RequestWait
    private let report: @Sendable (CuffCollector.Event) -> Void
    private let task = Mutex<(started: Bool, task: Task<Void, Never>?)>((false, nil))

    /// Creates a source over `collector`; `report` gets every event as it happens (for the
    /// connection messages, clock and progress; readings and rejects also become items).
    public init(collector: CuffCollector, timeout: Duration?, report: @escaping @Sendable (CuffCollector.Event) -> Void) {
        self.collector = collector
        wait = RequestWait(timeout: timeout)
        self.report = report
    }

    public func next(for request: CuffRequest) async throws -> CuffItem {
        startOnce()
        return try await wait.next(for: request, from: channel)
    }

    /// Stops the collector and disconnects the cuff it connected (idempotent).
    public func close() async {
        let running = task.withLock { t -> Task<Void, Never>? in
            defer { t = (true, nil) }
            return t.task
        }
        running?.cancel()
        await running?.value
        await collector.shutdown()
    }

    private func startOnce() {
        let (collector, channel, report) = (self.collector, self.channel, self.report)
        task.withLock { t in
            guard !t.started else { return }
            t.started = true
            t.task = Task {
                do {
                    try await collector.run { event in
                        report(event)
                        switch event {
                        case .reading(let reading, _):
                            channel.send(.reading(reading))
                        case .rejected(let payload, let reason, let characteristic):
                            channel.send(.invalid(line: BLEHex.string(payload),
                                                  problem: "0x\(BLEHex.characteristic(characteristic)) payload \(BLEHex.string(payload)): \(reason)"))
                        default:
                            break
                        }
                    }
                } catch let failure as CuffCollector.Failure {
                    channel.send(.failed(.unknown("cuff: \(failure.message)")))
                } catch {
                    // Cancelled by close().
                }
            }
        }
    }
}
