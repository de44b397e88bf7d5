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
        guard let parsed = try sessionArguments("source", operands, ctx) else { return .success }
        guard parsed.operands.count == 1, let path = parsed.operands.first, path != "-" else {
            throw UsageError.missing("source: name one FILE of REPL lines, e.g. source calibrate.repl")
        }
        guard sourceDepth < Self.sourceDepthLimit else {
            throw UsageError.conflict("source: files nested more than \(Self.sourceDepthLimit) deep (does \(path) source itself?)")
        }
        let lines = try Self.lines(of: path)
        sourceDepth += 1
        defer { sourceDepth -= 1 }
        var failed = 0
        var stoppedWith: ExitStatus?
        for (i, line) in lines.enumerated() where !quitRequested {
            if Task.isCancelled || stopRequested() { throw CancellationError() }
            let status: ExitStatus
            switch line {
            case .success(let text):
                status = await REPLScriptLine(session: self, ctx: ctx).run(text, at: "\(path):\(i + 1)")
            case .failure(let tooLong):
                ctx.stdout.flush()
                ctx.writeText("\(path):\(i + 1): \(tooLong.message)")
                status = .usage
            }
            if ctx.stdout.hasFailed { return status }
            guard status != .success else { continue }
            failed += 1
            if bail { stoppedWith = status; break }
        }
        REPLReply(reply: "source", fields: [("file", .string(path)), ("lines", .int(lines.count)), ("failed", .int(failed))],
                  text: failed == 0 ? [] : ["source \(path): \(failed) of \(lines.count) lines failed"]).write(ctx)
        return stoppedWith ?? (failed > 0 ? .failedAfterRetries : .success)
    }

    /// A line over the splitter's bound.
    struct LineTooLong: Error {
        let message: String
    }

    /// The lines of `path`, through the one line splitter (CRLF, a last line without a newline;
    /// an over-long line stays in its place as a failure).
    /// - Throws: `InputError.cannotOpen` (66).
    static func lines(of path: String) throws -> [Result<String, LineTooLong>] {
        let file = try InputFile.open(path)
        defer { file.close() }
        let reader = LineReader(source: FileDescriptorSource(fd: file.fd))
        var lines: [Result<String, LineTooLong>] = []
        do {
            while let item = try reader.next() {
                switch item {
                case .line(_, let bytes): lines.append(.success(String(decoding: bytes, as: UTF8.self)))
                case .tooLong(_, let count):
                    lines.append(.failure(LineTooLong(message: "line of \(count) bytes exceeds the \(reader.maxLineLength)-byte limit")))
                }
            }
        } catch ByteSourceError.readFailed(let code) {
            throw InputError.cannotOpen(path: path, reason: ByteSourceError.readFailed(errno: code).description)
        }
        return lines
    }
}
