import Synchronization

/// The simulator behind the bridge protocol (`corsano bracelet serve`): one `SimulatedBracelet`
/// per connection, on a virtual clock advanced to each request's `at`, sharing the bracelet's
/// kept state (plan, profile) across connections, keyed by serial, like a real bracelet.
///
/// Requests of a connection run concurrently (a held `enterStep` does not block a plan restore);
/// `cancel` cancels one, a closed connection cancels all.
public final class BridgeServer: Sendable {
    /// The scenario every connection's bracelet follows.
    public let scenario: Scenario
    /// The simulator seed of every connection.
    public let seed: UInt64
    private let states = Mutex<[String: SimulatedBraceletState]>([:])
    /// Where the simulators' notices go (the server's stderr): a hold says so.
    private let diagnostics: Diagnostics

    /// A server of `scenario` with PRNG `seed`; `diagnostics` hears what the simulators say.
    public init(scenario: Scenario, seed: UInt64, diagnostics: Diagnostics = .none) {
        self.scenario = scenario
        self.seed = seed
        self.diagnostics = diagnostics
    }

    /// The kept state of bracelet `serial` (created from the scenario on first use).
    public func state(serial: String) -> SimulatedBraceletState {
        states.withLock { all in
            if let s = all[serial] { return s }
            let s = SimulatedBraceletState(scenario: scenario)
            all[serial] = s
            return s
        }
    }

    /// Serves one connection until it closes.
    public func serve(_ connection: LineConnection) async {
        let session = BridgeSession(
            connection: connection,
            bracelet: SimulatedBracelet(scenario: scenario, seed: seed, clock: VirtualClock(start: Instant(secondsSinceEpoch: 0)),
                                        state: state(serial: scenario.serial), diagnostics: diagnostics))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            connection.start(onInbound: { session.receive($0) }, onClose: {
                Task {
                    await session.finish()
                    connection.close()
                    done.resume()
                }
            })
        }
    }
}
