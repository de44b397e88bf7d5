/// `corsano completion bash|zsh|fish`: prints the completion script for that shell, generated
/// from the command table (the committed files in completions/ are this output).
enum CompletionCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        guard let shell = args.operands.first else {
            throw UsageError.missing("completion: name a shell: bash, zsh or fish")
        }
        if args.operands.count > 1 { throw UsageError.unexpectedOperand(args.operands[1], command: "completion") }
        ctx.stdout.write(script(for: shell))
        return .success
    }

    /// The script for `shell` (one of the table's operand choices).
    static func script(for shell: String) -> String {
        switch shell {
        case "zsh": return ZshCompletion.script()
        case "fish": return FishCompletion.script()
        default: return BashCompletion.script()
        }
    }
}
