#if canImport(Glibc)
import Glibc
#endif

/// Entry point: parse, dispatch, translate errors, flush, exit. The only place that exits.
signal(SIGPIPE, SIG_IGN)

func runMain(_ argv: [String]) async -> ExitStatus {
    let ctx = CommandContext.process()
    if argv.isEmpty {
        // Bare `corsano` on a terminal opens the REPL; otherwise help and a usage status.
        if ctx.stdinIsTerminal, ctx.stdoutIsTerminal, let repl = CommandRegistry.handlers["repl"],
           let (spec, _) = CommandTable.lookup(["repl"]) {
            return await dispatch(ParsedCommand(spec: spec), repl, ctx)
        }
        ctx.stderr.write(HelpRenderer.overview())
        return .usage
    }
    if argv == ["--version"] || argv == ["version"] {
        ctx.stdout.line("corsano \(HelpRenderer.version)")
        return .success
    }
    if argv == ["--help"] || argv == ["-h"] {
        ctx.stdout.write(HelpRenderer.overview())
        return .success
    }
    let parsed: ParsedCommand
    do {
        parsed = try ArgumentParser.parse(argv)
    } catch {
        return report(error, ctx)
    }
    if parsed.flag("help") {
        ctx.stdout.write(HelpRenderer.help(for: parsed.spec))
        return .success
    }
    guard let handler = CommandRegistry.handlers[parsed.spec.name] else {
        ctx.diagnose("\(parsed.spec.name): not available in this build")
        return .usage
    }
    return await dispatch(parsed, handler, ctx)
}

func dispatch(_ parsed: ParsedCommand, _ handler: CommandHandler, _ ctx: CommandContext) async -> ExitStatus {
    do {
        return try await handler(parsed, ctx)
    } catch {
        if let l = LocalizedDiagnostics.localizer(for: parsed, ctx), let text = LocalizedDiagnostics.message(for: error, l) {
            ctx.diagnose(text)
            return ErrorTranslator.translate(error).status
        }
        return report(error, ctx)
    }
}

func report(_ error: any Error, _ ctx: CommandContext) -> ExitStatus {
    let (message, status) = ErrorTranslator.translate(error)
    if let message { ctx.diagnose(message) }
    return status
}

let status = await runMain(Array(CommandLine.arguments.dropFirst()))
OutputWriter.stdout.flush()
OutputWriter.stderr.flush()
exit(status.rawValue)
