import CorsanoKit

/// `corsano bracelet repair`: restores the plan a run left switched when that run's owner cannot
/// be confirmed gone (issue 18, DESIGN "Plan safety"). Every command that reaches a bracelet
/// repairs an entry whose owner (pid + start time + boot id) is gone; this one also repairs an
/// entry whose owner cannot be confirmed either way, and with `--force` one whose owner still runs.
///
/// Output: the `planRestored` event on stdout, a notice on stderr. Exit 0 when the bracelet
/// needed nothing or was repaired; 69 when the entry's owner still runs (without `--force`) or
/// the bracelet is unavailable; 74 for the state store.
enum BraceletRepairCommand {
    static let flow = "bracelet-repair"

    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        _ = try OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal)
        var bracelet = try BraceletConnector.prepare(args, ctx)
        try bracelet.readScenario()
        let store = try StateLocation.open(args, environment: ctx.environment)
        let auditKey = try AuditKeyFile.forAppending(args, ctx, store: store)  // 74 before the bracelet is touched (issue 35)
        // This gateway decides whose processes it can judge (another gateway's entry: its lease).
        let ownership = try GatewayOptions.ownership(args, environment: ctx.environment)
        let session = try await BraceletSession.connect(bracelet.target, flow: nil)
        let repair: PlanJournal.Repair
        let audit = AuditLogSink(log: AuditLog(store: store, gateway: ownership.owner.gateway, key: auditKey), bracelet: session.identity,
                                 recordedAt: { CommandContext.wallClock() })
        do {
            repair = try await PlanJournal(store: store).repairOpenEntries(
                bracelet: session.bracelet, identity: session.identity,
                // The audit log gets the record that the killed run's plan was restored (issue 26).
                sink: BraceletStampedSink(serial: session.identity.serial, next: EventFanOut([
                    try EventSinks.stdout(args, ctx), audit,
                ])), flow: flow,
                run: RunID.make(), clock: session.clock, notice: { ctx.note($0) }, me: ownership.owner,
                policy: args.flag("force") ? .always : .unlessRunning)
        } catch {
            await session.bracelet.close()
            throw error
        }
        await session.bracelet.close()
        if let failure = audit.failure { throw failure }
        let serial = session.identity.serial
        switch repair {
        case .nothingOpen:
            ctx.note("bracelet \(serial): no plan was left switched; nothing to repair")
        case .alreadyLeft(let entry, let current):
            ctx.note("bracelet \(serial) had already left plan \(BraceletPlan.nibpCalibration) (now \(current)); "
                         + "cleared the journal entry of \(entry.flow) (pid \(entry.pid))")
        case .restored:
            break  // the notice said it
        case .heldByLiveProcess(let entry):
            ctx.diagnose(PlanJournal.heldMessage(entry, me: ownership.owner)
                         + " (the run that switched still runs: stop it, or repair with --force)")
            return .unavailable
        case .ownerUnconfirmed:
            break  // not with this policy
        }
        return .success
    }
}
