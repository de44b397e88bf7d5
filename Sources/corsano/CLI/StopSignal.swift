import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Waits for SIGINT or SIGTERM (handled, not fatal, so the server can clean up). The signal
/// sources are set once in `init` and never mutated.
final class StopSignal: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]
    private let waiter = Mutex<(fired: Bool, continuation: CheckedContinuation<Void, Never>?)>((false, nil))

    init() {
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: .global())
        }
        for source in sources { source.setEventHandler { [weak self] in self?.fire() } }
        sources.resumeRegistered()  // before the caller says it is ready: no stop signal is lost
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
