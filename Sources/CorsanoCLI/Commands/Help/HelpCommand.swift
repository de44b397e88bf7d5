/// `corsano help [COMMAND]`.
enum HelpCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        let layout = HelpRenderer.layout(for: ctx.stdout, ctx)
        guard !args.operands.isEmpty else {
            ctx.stdout.write(HelpRenderer.overview(layout: layout))
            return .success
        }
        if args.operands.count == 1, let group = HelpRenderer.group(args.operands[0], layout: layout) {
            ctx.stdout.write(group)
            return .success
        }
        guard let (spec, used) = CommandTable.lookup(args.operands), used == args.operands.count else {
            throw UsageError.unknownCommand(args.operands.joined(separator: " "))
        }
        ctx.stdout.write(HelpRenderer.help(for: spec, layout: layout))
        return .success
    }
}
