import CorsanoKit

/// `source FILE`: runs a file of REPL lines, as psql's `\i` and sqlite3's `.read` do.
extension REPLSession {
    /// How deep `source` may nest (a file that sources itself stops here).
    static let sourceDepthLimit = 8

    /// Runs every line of FILE as a scripted session runs its input: without prompts, a flow
    /// takes the readings queued before it, a failing line is reported as `FILE:LINE: message`
    /// and the next runs (`corsano repl --bail`: the file stops at its first failing line, with
    /// its status). Returns 0, or 1 when any line failed. Control-C (or a signal in a scripted
    /// session) stops the file after the running line.
    /// - Throws: `UsageError` (no FILE, too deep), `InputError.cannotOpen` (66), `CancellationError`.
    func sourceCommand(_ operands: [String], _ ctx: CommandContext) async throws -> ExitStatus {
        let spec = REPLGrammar.session("source")
        let parsed = try ArgumentParser.parse(operands, as: spec, environment: ctx.environment)
        if parsed.flag("help") { ctx.forText.stdout.write(HelpRenderer.help(for: spec)); return .success }
        guard parsed.operands.count == 1, let path = parsed.operands.first, path != "-" else {
            throw UsageError.missing("source: name one FILE of REPL lines, e.g. source calibrate.repl")
        }
        guard sourceDepth < Self.sourceDepthLimit else {
            throw UsageError.conflict("source: files nested more than \(Self.sourceDepthLimit) deep (does \(path) source itself?)")
        }
        let text = String(decoding: try ProfileInput.read(path), as: UTF8.self)
        sourceDepth += 1
        defer { sourceDepth -= 1 }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var failed = 0
        var stoppedWith: ExitStatus?
        for (i, line) in lines.enumerated() where !quitRequested {
            if Task.isCancelled || stopRequested() { throw CancellationError() }
            let status = await REPLScriptLine(session: self, ctx: ctx).run(line, at: "\(path):\(i + 1)")
            if ctx.stdout.hasFailed { return status }
            guard status != .success else { continue }
            failed += 1
            if bail { stoppedWith = status; break }
        }
        REPLReply(reply: "source", fields: [("file", .string(path)), ("lines", .int(lines.count)), ("failed", .int(failed))],
                  text: failed == 0 ? [] : ["source \(path): \(failed) of \(lines.count) lines failed"]).write(ctx)
        return stoppedWith ?? (failed > 0 ? .failedAfterRetries : .success)
    }
}
