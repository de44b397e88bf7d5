import Dispatch
import Synchronization

/// The one bridge from blocking work on another thread to a waiting task: the wait
/// ends once, with whichever answer comes first: one given by the work (`resume`), a real-time
/// limit, or the cancellation of the waiting task. Later answers are refused (`resume` returns
/// false, so a caller holding a value it must not lose keeps it); an answer given before the
/// wait starts is kept for it. Nothing is resumed twice, and no answer is lost for the waiter.
///
/// Used by `ShellCommand` (a child's exit), `TerminalLines` (a typed line), `Channel` (a
/// producer thread's item) and `StopSignal` (a signal that may come before the wait).
public final class OneShot<Value: Sendable>: Sendable {
    private struct Slot {
        var waiter: CheckedContinuation<Result<Value, any Error>, Never>?
        var answer: Result<Value, any Error>?
        var waited = false
    }

    private let slot = Mutex(Slot())

    /// Creates a wait with no answer yet.
    public init() {}

    /// Whether the answer was given.
    public var isAnswered: Bool { slot.withLock { $0.answer != nil } }

    /// Gives the answer, if none was given before.
    /// - Parameter first: runs only when this call's answer is the one, before the waiter
    ///   resumes (once it has, the process may exit at any moment: signal a child before).
    /// - Returns: whether this call's answer is the one.
    @discardableResult
    public func resume(_ result: Result<Value, any Error>, first: () -> Void = {}) -> Bool {
        let (won, waiter) = slot.withLock { s -> (Bool, CheckedContinuation<Result<Value, any Error>, Never>?) in
            guard s.answer == nil else { return (false, nil) }
            s.answer = result
            defer { s.waiter = nil }
            return (true, s.waiter)
        }
        guard won else { return false }
        first()
        waiter?.resume(returning: result)
        return true
    }

    /// Gives `value` as the answer, if none was given before. - Returns: whether it is the one.
    @discardableResult
    public func resume(returning value: Value) -> Bool { resume(.success(value)) }

    /// Waits for the answer, at most `timeout` of real time (then the answer is `timedOut`),
    /// until the waiting task is cancelled (then `cancelled`). Call once.
    /// - Parameter interrupt: runs once when the time limit or the cancellation wins, before the
    ///   wait ends (terminate the blocking work there).
    public func result(timeout: Duration? = nil, timedOut: @escaping @Sendable () -> Result<Value, any Error>,
                       cancelled: @escaping @Sendable () -> Result<Value, any Error> = { .failure(CancellationError()) },
                       interrupt: @escaping @Sendable () -> Void = {}) async -> Result<Value, any Error> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (c: CheckedContinuation<Result<Value, any Error>, Never>) in
                let early = slot.withLock { s -> Result<Value, any Error>? in
                    precondition(!s.waited, "OneShot: one wait only")
                    s.waited = true
                    if s.answer == nil { s.waiter = c }
                    return s.answer
                }
                if let early { return c.resume(returning: early) }
                if let timeout {
                    let (seconds, attoseconds) = timeout.components
                    // Clamped: a limit of centuries is no limit, never an overflow.
                    let nanos = seconds >= Int64.max / 1_000_000_000 ? Int.max
                        : Int(max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000)
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanos)) {
                        self.resume(timedOut(), first: interrupt)
                    }
                }
            }
        } onCancel: {
            resume(cancelled(), first: interrupt)
        }
    }

    /// Waits for the answer as `result` does, returning its value.
    /// - Throws: the answer's error; `CancellationError` when the waiting task is cancelled first.
    public func value(timeout: Duration? = nil, timedOut: @escaping @Sendable () -> Value,
                      interrupt: @escaping @Sendable () -> Void = {}) async throws -> Value {
        try await result(timeout: timeout, timedOut: { .success(timedOut()) }, interrupt: interrupt).get()
    }
}
