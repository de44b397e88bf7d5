import CorsanoKit

/// `corsano bracelet repair`: restores the plan a run left switched when that run's owner cannot
/// be confirmed gone (docs/design.md "Plan safety"). Every command that reaches a bracelet
/// repairs an entry whose owner (pid + start time + boot id) is gone; this one also repairs an
/// entry whose owner cannot be confirmed either way, and with `--force` one whose owner still runs.
///
/// Output: the `planRestored` event on stdout, a notice on stderr. Exit 0 when the bracelet
/// needed nothing or was repaired; 69 when the entry's owner still runs (without `--force`) or
/// the bracelet is unavailable; 74 for the state store.
enum BraceletRepairCommand {
    static let flow = FlowName.braceletRepair

    /// `--plan` names a plan to give back: not empty, not the calibration plan itself (64, checked
    /// with the other rules before the store is opened).
    static let planRule = OptionRule.check { args in
        guard let name = args.string(.plan) else { return }
        guard !name.isEmpty, name != BraceletPlan.nibpCalibration.name else {
            throw UsageError.badValue(option: "--plan", value: name, expected: "the plan to give back, not \(BraceletPlan.nibpCalibration)")
        }
    }

    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        _ = try OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal)
        var bracelet = try BraceletConnector.prepare(args, ctx)
        try bracelet.readScenario()
        // This gateway decides whose processes it can judge (another gateway's entry: its lease).
        let setUp = try FlowSetUp(args, ctx)
        let (store, ownership, runID) = (setUp.store, setUp.ownership, setUp.run)
        let plan = args.string(.plan).map(BraceletPlan.init)  // (`planRule` refused the calibration plan)
        let session = try await BraceletSession.connect(bracelet.target, flow: nil)
        session.bracelet.name(holder: BraceletHolder(run: runID, gateway: ownership.owner.gateway, pid: ownership.owner.pid))
        if let plan {
            defer { Task { await session.bracelet.close() } }
            return try await setPlan(plan, args, ctx, session: session, setUp: setUp)
        }
        let repair: PlanJournal.Repair
        let audit = setUp.auditSink(bracelet: session.identity)
        do {
            repair = try await PlanJournal(store: store).repairOpenEntries(
                bracelet: session.bracelet, identity: session.identity,
                // The audit log gets the record that the killed run's plan was restored.
                sink: BraceletStampedSink(serial: session.identity.serial, next: EventFanOut([
                    try EventSinks.stdout(args, ctx), audit,
                ])), flow: flow,
                run: runID, clock: session.clock, diagnostics: ctx.diagnostics, me: ownership.owner,
                policy: args.flag(.force) ? .always : .unlessRunning)
        } catch {
            await session.bracelet.close()
            throw error
        }
        let serial = session.identity.serial
        if case .nothingOpen = repair {
            // No journal knows this bracelet: in the calibration plan it is not monitoring, and
            // there is no default plan to guess.
            let status = try await withClosing(session) { try await session.bracelet.planStatus() }
            if status.plan == .nibpCalibration {
                if let holder = status.holder {
                    throw BraceletError.held(holder)
                }
                ctx.diagnose(PlanGuard.unrecordedMessage(serial: serial))
                return .unavailable
            }
        }
        await session.bracelet.close()
        if let failure = audit.failure { throw failure }
        switch repair {
        case .nothingOpen:
            ctx.note("bracelet \(serial): no plan was left switched; nothing to repair")
        case .alreadyLeft(let entry, let current):
            ctx.note("bracelet \(serial) had already left plan \(BraceletPlan.nibpCalibration) (now \(current)); "
                         + "cleared the journal entry of \(entry.flow) (pid \(entry.pid))")
        case .restored, .stoppedSpecialMode:
            break  // the notice said it
        case .heldByLiveProcess(let entry):
            ctx.diagnose(PlanJournal.heldMessage(entry, me: ownership.owner)
                         + " (the run that switched still runs: stop it, or repair with --force)")
            return .notYet
        case .ownerUnconfirmed:
            break  // not with this policy
        }
        return .success
    }

    /// Runs `body`, closing the bracelet when it throws.
    private static func withClosing<T>(_ session: BraceletSession, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            await session.bracelet.close()
            throw error
        }
    }

    /// `--plan PLAN`: sets the plan a person names, journaled (an entry of this run is written
    /// before the switch and cleared after it, so a kill between is repaired like any other) and
    /// said as `planRestored` with `why: "operator"`. A live run holding the bracelet (a bridge's
    /// holder, or a journal entry of a run that still runs) is left alone unless `--force`.
    private static func setPlan(
        _ plan: BraceletPlan, _ args: ParsedCommand, _ ctx: CommandContext, session: BraceletSession,
        setUp: FlowSetUp
    ) async throws -> ExitStatus {
        let (store, ownership, run) = (setUp.store, setUp.ownership, setUp.run)
        let serial = session.identity.serial
        let journal = PlanJournal(store: store, leaseSeconds: ownership.leaseSeconds)
        let force = args.flag(.force)
        let status = try await session.bracelet.planStatus()
        if let holder = status.holder, !force {
            ctx.diagnose("bracelet \(serial) is held by a live run: \(holder); left alone (stop it, or repair with --force)")
            return .notYet
        }
        if let entry = try journal.entry(serial: serial), !force {
            switch PlanJournal.ownerState(entry, me: ownership.owner, probe: .system) {
            case .gone: break
            case .running:
                ctx.diagnose(PlanJournal.heldMessage(entry, me: ownership.owner) + " (stop it, or repair with --force)")
                return .notYet
            case .unconfirmed:
                ctx.diagnose(PlanJournal.heldMessage(entry, me: ownership.owner) + " (stop it, or repair with --force)")
                return .unavailable
            }
        }
        // The operator's plan supersedes any entry: written first, so a kill mid-way leaves it.
        try journal.close(serial: serial)
        _ = try journal.open(PlanJournal.Entry(serial: serial, previousPlan: plan, flow: flow.rawValue, owner: ownership.owner,
                                               openedAt: session.clock.now()))
        try await session.bracelet.setPlan(plan)
        try journal.close(serial: serial)
        ctx.note("bracelet \(serial) was in plan \(status.plan); set plan \(plan) (--plan)")
        // Audited as every repair is: an appended record, `why: "operator"`.
        let audit = setUp.auditSink(bracelet: session.identity)
        let sink = BraceletStampedSink(serial: serial, next: EventFanOut([try EventSinks.stdout(args, ctx), audit]))
        sink.emit(FlowEvent(flow: flow, run: run, at: session.clock.now(), .planRestored(previousPlan: plan, why: .operator)))
        if let failure = audit.failure { throw failure }
        return .success
    }
}
