import CorsanoKit

/// The real clock (`--clock real`): wall time, real waits. Only the executable reads wall time.
final class WallClock: FlowClock {
    func now() -> Instant { CommandContext.wallClock() }

    func sleep(seconds: Double) async throws {
        guard seconds > 0 else { try Task.checkCancellation(); return }
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1_000_000_000))
    }

    /// A real clock never jumps.
    func advance(to instant: Instant) {}

    var isVirtual: Bool { false }
}
