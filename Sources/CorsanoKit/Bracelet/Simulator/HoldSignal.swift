import Synchronization

/// Tells tests that a simulated call is being held at a step, across connections to one
/// bracelet: `waitUntilHeld` returns once any hold began (at once if one already did).
final class HoldSignal: Sendable {
    private struct State {
        var steps: [String] = []
        var nextID = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Records that a call is now held at `step` and wakes every waiter.
    func held(at step: String) {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.steps.append(step)
            defer { s.waiters.removeAll() }
            return Array(s.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Every step a call was held at so far, in order.
    var steps: [String] { state.withLock { $0.steps } }

    /// Returns once a call has been held, or when the waiting task is cancelled.
    func waitUntilHeld() async {
        let id = state.withLock { s -> Int in
            s.nextID += 1
            return s.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (w: CheckedContinuation<Void, Never>) in
                let already = state.withLock { s -> Bool in
                    if !s.steps.isEmpty || Task.isCancelled { return true }
                    s.waiters[id] = w
                    return false
                }
                if already { w.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
