/// Runs one parsed command and returns its exit status; errors go to `ErrorTranslator`.
typealias CommandHandler = @Sendable (ParsedCommand, CommandContext) async throws -> ExitStatus

/// Which handler runs each command of the table, by command name.
enum CommandRegistry {
    static let handlers: [String: CommandHandler] = [
        "help": HelpCommand.run,
        "bp-init": BPInitCommand.run,
        "history": HistoryCommand.run,
        "profile push": ProfilePushCommand.run,
        "wearing-opt": WearingOptCommand.run,
        "replay-filter": ReplayFilterCommand.run,
        "completion": CompletionCommand.run,
        "cuff ingest": CuffIngestCommand.run,
        "bracelet serve": BraceletServeCommand.run,
        "repl": REPLCommand.run,
    ]
}

/// `corsano help [COMMAND]`.
enum HelpCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        guard !args.operands.isEmpty else {
            ctx.stdout.write(HelpRenderer.overview())
            return .success
        }
        if args.operands.count == 1, let group = HelpRenderer.group(args.operands[0]) {
            ctx.stdout.write(group)
            return .success
        }
        guard let (spec, used) = CommandTable.lookup(args.operands), used == args.operands.count else {
            throw UsageError.unknownCommand(args.operands.joined(separator: " "))
        }
        ctx.stdout.write(HelpRenderer.help(for: spec))
        return .success
    }
}
