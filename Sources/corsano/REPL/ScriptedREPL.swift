/// `corsano repl` with standard input not a terminal: commands line by line, without readline
/// (it echoes when piped), prompts or history. A failing line is reported as `LINE: message`;
/// `--bail` stops there with that line's status, otherwise the run exits 1 if any line failed.
struct ScriptedREPL {
    let session: REPLSession
    let bail: Bool
    let ctx: CommandContext

    func run() async -> ExitStatus {
        var lineNumber = 0
        var failed = false
        while !session.quitRequested {
            ctx.stdout.flush()
            guard let line = readLine(strippingNewline: true) else { break }
            lineNumber += 1
            let status = await runLine(line, number: lineNumber)
            guard status != .success else { continue }
            failed = true
            if bail { return status }
        }
        return failed ? .failedAfterRetries : .success
    }

    /// Runs one line; reports a failure on stderr as `LINE: message`.
    private func runLine(_ line: String, number: Int) async -> ExitStatus {
        let words: [String]
        do {
            words = try REPLLexer.words(line)
        } catch {
            report(number, "unclosed \(error == .unclosedQuote("'") ? "single" : "double") quote")
            return .usage
        }
        guard let first = words.first, !first.hasPrefix("#") else { return .success }
        do {
            let status = try await session.run(words, lineContext, feed: .queueOnly)
            if status != .success { report(number, "\(first) exited with status \(status.rawValue)") }
            return status
        } catch {
            let (message, status) = ErrorTranslator.translate(error)
            report(number, message ?? "\(first) was cancelled")
            return status
        }
    }

    /// Commands see a non-terminal standard input: they never prompt.
    private var lineContext: CommandContext {
        var c = ctx
        c.stdinIsTerminal = false
        return c
    }

    private func report(_ number: Int, _ message: String) {
        ctx.stdout.flush()
        ctx.stderr.line("\(number): \(message)")
    }
}
