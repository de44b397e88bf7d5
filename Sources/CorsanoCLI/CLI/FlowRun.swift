import CorsanoKit

/// What a flow command (bp-init, wearing-opt) hands the part of it that runs on the connected
/// bracelet, as one value instead of a dozen parameters: the typed options, the
/// process context, how events are written, the store and this gateway's claim on it, the run's
/// id and the stop-signal handling.
struct FlowRun {
    let args: ParsedCommand
    let ctx: CommandContext
    let mode: OutputMode
    let store: any StateStore
    let ownership: PlanJournal.Ownership
    /// The run id the journal, the audit log and the events share (`RunID.make`).
    let id: String
    let signals: SignalHandling
}

/// The set-up every command that runs on a bracelet under the plan journal repeats (bp-init,
/// wearing-opt, profile push, bracelet repair; issue 23), after the runner's phases (64, 66) and
/// its own inputs, in the order of docs/design.md "Exit status": this gateway's claim (`--gateway`,
/// `--lease`), the state store (74), the audit key (74 before the bracelet is touched, issue
/// 35), the run id the journal, the audit log and the events share.
struct FlowSetUp {
    let ownership: PlanJournal.Ownership
    let store: any StateStore
    let auditKey: AuditKey
    /// The run id (`RunID.make`).
    let run: String

    /// - Throws: `UsageError` (64) for a bad gateway option; the store's or the key file's
    ///   errors (74).
    init(_ args: ParsedCommand, _ ctx: CommandContext) throws {
        ownership = try GatewayOptions.ownership(args, environment: ctx.environment)
        store = try StateLocation.open(args, ctx)
        auditKey = try AuditKeyFile.forAppending(args, ctx, store: store)
        run = RunID.make()
    }

    /// The audit log's sink for a run on `identity`, stamped with the wall clock; `operatorName`
    /// when the command records who ran it (`GatewayOptions.operatorName`).
    func auditSink(bracelet identity: BraceletIdentity, operatorName: String? = nil) -> AuditLogSink {
        AuditLogSink(log: AuditLog(store: store, gateway: ownership.owner.gateway, key: auditKey), bracelet: identity,
                     recordedAt: { CommandContext.wallClock() }, operatorName: operatorName)
    }

    /// Runs `body`; a refusal that waiting fixes (75: a bracelet a live run holds, a set not due)
    /// is also written on stdout, when it carries JSON lines, as the run's one error line
    /// `{"error":WORD,"flow":F,"run":R,"status":75,"retryAfter":T,"message":…}` (`retryAfter`
    /// absent when unknown), so a script reads when to try again without parsing English
    /// (docs/design.md "Exit status").
    func sayingRetryLater<T>(_ args: ParsedCommand, _ ctx: CommandContext, flow: FlowName,
                             _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as any RetryLater where ErrorTranslator.status(of: error) == .notYet {
            if (try? OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal)) == .json {
                var fields: [(String, JSONValue)] = [("error", .string(error.refusal)), ("flow", .string(flow.rawValue)),
                                                     ("run", .string(run)), ("status", .int(Int(ExitStatus.notYet.rawValue)))]
                if let at = error.retryAfter { fields.append(("retryAfter", .string(RFC3339.format(at)))) }
                fields.append(("message", .string(ErrorTranslator.translate(error).message ?? "")))
                ctx.stdout.line(JSONValue.object(fields).serialized)
                ctx.stdout.flush()
            }
            throw error
        }
    }

    /// The `FlowRun` of this set-up, for the part of a flow that runs on the connected bracelet.
    func flowRun(_ args: ParsedCommand, _ ctx: CommandContext, mode: OutputMode, signals: SignalHandling) -> FlowRun {
        FlowRun(args: args, ctx: ctx, mode: mode, store: store, ownership: ownership, id: run, signals: signals)
    }
}
