/// Where a bracelet is and how to talk to it, before anything connects: what `--bracelet`,
/// `--seed`, `--clock`, `--now` and `--request-timeout` say (docs/design.md "The bracelet port").
public struct BraceletTarget: Sendable {
    /// Where the bracelet is.
    public var address: BraceletAddress
    /// The in-process simulator's scenario (unused for a bridge).
    public var scenario: Scenario
    /// The in-process simulator's PRNG seed.
    public var seed: UInt64
    /// Timeout of one bridge request, seconds.
    public var requestTimeout: Double
    /// The shared secret a `tcp:` bridge must prove and is proven (docs/bridge-protocol.md
    /// "Authentication"); unused for other transports.
    public var token: BridgeToken?
    /// The run's clock, given whether the bracelet is a simulator (in-process, or served and
    /// saying so in `hello`). The caller owns the wall clock, so it makes the clocks.
    /// - Throws: the caller's error when its clock options cannot apply (e.g. a start time
    ///   for a real clock).
    public var clock: @Sendable (_ simulated: Bool) throws -> any FlowClock
    /// Where the core says what it decided and did (docs/design.md "Diagnostics"): the
    /// in-process simulator's holds, the bracelet reached, every bridge exchange at `.debug`.
    public var diagnostics: Diagnostics

    /// Creates a target.
    public init(address: BraceletAddress, scenario: Scenario = Scenario(), seed: UInt64 = SimulatedBracelet.defaultSeed,
                requestTimeout: Double = BridgeClient.defaultRequestTimeout, token: BridgeToken? = nil,
                diagnostics: Diagnostics = .none,
                clock: @escaping @Sendable (_ simulated: Bool) throws -> any FlowClock) {
        self.address = address
        self.scenario = scenario
        self.seed = seed
        self.requestTimeout = requestTimeout
        self.token = token
        self.diagnostics = diagnostics
        self.clock = clock
    }
}

/// A bracelet a command reached: the port, the run's clock, and what the bracelet said it is.
///
/// `run` is the protocol every command that reaches a bracelet follows (docs/design.md "Plan safety",
/// seeds "Only available for 287-2 bracelet"): connect → gate → repair the plan journal → the
/// command's work → close, on every way out.
public struct BraceletSession: Sendable {
    /// The connected bracelet.
    public let bracelet: any Bracelet
    /// The run's clock: virtual with a simulator (in-process or served), else real, unless the
    /// target's clock says otherwise.
    public let clock: any FlowClock
    /// What the bracelet said it is.
    public let identity: BraceletIdentity
    /// Where it is.
    public let address: BraceletAddress
    /// Where what the run decides is said (the target's; docs/design.md "Diagnostics").
    public var diagnostics: Diagnostics = .none

    /// Connects to `target`, identifies the bracelet and checks it can run `flow`
    /// (`BraceletGate`; a flow without requirements, or nil, is not gated). The bracelet is
    /// closed again when anything here fails.
    /// - Throws: `BraceletError.unavailable`, `BraceletGateError` (exit 69), the clock's error.
    public static func connect(_ target: BraceletTarget, flow: FlowName?) async throws -> BraceletSession {
        let bracelet: any Bracelet
        let clock: any FlowClock
        var known: BraceletIdentity?
        switch target.address {
        case .simulator:
            clock = try target.clock(true)
            bracelet = SimulatedBracelet(scenario: target.scenario, seed: target.seed, clock: clock, diagnostics: target.diagnostics)
        case .unix, .tcp, .exec:
            let client = try BridgeClient.connect(target.address, requestTimeout: target.requestTimeout, token: target.token,
                                                  diagnostics: target.diagnostics)
            do {
                // A served simulator says so; its default clock is virtual like the in-process one.
                let (identity, simulated) = try await client.hello()
                clock = try target.clock(simulated)
                client.use(clock: clock)
                known = identity
            } catch {
                await client.close()
                throw error
            }
            bracelet = client
        }
        do {
            let identity: BraceletIdentity
            if let known { identity = known } else { identity = try await bracelet.identify() }
            if let flow { try BraceletGate.check(identity, flow: flow) }
            target.diagnostics.info(.bracelet, "reached bracelet \(identity.serial) (model \(identity.model), firmware "
                                    + "\(identity.firmware)) at \(target.address.described); \(clock is VirtualClock ? "virtual" : "real") clock"
                                    + (flow.map { "; it can run \($0)" } ?? ""))
            return BraceletSession(bracelet: bracelet, clock: clock, identity: identity, address: target.address,
                                   diagnostics: target.diagnostics)
        } catch {
            await bracelet.close()
            throw error
        }
    }

    /// The protocol of a command on a bracelet: connects and gates for `flow`, makes the
    /// command's event sink for the bracelet it found, repairs an earlier run's open journal
    /// entry in `store` (a restore goes to `diagnostics` as a notice and as `planRestored` to the sink), runs
    /// `body`, and closes the bracelet on every way out.
    /// - Parameters:
    ///   - flow: the flow or command name (`bp-init`, `wearing-opt`, `profile-push`, `repl`):
    ///     the gate's requirement, and the `flow` of the journal's `planRestored` event.
    ///   - run: this run's id, for the journal's event.
    ///   - ownership: who this run is in the journal (gateway, process) and its lease.
    ///   - events: the sink for this bracelet (e.g. stdout plus its audit log); every event the
    ///     run emits reaches it stamped with the bracelet's serial (`BraceletStampedSink`).
    ///   - notDue: asked only when a live run holds the bracelet: the run's own "not yet" (a
    ///     multi-set calibration's next set not due), so the refusal names the later time.
    /// - Throws: `BraceletError.busy` (75, retry after the holder's lease or `notDue`'s time,
    ///   whichever is later) when a live run — a process of this gateway, or another gateway's
    ///   unexpired lease — holds the bracelet's journal entry (nothing is changed then);
    ///   `.unavailable` (69) when its owner cannot be confirmed over; what `connect`, the repair
    ///   (`BraceletError`: the entry stays open; `StoreError`), `events` or `body` throws.
    public static func run<Result>(
        _ target: BraceletTarget, flow: FlowName, store: any StateStore, ownership: PlanJournal.Ownership = .init(),
        run: String, events: (BraceletSession) throws -> any EventSink, diagnostics: Diagnostics,
        notDue: ((BraceletSession) throws -> MultiSetNotDue?)? = nil,
        _ body: (BraceletSession, any EventSink) async throws -> Result
    ) async throws -> Result {
        let session = try await connect(target, flow: flow)
        // Every later request names this run: a bridge holds the calibration plan for it.
        session.bracelet.name(holder: BraceletHolder(run: run, gateway: ownership.owner.gateway, pid: ownership.owner.pid))
        do {
            let sink = BraceletStampedSink(serial: session.identity.serial, next: try events(session))
            let repair = try await PlanJournal(store: store, leaseSeconds: ownership.leaseSeconds).repairOpenEntries(
                bracelet: session.bracelet, identity: session.identity, sink: sink, flow: flow, run: run,
                clock: session.clock, diagnostics: diagnostics, me: ownership.owner)
            switch repair {
            case .heldByLiveProcess(let entry):
                let busy = PlanJournal.busy(entry, me: ownership.owner)
                // Held and not due either: one refusal, the later of the two times (docs/design.md "Plan safety").
                if let notDue = try notDue?(session), notDue.dueAt > (busy.retryAfter ?? notDue.dueAt.adding(interval: -1)) {
                    throw BraceletError.busy(PlanJournal.heldMessage(entry, me: ownership.owner) + "; " + notDue.message,
                                             retryAfter: notDue.dueAt)
                }
                throw busy
            case .ownerUnconfirmed(let entry, let why):
                throw BraceletError.unavailable(PlanJournal.unconfirmedMessage(entry, me: ownership.owner, why: why))
            default:
                break
            }
            let result = try await body(session, sink)
            await session.bracelet.close()
            return result
        } catch {
            await session.bracelet.close()
            throw error
        }
    }

    /// A plan guard for a flow on this bracelet, journaled in `store` under `ownership` (docs/design.md
    /// "Plan safety"): `enter()` where the flow switches to nibpCalibration, `restore()` on every way out.
    public func planGuard(store: any StateStore, ownership: PlanJournal.Ownership = .init(), flow: FlowName) -> PlanGuard {
        PlanGuard(bracelet: bracelet, serial: identity.serial,
                  journal: PlanJournal(store: store, leaseSeconds: ownership.leaseSeconds), flow: flow.rawValue, clock: clock,
                  owner: ownership.owner, diagnostics: diagnostics)
    }
}
