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
