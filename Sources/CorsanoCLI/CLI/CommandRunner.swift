import CorsanoKit

/// What runs a parsed command line, for the shell (`main`) and the REPL alike: the
/// parser has read every option and checked every rule of the table (64); the runner applies the
/// common options (`CommandTable.common`) to the context, answers `--help` and `--version`, and
/// hands the command its typed options.
enum CommandRunner {
    /// `ctx` with the common options of `parsed` applied: `--quiet` silences notes, `--columns N`
    /// stands for `COLUMNS` (every layout reads the width there).
    static func context(for parsed: ParsedCommand, _ ctx: CommandContext) -> CommandContext {
        var ctx = ctx
        ctx.quiet = ctx.quiet || parsed.flag(.quiet)
        // (its value was checked by the common rule)
        if let level = try? verbosity(parsed) { ctx.verbosity = level }
        // (its range was checked by the parser's validate phase)
        if let columns = try? parsed.integer(.columns) { ctx.environment[EnvironmentVariable.columns.rawValue] = String(columns) }
        // (checked by the state group's rule; only commands that open a store take it)
        if parsed.spec.option(.storeWait) != nil, let wait = try? parsed.seconds(.storeWait), let seconds = wait {
            ctx.storeBounds.storeWaitSeconds = Double(seconds)
        }
        return ctx
    }

    /// The diagnostics level `parsed` asks for: `-v` once `.info`, twice or more (`-vv`, `-v -v`)
    /// `.debug`; else `.notice` with `--quiet`; else `CORSANO_VERBOSE` (0, 1, 2); nil when none
    /// says (the REPL's own level stays). - Throws: `UsageError.badEnvironment` for another value.
    static func verbosity(_ parsed: ParsedCommand) throws -> DiagnosticLevel? {
        let count = parsed.count(.verbose)
        if count > 0 { return count == 1 ? .info : .debug }
        if parsed.flag(.quiet) { return .notice }
        guard let raw = parsed.string(.verbose) else { return nil }
        guard let n = Int(raw), let level = DiagnosticLevel(rawValue: n) else {
            throw UsageError.badEnvironment(variable: EnvironmentVariable.verbose.rawValue, value: raw, expected: "0, 1 or 2")
        }
        return level
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
