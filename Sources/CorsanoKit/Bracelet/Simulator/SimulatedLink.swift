import Synchronization

/// The simulated BLE link: up or down, and the calls held at a step until cancelled.
///
/// Holds park a continuation (no polling sleeps); cancelling the held task resumes it with
/// `CancellationError`, dropping the link resumes it with `BraceletError.disconnected`, and a
/// timed hold's end resumes it normally.
final class SimulatedLink: Sendable {
    private struct State {
        var up = true
        var nextID = 0
        var held: [Int: (step: String, continuation: CheckedContinuation<Void, any Error>)] = [:]
    }

    private let state = Mutex(State())

    /// Throws `.disconnected` when the link is down.
    func check() throws {
        if !state.withLock({ $0.up }) { throw BraceletError.disconnected }
    }

    var isUp: Bool { state.withLock { $0.up } }

    /// Drops the link: every held call and every later call fails with `.disconnected`.
    func drop() {
        let resumed = state.withLock { s -> [CheckedContinuation<Void, any Error>] in
            s.up = false
            defer { s.held.removeAll() }
            return s.held.values.map(\.continuation)
        }
        for c in resumed { c.resume(throwing: BraceletError.disconnected) }
    }

    /// Blocks at `step` until the calling task is cancelled or the link drops, or for `duration`
    /// when given (then it returns); `signal` hears when the hold began.
    /// - Throws: `CancellationError` or `BraceletError.disconnected`.
    func hold(step: String, signal: HoldSignal, for duration: Duration? = nil) async throws {
        let id = state.withLock { s -> Int in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { s -> (any Error)? in
                    if !s.up { return BraceletError.disconnected }
                    if Task.isCancelled { return CancellationError() }
                    s.held[id] = (step, c)
                    return nil
                }
                if let outcome { c.resume(throwing: outcome); return }
                signal.held(at: step)
                if let duration {
                    Task {
                        try? await Task.sleep(for: duration)
                        self.state.withLock { $0.held.removeValue(forKey: id)?.continuation }?.resume()
                    }
                }
            }
        } onCancel: {
            let c = state.withLock { $0.held.removeValue(forKey: id)?.continuation }
            c?.resume(throwing: CancellationError())
        }
    }

    /// The steps calls are held at right now.
    var heldSteps: [String] { state.withLock { $0.held.values.map(\.step).sorted() } }
}
