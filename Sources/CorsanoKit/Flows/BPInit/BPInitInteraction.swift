/// The decisions a person makes during calibration, injected so scripts never block on them.
///
/// Source: seeds/bp-initialization.txt ("Retry prompt"; `cancelledByUser` is "closing the
/// summary while retry attempts remained").
public protocol BPInitInteraction: Sendable {
    /// Waits for the person to start the first session from the instructions screen (the
    /// SDK's Start button); false ends the flow with `cancelledByUser`. - Throws: `CancellationError`.
    func confirmStart() async throws -> Bool
    /// Asks whether to run attempt `nextAttempt` of `maxAttempts` after an unaccepted one;
    /// false ends the flow with `cancelledByUser`. - Throws: `CancellationError`.
    func confirmRetry(nextAttempt: Int, maxAttempts: Int) async throws -> Bool
}

/// Non-interactive runs (stdin not a terminal): start at once, always retry while the budget allows.
public struct NonInteractive: BPInitInteraction {
    /// Creates the policy.
    public init() {}
    public func confirmStart() async throws -> Bool { true }
    public func confirmRetry(nextAttempt: Int, maxAttempts: Int) async throws -> Bool { true }
}

/// The seed's `cuffIsPaired` / `onCuffPairingRequested` pair: whether a BP cuff is paired, and
/// the "Pair a cuff" hook the needs-cuff-pairing screen fires.
public protocol CuffPairing: Sendable {
    /// True when a BP cuff is paired (seed default: always true).
    func isPaired() async -> Bool
    /// Lets the user pair a cuff (present pairing UI, run `--pair-cmd`). - Throws: `CancellationError`.
    func requestPairing() async throws
}

/// The seed's default pairing state: a cuff is assumed paired.
public struct AssumedPairing: CuffPairing {
    /// Creates the default.
    public init() {}
    public func isPaired() async -> Bool { true }
    public func requestPairing() async throws {}
}
