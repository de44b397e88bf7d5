import Foundation

/// Waits on a condition with a deadline, never for a fixed time: polls until the condition holds
/// or the time is up and says which, so a caller's `#expect`/`#require` fails on a timeout instead
/// of a test passing (or failing) by how fast the machine happened to be.
///
///     #expect(Wait.until(seconds: 20) { ProcessProbe.groupIsGone(pgid) }, "the command's group lives on")
public enum Wait {
    /// Polls `condition` every `poll` seconds until it holds or `seconds` have passed.
    /// - Returns: true when it held (it is checked once more at the deadline).
    /// - Throws: what `condition` throws.
    public static func until(seconds: Double = 20, poll: Double = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            if try condition() { return true }
            let left = deadline - ContinuousClock.now
            if left <= .zero { return false }
            Thread.sleep(forTimeInterval: min(poll, left / .seconds(1)))
        }
    }

    /// `until` for a condition that suspends, polling with `Task.sleep` (the thread stays free).
    /// - Returns: true when it held. - Throws: what `condition` throws, or `CancellationError`.
    public static func until(seconds: Double = 20, poll: Double = 0.01,
                             _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            if try await condition() { return true }
            let left = deadline - ContinuousClock.now
            if left <= .zero { return false }
            try await Task.sleep(for: min(.seconds(poll), left))
        }
    }
}
