import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Waits for SIGINT, SIGTERM or SIGHUP (handled, not fatal, so the server can clean up), read
/// through `ProcessSignals` (held from `main`'s first instruction, so an early one counts).
final class StopSignal: @unchecked Sendable {
    private let waiter = Mutex<(fired: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))

    init() {
        ProcessSignals.shared.route(ProcessSignals.stopSignals) { [weak self] _, _ in self?.fire() }
    }

    private func fire() {
        let c = waiter.withLock { w -> CheckedContinuation<Void, Never>? in
            w.fired = true
            defer { w.continuation = nil }
            return w.continuation
        }
        c?.resume()
    }

    /// Returns once a stop signal arrived.
    func wait() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let fired = waiter.withLock { w -> Bool in
                if !w.fired { w.continuation = c }
                return w.fired
            }
            if fired { c.resume() }
        }
    }
}
