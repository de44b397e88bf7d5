import CorsanoKit

/// What runs a parsed command line, for the shell (`main`) and the REPL alike (issue 23): the
/// parser has read every option and checked every rule of the table (64); the runner applies the
/// common options (`CommandTable.common`) to the context, answers `--help` and `--version`, and
/// hands the command its typed options.
enum CommandRunner {
    /// `ctx` with the common options of `parsed` applied: `--quiet` silences notes, `--columns N`
    /// stands for `COLUMNS` (every layout reads the width there).
    static func context(for parsed: ParsedCommand, _ ctx: CommandContext) -> CommandContext {
        var ctx = ctx
        ctx.quiet = ctx.quiet || parsed.flag(.quiet)
        // (its range was checked by the parser's validate phase)
        if let columns = try? parsed.integer(.columns) { ctx.environment[EnvironmentVariable.columns.rawValue] = String(columns) }
        return ctx
    }

    /// `--help` or `--version` answered on `ctx.stdout` (0); nil when the command is to run.
    static func answerGlobal(_ parsed: ParsedCommand, _ ctx: CommandContext) -> ExitStatus? {
        if parsed.flag(.help) {
            ctx.writeHelp(parsed.spec)
            return .success
        }
        if parsed.flag(.version) {
            ctx.stdout.line("corsano \(HelpRenderer.version)")
            return .success
        }
        return nil
    }
}
