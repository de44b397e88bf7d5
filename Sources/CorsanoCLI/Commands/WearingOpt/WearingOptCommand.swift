import CorsanoKit

/// `corsano wearing-opt`: PPG wearing optimization on the bracelet (seed
/// wearing-optimization; docs/design.md "Events", "Exit status", "Time").
///
/// Order of checks follows the precedence of docs/design.md "Exit status": flags (64), the scenario and `--profile` file
/// (66, its content 65), the state store (74), then the bracelet (69: model 287-2, firmware
/// >= 7.0), then the profile (64 naming every missing field, before `started`), then the
/// flow's result. The profile: `--profile`, else the one last pushed to this bracelet (state
/// store), else the one the bracelet holds. Prompts only when stdin is a terminal; otherwise the answers come
/// from the flags and the stored profile and every retry is taken.
enum WearingOptCommand {
    static let flow = FlowName.wearingOpt

    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        // First: no stop signal is lost. Until the bracelet is reached one ends the
        // process at once (nothing is switched; a connect may hang on an unreachable bridge);
        // from then on it cancels the flow, which writes `started` and `finished`.
        let signals = SignalHandling.install()
        signals.exitAtOnceUntilBraceletReached()
        let config = try options(args)
        let mode = try OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal)
        var bracelet = try BraceletConnector.prepare(args, ctx)
        try bracelet.readScenario()
        let given = try profile(args, ctx)
        let setUp = try FlowSetUp(args, ctx)
        let (store, ownership, run) = (setUp.store, setUp.ownership, setUp.run)
        var audit: AuditLogSink?
        let outcome: Result<WearingOptimizationResult, any Error>
        do {
            outcome = try await BraceletSession.run(
                bracelet.target, flow: flow, store: store, ownership: ownership, run: run,
                events: { session in
                    signals.braceletReached()
                    let log = setUp.auditSink(bracelet: session.identity, operatorName: GatewayOptions.operatorName(args))
                    audit = log
                    return EventFanOut([try EventSinks.stdout(args, ctx), log])
                },
                diagnostics: ctx.diagnostics
            ) { session, sink in
                await optimize(setUp.flowRun(args, ctx, mode: mode, signals: signals),
                               config: config, session: session, sink: sink, given: given)
            }
        } catch {
            outcome = .failure(error)
        }
        signals.uninstall()
        if let failure = audit?.failure { throw failure }
        return try await setUp.sayingRetryLater(args, ctx, flow: flow) { status(of: try outcome.get(), signal: signals.exitStatus) }
    }

    /// The optimization on a connected, gated and repaired bracelet: the profile it starts
    /// from, the interaction the terminal calls for, the flow under `signals`.
    private static func optimize(
        _ flowRun: FlowRun, config: WearingOptimizationConfig, session: BraceletSession, sink: any EventSink, given: UserProfile?
    ) async -> Result<WearingOptimizationResult, any Error> {
        let (args, ctx, mode, store, ownership, run, signals) = (flowRun.args, flowRun.ctx, flowRun.mode, flowRun.store, flowRun.ownership,
                                                                 flowRun.id, flowRun.signals)
        // Journaled like bp-init's plan: the entry claims the bracelet for this run
        // and records that special mode 4 may run, so a run killed mid-optimization has it
        // stopped by the next command that reaches the bracelet. A bracelet found in the
        // calibration plan nothing records is refused (69).
        let planGuard = session.planGuard(store: store, ownership: ownership, flow: flow)
        defer { try? planGuard.release() }
        do {
            try await planGuard.claim()
            let profiles = ProfileStore(store: store)
            let profile = try given ?? profiles.load(serial: session.identity.serial)
            let interaction: any WearingOptInteraction = ctx.stdinIsTerminal
                ? TerminalWearingInteraction(lines: .stdin, localizer: EventSinks.localizer(args, ctx),
                                             prompts: PromptOutput(writer: mode == .text ? ctx.stdout : ctx.stderr,
                                                                   layout: EventSinks.promptLayout(args, ctx, mode: mode)))
                : ctx.ask.map { REPLWearingInteraction(ask: $0, localizer: EventSinks.localizer(args, ctx),
                                                         scripted: ScriptedWearingOptInteraction(position: config.position)) as any WearingOptInteraction }
                    ?? ScriptedWearingOptInteraction(position: config.position)
            var optimization = WearingOptimizationFlow(
                bracelet: session.bracelet, clock: session.clock, events: sink, interaction: interaction,
                config: config, serial: session.identity.serial, profile: profile, profileStore: profiles, run: run)
            // Nothing given or stored: the flow reads what the bracelet holds (a failure there is
            // the run's braceletDisconnected, with its events); with none at all, every field
            // nothing gave is named at once (the preparation flags give theirs).
            optimization.readsBraceletProfile = true
            let flags: [String: OptionKey] = ["wrist": .wrist, "skinTone": .skinTone, "hairDensity": .hairDensity]
            optimization.missingWithoutProfile = ProfileRules.fields.filter { flags[$0].map(args.flag) != true }
            let flow = optimization
            let outcome = await signals.run { () -> Result<WearingOptimizationResult, any Error> in
                do { return .success(try await flow.run()) } catch { return .failure(error) }
            }
            // Each bracelet failure names its cause, never a bare exit 4.
            if case .success(.braceletDisconnected) = outcome, let error = flow.braceletFailureCause {
                ctx.diagnose("bracelet \(session.identity.serial): "
                             + ((session.bracelet as? BridgeClient)?.malformedReplyCause ?? error.message))
            }
            return outcome
        } catch {
            return .failure(error)
        }
    }

    /// `--profile FILE|-` with the preparation flags (`--wrist`, `--skin-tone`, `--hair-density`)
    /// over its fields; nil without it. - Throws: `UsageError` (64; `-` while stdin is the
    /// person's terminal), `InputError` (66), `ProfileFileError` (65, every missing field at once).
    static func profile(_ args: ParsedCommand, _ ctx: CommandContext) throws -> UserProfile? {
        guard let path = args.string(.profile) else { return nil }
        if path == "-", ctx.stdinIsTerminal {
            throw UsageError.badValue(option: "profile", value: "-", expected: "a FILE while standard input is a terminal (the prompts read it)")
        }
        return try ProfileInput.profile(args, today: CalendarDate(utcDateOf: try args.instant(.now) ?? CommandContext.wallClock()),
                                        file: .profile)
    }

    /// The flow's config from the flags. - Throws: `UsageError` naming the flag.
    static func options(_ args: ParsedCommand) throws -> WearingOptimizationConfig {
        var config = WearingOptimizationConfig.default
        if let attempts = try args.integer(.maxAttempts) { config.maxAttempts = attempts }
        config.includePreparation = !args.flag(.noPreparation)
        if let position = args.string(.position).flatMap(BraceletPosition.init(rawValue:)) { config.position = position }
        config.skinTone = try args.integer(.skinTone)
        config.hairDensity = args.string(.hairDensity).flatMap(UserProfile.HairDensity.init(rawValue:))
        config.wrist = args.string(.wrist).flatMap(UserProfile.Wrist.init(rawValue:))
        return config
    }

    /// docs/design.md "Exit status": 0, 1 failedAfterRetries, 4 braceletDisconnected, 130 / 143
    /// cancelledByUser (SIGTERM 143; SIGINT and a declined retry 130).
    static func status(of result: WearingOptimizationResult, signal: ExitStatus?) -> ExitStatus {
        switch result {
        case .success: return .success
        case .failedAfterRetries: return .failedAfterRetries
        case .braceletDisconnected: return .braceletDisconnected
        case .cancelledByUser: return signal ?? .interrupted
        }
    }
}
