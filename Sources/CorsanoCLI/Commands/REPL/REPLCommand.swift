/// `corsano repl` (and bare `corsano` on a terminal): the interactive shell on a terminal, the
/// scripted reader otherwise.
enum REPLCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        _ = try StateLocation.path(args, environment: ctx.environment)  // --state with --no-state: 64 now
        let session = REPLSession(options: args)
        guard ctx.stdinIsTerminal else {
            return await ScriptedREPL(session: session, bail: args.flag(.bail), ctx: ctx).run()
        }
        return await InteractiveREPL(session: session, ctx: ctx).run()
    }
}
