import Synchronization

/// The NIBP calibration flow of the SDK's `BPInitializationView`, driven only through injected
/// parts: bracelet, clock, cuff source, pairing check, retry decision and event sink.
///
/// Steps: needsCuffPairing (entry only) → instructions → per measurement measuring →
/// measurementRecorded → (retryPrompt) → finalSuccess / finalFailure. The bracelet is switched to
/// the NIBP-calibration plan before the first measurement and its previous plan restored on every
/// way out. Source: seeds/bp-initialization.txt ("Flow reference", "The two-measurement rule",
/// "Result handling"); docs/design.md "Events", "Time", "Host-side cuff rules".
public struct BPInitializationFlow: Sendable {
    public var config: BPInitializationConfig
    public var bracelet: any Bracelet
    public var clock: any FlowClock
    public var cuff: any CuffSource
    public var sink: any EventSink
    public var interaction: any BPInitInteraction
    public var pairing: any CuffPairing
    /// The id of this process run, written in every event's `run`.
    public var runID: String
    /// Switches to the NIBP-calibration plan and back; journaled when built with a journal.
    public var planGuard: PlanGuard
    /// The set of a multi-set calibration this run takes; nil: the seed's single session.
    public var multiSet: MultiSetRun?
    /// `--force`: a set may name another cuff than the calibration's earlier sets.
    /// Where the flow says what it decided and why at `-v` (a reading dropped: docs/design.md "Diagnostics").
    public var diagnostics: Diagnostics = .none
    public var multiSetCuffAllowed = false
    /// The bracelet error that ended the run as `braceletDisconnected`, for the command to name
    /// on stderr (issue 25: a refused switch or a malformed answer is not a silent "disconnected").
    let braceletFailure = FailureBox()
    /// What `braceletFailure` holds: the error behind a `braceletDisconnected` result, if any.
    public var braceletFailureCause: BraceletError? { braceletFailure.value.withLock { $0 } }

    /// Creates a flow; by default retries run automatically, a cuff is assumed paired, and the
    /// plan switch is not journaled (pass `planGuard` with a `PlanJournal` to journal it).
    public init(config: BPInitializationConfig = .default, bracelet: any Bracelet, clock: any FlowClock,
                cuff: any CuffSource, sink: any EventSink, interaction: any BPInitInteraction = NonInteractive(),
                pairing: any CuffPairing = AssumedPairing(), planGuard: PlanGuard? = nil, runID: String) {
        self.config = config
        self.bracelet = bracelet
        self.clock = clock
        self.cuff = cuff
        self.sink = sink
        self.interaction = interaction
        self.pairing = pairing
        self.runID = runID
        self.planGuard = planGuard ?? PlanGuard(bracelet: bracelet, serial: "", journal: nil,
                                                flow: FlowName.bpInit.rawValue, clock: clock)
    }

    /// Runs the whole flow and returns its result. Cancelling the task ends it with
    /// `cancelledByUser`; the plan is restored and `readings` and `finished` are emitted on every
    /// outcome.
    /// - Throws: before the plan is switched and before any reading was fed (no SDK result fits):
    ///   `StoreError` when the plan journal cannot be written (the command exits 74);
    ///   `BraceletError.held` / `.unavailable` when another live run holds the bracelet, its
    ///   plan changed under this run, or it is in the calibration plan nothing records (69).
    public func run() async throws -> BPInitializationResult {
        let state = BPInitRunState(screen: BPInitCuffScreen(config: config))
        emit(.started(.bpInit(config)))
        var result: BPInitializationResult
        var finished: FlowResult?
        do {
            finished = try await steps(state)
            switch finished {
            case .bpInit(let r)?, .bpInitSets(let r, _)?: result = r
            default: result = .cancelledByUser
            }
        } catch let end as BPInitFlowEnd {
            result = end.result
        } catch is CancellationError {
            result = .cancelledByUser
        } catch let error as StoreError {
            await restorePlan()
            throw error
        } catch let error as BraceletError where error.refusesTheRun {
            await restorePlan()
            throw error
        } catch let error as BraceletError {
            // docs/design.md "The bracelet port": a dropped link or a request that timed out.
            braceletFailure.value.withLock { $0 = error }
            result = .braceletDisconnected
        } catch {
            result = .cuffError(.unknown(String(describing: error)))
        }
        await restorePlan()
        emit(.readings(state.fed))
        emit(.finished(finished ?? .bpInit(result)))
        return result
    }

    /// The screens in order; returns the result or throws what ends the flow early.
    private func steps(_ state: BPInitRunState) async throws -> FlowResult {
        if await !pairing.isPaired() {
            try await enter(.needsCuffPairing)
            try await pairing.requestPairing()
            try Task.checkCancellation()
            guard await pairing.isPaired() else { return .bpInit(.cuffError(.cuffDisconnected)) }
        }
        try await enter(FlowStep(.bpInit(.instructions), preparation: config.includePreparation))
        guard try await interaction.confirmStart() else { return .bpInit(.cancelledByUser) }
        try await switchPlan()
        if let multiSet { return try await runSet(multiSet, state) }
        return .bpInit(try await singleSession(state))
    }

    /// The seed's single session: up to `maxAttempts` attempts of 2 or 3 measurements.
    private func singleSession(_ state: BPInitRunState) async throws -> BPInitializationResult {
        // The init clamps to 1, but the property is settable: never form an empty range.
        let budget = max(1, config.maxAttempts)
        for attempt in 1...budget {
            let outcome = try await runAttempt(attempt, state)
            if outcome.accepted {
                await restorePlan()
                await enterTerminal(.finalSuccess)
                return .success(measurementCount: outcome.measurements)
            }
            guard attempt < budget else { break }
            try await enter(FlowStep(.bpInit(.retryPrompt), attempt: attempt, maxAttempts: budget))
            guard try await interaction.confirmRetry(nextAttempt: attempt + 1, maxAttempts: budget) else {
                return .cancelledByUser
            }
        }
        await restorePlan()
        await enterTerminal(.finalFailure)
        return .failedAfterRetries(attemptCount: budget)
    }

    /// Emits the `step` event and tells the bracelet side (a scenario may hold or disconnect).
    func enter(_ step: FlowStep) async throws {
        try Task.checkCancellation()
        emit(.step(step))
        try await bracelet.enterStep(flow: FlowName.bpInit.rawValue, step: step.screen.name)
    }

    /// Enters a screen that carries nothing but its name.
    func enter(_ step: BPInitializationStep) async throws {
        try await enter(FlowStep(.bpInit(step)))
    }

    /// Enters a terminal screen. The result is already decided there (the calibration concluded,
    /// the plan is restored), so a hold, disconnect or signal at this screen does not change it:
    /// the seed's `cancelledByUser` is leaving "before it concluded".
    func enterTerminal(_ step: BPInitializationStep) async {
        try? await enter(step)
    }
}

/// The bracelet error a run ended on, shared by the copies of a flow value.
final class FailureBox: Sendable {
    let value = Mutex<BraceletError?>(nil)
}

/// Ends the flow early with a result (a cuff error, a stale reading).
struct BPInitFlowEnd: Error {
    let result: BPInitializationResult
}
