import CorsanoKit

/// `corsano bp-init`: NIBP calibration of a bracelet against a reference cuff (issue 5; seed
/// bp-initialization; DESIGN "Events", "Exit status", "Time", "Host-side cuff rules").
///
/// Order of checks follows DESIGN's precedence: flags (64), the cuff file and the scenario (66),
/// the state store (74), then the bracelet (69), then the flow's result.
enum BPInitCommand {
    static let flow = BPInitializationStep.flowName

    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        let config = try BPInitOptions.config(args)
        let timeout = try BPInitOptions.cuffTimeout(args)
        let mode = try OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal)
        var bracelet = try BraceletConnector.prepare(args, ctx)
        let choice = try BPInitOptions.cuff(args, stdinIsTerminal: ctx.stdinIsTerminal)
        try bracelet.readScenario()
        let store = try StateLocation.open(args, environment: ctx.environment)
        let session = try await BraceletConnector.connect(bracelet, flow: flow)
        let runID = RunID.make()
        let audit = AuditLogSink(log: AuditLog(store: store), bracelet: session.identity)
        let sink = EventFanOut([try EventSinks.stdout(args, ctx), audit, DroppedLineDiagnostics(ctx: ctx)])
        try await session.repairJournal(store: store, sink: sink, flow: flow, run: runID, ctx)

        let localizer = EventSinks.localizer(args, ctx)
        let prompts = mode == .text ? ctx.stdout : ctx.stderr
        // Prompts read stdin only when a person is there and stdin does not carry the readings.
        let terminal: TerminalInteraction? = ctx.stdinIsTerminal && !choice.readsStdinLines
            ? TerminalInteraction(lines: .stdin, localizer: localizer, prompts: prompts) : nil
        let cuff: any CuffSource
        switch choice {
        case .lines(let file):
            cuff = LineCuffSource(bytes: FileDescriptorSource(fd: file.fd), name: file.name, timeout: timeout)
        case .command(let command):
            cuff = CommandCuffSource(command: command, timeout: timeout, ctx: ctx)
        case .typed:
            cuff = TypedCuffSource(lines: .stdin, localizer: localizer, clock: session.clock, prompts: prompts,
                                   timeout: timeout, narrated: mode == .text)
        }
        let pairing = CommandCuffPairing(pairedCommand: args.string("cuff-paired-cmd"), pairCommand: args.string("pair-cmd"),
                                         terminal: terminal, timeout: timeout, ctx: ctx)
        // In the interactive REPL the line editor owns the terminal: retry questions go through it.
        let interaction: any BPInitInteraction = terminal
            ?? ctx.ask.map { REPLRetryInteraction(ask: $0, localizer: localizer) as any BPInitInteraction } ?? NonInteractive()
        let calibration = BPInitializationFlow(
            config: config, bracelet: session.bracelet, clock: session.clock, cuff: cuff, sink: sink,
            interaction: interaction, pairing: pairing,
            planGuard: session.planGuard(store: store, flow: flow), runID: runID)

        let signals = SignalHandling.install()
        let outcome = await signals.run { () -> Result<BPInitializationResult, StoreError> in
            do throws(StoreError) {
                return .success(try await calibration.run())
            } catch {
                return .failure(error)
            }
        }
        await session.bracelet.close()
        if let failure = audit.failure { throw failure }
        return try status(of: outcome.get(), signal: signals.exitStatus)
    }

    /// DESIGN "Exit status": 0, 1 failedAfterRetries, 3 cuffError, 4 braceletDisconnected,
    /// 130 / 143 cancelledByUser (SIGTERM is 143; SIGINT and a declined retry 130).
    static func status(of result: BPInitializationResult, signal: ExitStatus?) -> ExitStatus {
        switch result {
        case .success: return .success
        case .failedAfterRetries: return .failedAfterRetries
        case .cuffError: return .cuffError
        case .braceletDisconnected: return .braceletDisconnected
        case .cancelledByUser: return signal ?? .interrupted
        }
    }
}

extension BPInitOptions.CuffChoice {
    /// True when the readings come from stdin as JSON lines (`--cuff -`): then stdin cannot also
    /// answer prompts. Typed readings share stdin with the prompts, one line per question.
    var readsStdinLines: Bool {
        if case .lines(let file) = self { return file.fd == 0 }
        return false
    }
}

/// Names each malformed cuff line on stderr with its source, line and field (DESIGN: "Bad
/// input: clear error naming file, line and field"); the `cuffReadingDropped` event carries it too.
struct DroppedLineDiagnostics: EventSink {
    let ctx: CommandContext

    func emit(_ event: FlowEvent) {
        guard event.event == "cuffReadingDropped", event["reason"]?.stringValue == "invalid",
              let problem = event["problem"]?.stringValue else { return }
        ctx.diagnose("cuff reading dropped: \(problem)")
    }
}
