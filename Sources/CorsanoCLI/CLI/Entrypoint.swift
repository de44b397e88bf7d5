import CorsanoKit
#if canImport(Glibc)
import Glibc
#endif

/// The program the `corsano` executable runs (its main.swift is only the call, as SwiftPM's
/// Entrypoint.swift over its command library; issue 23).
public enum CorsanoProgram {
    /// Entry point: parse, dispatch, translate errors, flush, exit. The only place that exits.
    public static func main() async -> Never {
        // First: hold the stop signals, so one sent in the first milliseconds is handled, never lost.
        ProcessSignals.blockStopSignals()
        signal(SIGPIPE, SIG_IGN)
        ProcessSignals.shared.start()
        let status = await runMain(Array(CommandLine.arguments.dropFirst()))
        let final = finalStatus(status)
        ProcessSignals.shared.settle()  // a stop signal nothing handled is not dropped
        exit(final.rawValue)
    }
}

func runMain(_ argv: [String]) async -> ExitStatus {
    let ctx = CommandContext.process()
    if argv.isEmpty {
        // Bare `corsano` on a terminal opens the REPL; otherwise help and a usage status.
        if ctx.stdinIsTerminal, ctx.stdoutIsTerminal, let parsed = try? ArgumentParser.parse(["repl"], environment: ctx.environment),
           let repl = parsed.spec.handler {
            return await dispatch(parsed, repl, ctx)
        }
        ctx.stderr.write(HelpRenderer.overview(layout: HelpRenderer.layout(for: ctx.stderr, ctx)))
        return .usage
    }
    // Global flags before the command (issue 23: global options anywhere): alone, in any mix,
    // --help wins over --version (as with most GNU tools' help); before a command, --help is
    // that command's help (`corsano --help bp-init`) and --version prints the version.
    // `-v`/`--verbose` before a command is that command's (`corsano -v bp-init`): it moves after
    // the command's words; alone it stays an option where a command belongs.
    let leading = argv.prefix { CommandTable.globalSpellings.contains($0) || CommandTable.isVerbose($0) }
    let verbose = leading.count < argv.count ? leading.filter(CommandTable.isVerbose) : []
    let argvWithoutVerbose = leading.count < argv.count ? leading.filter { !CommandTable.isVerbose($0) } + argv.dropFirst(leading.count) : argv
    let globals = argvWithoutVerbose.prefix { CommandTable.globalSpellings.contains($0) }
    var argv = Array(argvWithoutVerbose.dropFirst(globals.count))
    let wantsHelp = globals.contains(where: CommandTable.helpSpellings.contains)
    if argv == ["version"] || argv.isEmpty || (!wantsHelp && !globals.isEmpty) {
        if wantsHelp {
            ctx.stdout.write(HelpRenderer.overview(layout: HelpRenderer.layout(for: ctx.stdout, ctx)))
        } else {
            ctx.stdout.line("corsano \(HelpRenderer.version)")
        }
        return .success
    }
    // An option where the command belongs: call it an option, and show a command that takes it.
    if argv[0].hasPrefix("-"), argv[0] != "-" {
        let name = String(argv[0].dropFirst(2).prefix { $0 != "=" })
        let example = CommandTable.commands.first { argv[0].hasPrefix("--") && $0.option(named: name) != nil }?.name
        return report(UsageError.optionForCommand(argv[0], example: example), ctx)
    }
    if wantsHelp { argv.append("--help") }
    if !verbose.isEmpty, let (_, used) = CommandTable.lookup(argv) { argv.insert(contentsOf: verbose, at: used) }
    // A group word (`cuff`, `profile`, `bracelet`) alone lists its subcommands: on stderr with
    // 64 (a command is missing), or on stdout with 0 when --help asked for it.
    if let group = HelpRenderer.group(argv[0], layout: HelpRenderer.layout(for: argv.count == 1 ? ctx.stderr : ctx.stdout, ctx)), argv.count == 1 || (argv.count == 2 && CommandTable.helpSpellings.contains(argv[1])) {
        if argv.count == 1 {
            ctx.stderr.write(group)
            return .usage
        }
        ctx.stdout.write(group)
        return .success
    }
    // Any user can read a command line (ps, /proc/PID/cmdline): say so once, with the ways
    // libpq keeps a password off it.
    if argv.contains(where: PostgresURI.holdsPassword) { ctx.note(StateLocation.passwordWarning) }
    let parsed: ParsedCommand
    do {
        parsed = try ArgumentParser.parse(argv, environment: ctx.environment)
    } catch {
        return report(error, ctx)
    }
    if let answered = CommandRunner.answerGlobal(parsed, CommandRunner.context(for: parsed, ctx)) { return answered }
    guard let handler = parsed.spec.handler else {
        ctx.diagnose("\(parsed.spec.name): not available in this build")
        return .usage
    }
    return await dispatch(parsed, handler, ctx)
}

func dispatch(_ parsed: ParsedCommand, _ handler: CommandHandler, _ ctx: CommandContext) async -> ExitStatus {
    // A command that does not handle stop signals ends by one as it always would.
    if !parsed.spec.handlesStopSignals { ProcessSignals.shared.dieOnUnroutedSignals() }
    let ctx = CommandRunner.context(for: parsed, ctx)
    do {
        try InputCheck.check(parsed)  // 66, after the parser's 64 and before a store (74) or bracelet (69)
        return try await handler(parsed, ctx)
    } catch {
        return report(error, ctx, command: parsed.spec.name, localizer: LocalizedDiagnostics.localizer(for: parsed, ctx))
    }
}

func report(_ error: any Error, _ ctx: CommandContext, command: String? = nil, localizer: Localizer? = nil) -> ExitStatus {
    let (message, status) = ErrorTranslator.translate(error, command: command, localizer: localizer)
    if let message { ctx.diagnose(message) }
    return status
}

/// The status after every stream was flushed (docs/design.md "Exit status"): a pipe its reader closed
/// during a flow is 141, quietly; a failed write is 74 with `corsano: STREAM: error`, after 64 and
/// 66 and before a flow's result or 65.
func finalStatus(_ status: ExitStatus) -> ExitStatus {
    OutputWriter.stdout.flush()
    OutputWriter.stderr.flush()
    if status == .hangup { return status }  // the terminal is gone: its write errors do not count
    if OutputWriter.readerGone { return .brokenPipe }
    guard let failure = OutputWriter.firstFailure, status != .usage, status != .noInput else { return status }
    let reported = report(failure, .process())
    OutputWriter.stderr.flush()
    return reported
}
