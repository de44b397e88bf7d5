import CorsanoKit

/// `corsano profile push`: validate a user profile and push it to the bracelet, skipping the
/// push when the bracelet already holds the same one unless `--force` (docs/design.md
/// "Subcommands", "Events": `profile`).
///
/// Order follows the precedence of docs/design.md "Exit status": flags (64), the `--from` file (66, then its content 65),
/// the state store (74), then the bracelet (69).
enum ProfilePushCommand {
    static let flow = FlowName.profilePush

    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        _ = try OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal)
        // The caller's today: `--now` when given (the run's virtual start), else the wall clock.
        let today = CalendarDate(utcDateOf: try args.instant(.now) ?? CommandContext.wallClock())
        let profile = try ProfileInput.profile(args, today: today)
        var bracelet = try BraceletConnector.prepare(args, ctx)
        try bracelet.readScenario()
        let setUp = try FlowSetUp(args, ctx)
        try await setUp.sayingRetryLater(args, ctx, flow: flow) {
            try await BraceletSession.run(bracelet.target, flow: flow, store: setUp.store, ownership: setUp.ownership, run: setUp.run,
                                          events: { session in
                                              // The audit log records a journal repair this command makes.
                                              EventFanOut([try EventSinks.stdout(args, ctx),
                                                           setUp.auditSink(bracelet: session.identity, operatorName: GatewayOptions.operatorName(args))])
                                          }, diagnostics: ctx.diagnostics) { session, sink in
                let push = ProfilePush(bracelet: session.bracelet, clock: session.clock, events: sink,
                                       profileStore: ProfileStore(store: setUp.store), run: setUp.run)
                _ = try await push.push(profile, serial: session.identity.serial, force: args.flag(.force))
            }
        }
        return .success
    }
}
