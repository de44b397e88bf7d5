import CorsanoKit

#if canImport(Glibc)
import Glibc
#endif

/// Waits for SIGINT, SIGTERM or SIGHUP (handled, not fatal, so the server can clean up), read
/// through `ProcessSignals` (held from `main`'s first instruction, so an early one counts).
final class StopSignal: Sendable {
    /// Answered by the first stop signal, which may come before `wait` is called.
    private let fired = OneShot<Void>()

    init() {
        ProcessSignals.shared.route(ProcessSignals.stopSignals) { [weak self] _, _ in self?.fired.resume(returning: ()) }
    }

    /// Returns once a stop signal arrived (or the waiting task is cancelled). Call once.
    func wait() async {
        _ = await fired.result(timedOut: { .success(()) })
    }
}
