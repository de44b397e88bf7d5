import Synchronization

/// The `--cuff sim:` / `sim:SCENARIO.json` cuff source (docs/scenario.md "The simulated
/// cuff"): one reading of a scenario subject per request, measured on the run clock — computed in
/// process from a scenario, or asked of a served simulator (`simCuffReading`).
public final class SimulatedCuffSource: CuffSource {
    /// Where the readings come from.
    public enum Origin: Sendable {
        /// Computed here from `scenario`'s subject `subject` under `seed`.
        case scenario(Scenario, subject: ScenarioSubject, seed: UInt64)
        /// Asked of a served simulator (`simCuffReading`) for scenario subject `subject` (nil: its only one).
        case bridge(BridgeClient, subject: String?)
    }

    private let origin: Origin
    private let clock: any FlowClock
    /// The last request instant, so a request the flow repeats (a reading it dropped) is a new measurement.
    private let last = Mutex<Instant?>(nil)

    /// Creates a source on `origin`, reading time from the run's `clock`.
    public init(_ origin: Origin, clock: any FlowClock) {
        self.origin = origin
        self.clock = clock
    }

    /// Checks once, before the flow, that the source can measure: a served simulator knows the
    /// subject. - Throws: `SimulatedCuffError` (64), `BraceletError` (`.unavailable` naming
    /// `simCuffReading` when the bridge is not a simulator: 69).
    public func check() async throws {
        if case .bridge(let client, let subject) = origin { _ = try await client.simulatorCuffReading(subject: subject) }
    }

    public func next(for request: CuffRequest) async throws -> CuffItem {
        try Task.checkCancellation()
        switch origin {
        case .scenario(let scenario, let subject, let seed):
            let at = last.withLock { previous -> Instant in
                let now = clock.now()
                let t = previous.map { $0 >= now ? $0.adding(interval: 1) : now } ?? now
                previous = t
                return t
            }
            return .reading(SimulatedCuff(scenario: scenario, seed: seed).reading(of: subject, requestedAt: at))
        case .bridge(let client, let subject):
            do {
                return .reading(try await client.simulatorCuffReading(subject: subject))
            } catch let error as BraceletError {
                // The cuff, not the bracelet, failed to give a reading: the flow's cuffError (exit 3).
                return .failed(.unknown("sim: cuff: \(error.message)"))
            } catch let error as SimulatedCuffError {
                return .failed(.unknown("sim: cuff: \(error.message)"))
            }
        }
    }
}
