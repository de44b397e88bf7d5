import CorsanoKit
import Synchronization

/// `corsano bp-init`: NIBP calibration of a bracelet against a reference cuff (seed
/// bp-initialization; docs/design.md "Events", "Exit status", "Time", "Host-side cuff rules").
///
/// Order of checks follows the precedence of docs/design.md "Exit status": flags (64), the cuff file and the scenario (66),
/// the state store (74), then the bracelet (69), then the flow's result.
enum BPInitCommand {
    static let flow = FlowName.bpInit

    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        // First: no stop signal is lost. Until the bracelet is reached one ends the
        // process at once (nothing is switched; a connect may hang on an unreachable bridge);
        // from then on it cancels the flow, which restores the plan and writes `finished`.
        let signals = SignalHandling.install()
        signals.exitAtOnceUntilBraceletReached()
        var config = try BPInitOptions.config(args)
        let multiSet = try BPInitOptions.multiSet(args)
        config.multiSet = multiSet.parameters
        let timeout = try BPInitOptions.cuffTimeout(args)
        let mode = try OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal)
        var bracelet = try BraceletConnector.prepare(args, ctx, defaultClock: BPInitOptions.readsBluetoothCuff(args) ? "real" : nil)
        let choice = try BPInitOptions.cuff(args, stdinIsTerminal: ctx.stdinIsTerminal)
        try bracelet.readScenario()
        let simulatedCuff = try BPInitOptions.simulatedCuffScenario(choice, bracelet: bracelet, subject: try SubjectOption.value(args))
        let setUp = try FlowSetUp(args, ctx)
        let (store, ownership, auditKey, runID) = (setUp.store, setUp.ownership, setUp.auditKey, setUp.run)
        // A host whose clock is off the shared store's is refused here, after the store opens and
        // before the bracelet is reached (docs/design.md "Multi-set calibration").
        _ = try StoreClock.checked(store: store, host: CommandContext.wallClock(), maxSkewSeconds: try BPInitOptions.maxClockSkew(args))
        var audit: AuditLogSink?
        let (outcome, signal, journalFailure, leftSwitched, cause) = try await setUp.sayingRetryLater(args, ctx, flow: flow) {
            try await BraceletSession.run(
                bracelet.target, flow: flow, store: store, ownership: ownership, run: runID,
                events: { session in
                    signals.braceletReached()
                    let log = setUp.auditSink(bracelet: session.identity, operatorName: GatewayOptions.operatorName(args))
                    audit = log
                    var cuffName: String?
                    if case .lines(let file) = choice { cuffName = file.name }
                    return EventFanOut([try EventSinks.stdout(args, ctx), log, DroppedLineDiagnostics(ctx: ctx, cuffName: cuffName),
                                        CuffCountsLine(ctx: ctx)])
                },
                diagnostics: ctx.diagnostics,
                notDue: { session in
                    try MultiSetStart.notDue(store: store, asked: multiSet.parameters, serial: session.identity.serial, run: runID,
                                             now: session.clock.now())
                }
            ) { session, sink in
                try await calibrate(setUp.flowRun(args, ctx, mode: mode, signals: signals),
                                    config: config, multiSet: multiSet, auditKey: auditKey, choice: choice, simulatedCuff: simulatedCuff,
                                    timeout: timeout, session: session, sink: sink, audit: audit)
            }
        }
        if case .failure(is MultiSetAbandoned) = outcome { return .success }
        // The result is written; a store lost meanwhile still makes the run 74 (docs/design.md "Exit status").
        if let failure = audit?.failure ?? journalFailure.map({ $0 as any Error }) { throw failure }
        let result = try outcome.get()
        // Each bracelet failure names its cause, never a bare exit 4.
        if case .braceletDisconnected = result, let cause { ctx.diagnose(cause) }
        // A failed compensation is a failure: the bracelet did not do what it must.
        if let left = leftSwitched {
            ctx.diagnose(left)
            return .braceletDisconnected
        }
        return status(of: result, signal: signal)
    }

    /// The calibration on a connected, gated and repaired bracelet, with the cuff source and
    /// the interaction the flags and the terminal call for; the flow's result and the signal
    /// that ended it, if one did.
    private static func calibrate(
        _ run: FlowRun, config: BPInitializationConfig, multiSet: BPInitOptions.MultiSetChoice, auditKey: AuditKey,
        choice: BPInitOptions.CuffChoice, simulatedCuff: (Scenario, ScenarioSubject)?, timeout: Duration,
        session: BraceletSession, sink: any EventSink, audit: AuditLogSink?
    ) async throws -> (Result<BPInitializationResult, any Error>, ExitStatus?, StoreError?, String?, String?) {
        let (args, ctx, mode, store, ownership, runID, signals) = (run.args, run.ctx, run.mode, run.store, run.ownership, run.id, run.signals)
        let localizer = EventSinks.localizer(args, ctx)
        let prompts = PromptOutput(writer: mode == .text ? ctx.stdout : ctx.stderr,
                                   layout: EventSinks.promptLayout(args, ctx, mode: mode))
        // Prompts read stdin only when a person is there and stdin does not carry the readings.
        let terminal: TerminalInteraction? = ctx.stdinIsTerminal && !choice.readsStdinLines
            ? TerminalInteraction(lines: .stdin, localizer: localizer, prompts: prompts) : nil
        let (cuff, bluetooth) = try await BPInitOptions.cuffSource(choice, simulated: simulatedCuff, args, ctx, session: session,
                                                                  timeout: timeout, localizer: localizer, prompts: prompts, mode: mode)
        let pairing = CommandCuffPairing(pairedCommand: args.string(.cuffPairedCmd), pairCommand: args.string(.pairCmd),
                                         terminal: terminal, timeout: timeout, ctx: ctx)
        // In the interactive REPL the line editor owns the terminal: retry questions go through it.
        let interaction: any BPInitInteraction = terminal
            ?? ctx.ask.map { REPLRetryInteraction(ask: $0, localizer: localizer) as any BPInitInteraction } ?? NonInteractive()
        // Issue 32: the multi-set decision comes after identify and before the claim, so a set not
        // due yet (75) sends nothing but identify/getPlan and writes nothing.
        let serial = session.identity.serial
        if multiSet.abandon {
            if let closed = try MultiSetStart.abandon(store: store, serial: serial, run: runID, now: session.clock.now()) {
                // Recorded in the audit log as a run of its own, on the wall clock as every run.
                let log = AuditLog(store: store, gateway: ownership.owner.gateway, key: auditKey)
                let at = CommandContext.wallClock()
                try log.begin(run: runID, flow: flow, bracelet: session.identity, at: at, config: config.json)
                try log.finish(run: runID, at: at, result: MultiSetStart.abandonedResult(closed))
                ctx.note("calibration \(closed.id) of bracelet \(serial) abandoned after \(closed.sets.count) of \(closed.parameters.sets) sets")
            } else {
                ctx.note("no open calibration for \(serial)")
            }
            return (.failure(MultiSetAbandoned()), nil, nil, nil, nil)
        }
        // Whether a set is due is the store's decision on a real clock (PostgreSQL's now(); SQLite's is
        // this host's); a virtual-clock rehearsal keeps its run clock (docs/design.md "Multi-set calibration").
        let decidedAt = session.clock.isVirtual ? session.clock.now() : try store.clockNow() ?? session.clock.now()
        let open = try MultiSetStart.prepare(store: store, asked: multiSet.parameters, serial: serial, run: runID,
                                             now: decidedAt, diagnostics: ctx.diagnostics)
        var cuffID: String?
        if case .bluetooth(let address) = choice { cuffID = address }
        if let open, !multiSet.force, let conflict = MultiSetPlanner.cuffConflict(open, cuff: cuffID) {
            throw BraceletError.unavailable(conflict)
        }
        if let open, cuffID == nil, open.cuff != nil || open.sets.isEmpty {
            ctx.note("set \(open.nextSet) of \(open.parameters.sets): cuff unknown until a reading names it (cuff field); a set on no named cuff is recorded as unknown")
        }
        let planGuard = session.planGuard(store: store, ownership: ownership, flow: flow)
        // Claimed before anything else touches the bracelet: a live run's hold or
        // journal entry, or a calibration plan nothing records, is 69 here, with no flow events.
        try await planGuard.claim()
        if let open {
            do { try MultiSetStart.confirm(store: store, open) } catch {
                try? planGuard.release()
                throw error
            }
        }
        var built = BPInitializationFlow(
            config: config, bracelet: session.bracelet, clock: session.clock, cuff: cuff, sink: sink,
            interaction: interaction, pairing: pairing,
            planGuard: planGuard, runID: runID)
        built.multiSet = open.map { calibration in
            var set = MultiSetRun(calibration: calibration, cuff: cuffID, store: store)
            // The set's row commits with the run's finish record, or not at all.
            if let audit { set.save = { audit.saveWithFinish($0) } }
            return set
        }
        built.multiSetCuffAllowed = multiSet.force
        built.diagnostics = ctx.diagnostics
        let calibration = built

        let outcome = await signals.run { () -> Result<BPInitializationResult, any Error> in
            do {
                return .success(try await calibration.run())
            } catch {
                return .failure(error)
            }
        }
        await bluetooth?.close()
        try? planGuard.release()
        let leftSwitched = planGuard.restoreFailure.map { error in
            "bracelet \(session.identity.serial) was left in plan \(BraceletPlan.nibpCalibration): restoring plan "
                + "\(planGuard.previousPlan?.name ?? "?") failed (\(error.message)); restore it with "
                + "'corsano bracelet repair --plan \(planGuard.previousPlan?.name ?? "PLAN")'"
        }
        let cause = calibration.braceletFailureCause.map { error in
            "bracelet \(session.identity.serial): " + ((session.bracelet as? BridgeClient)?.malformedReplyCause ?? error.message)
        }
        return (outcome, signals.exitStatus, planGuard.storeFailure, leftSwitched, cause)
    }

    /// docs/design.md "Exit status": 0, 1 failedAfterRetries, 3 cuffError, 4 braceletDisconnected,
    /// 130 / 143 / 129 cancelledByUser (SIGTERM is 143, SIGHUP 129; SIGINT and a declined retry 130).
    static func status(of result: BPInitializationResult, signal: ExitStatus?) -> ExitStatus {
        switch result {
        case .success, .setRecorded: return .success
        case .failedAfterRetries: return .failedAfterRetries
        case .cuffError: return .cuffError
        case .braceletDisconnected: return .braceletDisconnected
        case .cancelledByUser: return signal ?? .interrupted
        }
    }
}

/// `--abandon` closed (or found no) open calibration: the run ends 0 without a flow.
struct MultiSetAbandoned: Error {}

extension BPInitOptions.CuffChoice {
    /// True when the readings come from stdin as JSON lines (`--cuff -`): then stdin cannot also
    /// answer prompts. Typed readings share stdin with the prompts, one line per question.
    var readsStdinLines: Bool {
        if case .lines(let file) = self { return file.fd == 0 }
        return false
    }
}

/// bp-init's closing counts on stderr, in the shape of `cuff ingest`'s and
/// `replay-filter`'s: `bp-init: read 4, fed 2, dropped 2 (replayed: 1, duplicate: 1), unstamped 1`
/// (not with `--quiet`). The first fed reading without a time (neither `measuredAt` nor
/// `deviceTime`) that is not a typed entry is said once to be exempt from the age rule (seed: the age rule reads the
/// reading's time; a reading without one is never age-checked), no new event.
final class CuffCountsLine: EventSink, @unchecked Sendable {
    let ctx: CommandContext
    private let lock = Mutex(())
    private var fed = 0
    private var dropped: [DroppedCuffItem.Reason: Int] = [:]
    private var origins = ReadingOrigins()
    private var exemptionSaid = false

    init(ctx: CommandContext) { self.ctx = ctx }

    func emit(_ event: FlowEvent) {
        switch event.payload {
        case .measurement(let m):
            let first = lock.locked { () -> Bool in
                fed += 1
                origins.count(m.reading)
                // A typed entry is exempt as a manual entry; the note is for a cuff's reading
                // that came without its time.
                let r = m.reading
                guard !r.isManualEntry, r.measuredAt == nil, r.deviceTime == nil, !exemptionSaid else { return false }
                exemptionSaid = true
                return true
            }
            if first {
                ctx.note("bp-init: a cuff reading without a time (no measuredAt, no deviceTime) was fed: unstamped readings are exempt from the age rule (--max-reading-age)")
            }
        case .cuffReadingDropped(let drop):
            lock.locked { dropped[drop.reason, default: 0] += 1 }
        case .finished:
            guard !OutputWriter.readerGone else { return }  // 141 is quiet
            let line = lock.locked { () -> String? in
                let total = dropped.values.reduce(0, +)
                guard fed + total > 0 else { return nil }  // no cuff reading came: nothing to count
                return "bp-init: read \(fed + total), fed \(fed), dropped \(total)" + RecordCounts.byReason(dropped) + origins.suffix
            }
            if let line { ctx.note(line) }
        default: return
        }
    }
}

/// Names each malformed cuff line on stderr with its source, line and field (docs/design.md "Cuff input formats": "Bad
/// input: clear error naming file, line and field"); the `cuffReadingDropped` event carries it too.
///
/// A line that is a CSV header or a BLE capture (a cuff dump fed as is) says once, first, that
/// the input needs `corsano cuff ingest` in front (point 3).
final class DroppedLineDiagnostics: EventSink, @unchecked Sendable {
    let ctx: CommandContext
    /// The `--cuff` input's name (`<stdin>` for `-`), when readings come as lines.
    let cuffName: String?
    private let lock = Mutex(())
    private var hinted = false

    init(ctx: CommandContext, cuffName: String?) {
        self.ctx = ctx
        self.cuffName = cuffName
    }

    func emit(_ event: FlowEvent) {
        guard case .cuffReadingDropped(let drop) = event.payload, drop.reason == .invalid else { return }
        switch drop.item {
        case .line(let text, let problem):
            if let hint = hint(for: text) { ctx.diagnose(hint) }
            ctx.diagnose("cuff reading dropped: \(problem)")
        case .reading(_, let problem?): ctx.diagnose("cuff reading dropped: \(problem)")
        case .reading(_, nil): return
        }
    }

    /// What to run instead, the first time a line shows a format `cuff ingest` reads.
    private func hint(for line: String) -> String? {
        guard let format = IngestFormat.detect(firstLine: Array(line.utf8)), format != .jsonl else { return nil }
        let first = lock.locked { () -> Bool in defer { hinted = true }; return !hinted }
        guard first else { return nil }
        let what = format == .csv ? "a CSV cuff export" : "BLE 0x2A35 captures"
        let input = cuffName.map { $0 == "<stdin>" ? "standard input" : $0 } ?? "the cuff input"
        let operand = cuffName.map { $0 == "<stdin>" ? "-" : "'\($0)'" } ?? "FILE"
        return "\(input) looks like \(what), not reading lines; pipe it through cuff ingest first: "
            + "corsano cuff ingest \(operand) | corsano bp-init ..."
    }
}
