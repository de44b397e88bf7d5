import Synchronization

/// The time source a flow runs on, injected so a 4-minute flow runs in a test in milliseconds.
///
/// `sleep` waits (real) or jumps (virtual); `advance(to:)` moves a virtual clock forward to a
/// reading's stamp when later (docs/design.md "Time") and is a no-op on a real clock.
public protocol FlowClock: Sendable {
    /// The current instant, UTC.
    func now() -> Instant
    /// Waits `seconds` of this clock's time. - Throws: `CancellationError` when the task is cancelled.
    func sleep(seconds: Double) async throws
    /// Moves a virtual clock forward to `instant` when it is later than now.
    func advance(to instant: Instant)
    /// True when waits cost nothing (the virtual clock).
    var isVirtual: Bool { get }
}

/// A clock that starts at a given instant and advances only through `sleep` and `advance(to:)`.
public final class VirtualClock: FlowClock {
    private let current: Mutex<Instant>

    /// Creates a virtual clock starting at `start`.
    public init(start: Instant) { current = Mutex(start) }

    public func now() -> Instant { current.withLock { $0 } }

    public func sleep(seconds: Double) async throws {
        try Task.checkCancellation()
        current.withLock { $0 = $0.adding(interval: max(0, seconds)) }
        await Task.yield()
        try Task.checkCancellation()
    }

    public func advance(to instant: Instant) {
        current.withLock { if instant > $0 { $0 = instant } }
    }

    public var isVirtual: Bool { true }
}
