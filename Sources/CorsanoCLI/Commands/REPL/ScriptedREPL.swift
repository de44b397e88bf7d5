import CorsanoKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `corsano repl` with standard input not a terminal: commands line by line, without readline
/// (it echoes when piped), prompts or history. A failing line is reported as `LINE: message`;
/// `--bail` stops there with that line's status, otherwise the run exits 1 if any line failed.
struct ScriptedREPL {
    let session: REPLSession
    let bail: Bool
    let ctx: CommandContext

    func run() async -> ExitStatus {
        let stop = ScriptStop()
        REPLSignals.install(ProcessSignals.stopSignals) { signo in stop.signalled(signo) }
        session.stopRequested = { stop.status != nil }
        var failed = false
        let lines = LineReader(source: FileDescriptorSource(fd: 0))
        while !session.quitRequested {
            if let status = stop.status { return status }
            ctx.stdout.flush()
            // A failed read of standard input ends the script like its end.
            guard let item = try? lines.next() else { break }
            let line: String, lineNumber: Int
            switch item {
            case .line(let number, let bytes):
                (lineNumber, line) = (number, String(decoding: bytes, as: UTF8.self))
            case .tooLong(let number, let count):
                ctx.stdout.flush()
                ctx.writeText("\(number): line of \(count) bytes exceeds the \(lines.maxLineLength)-byte limit")
                failed = true
                if bail { return .usage }
                continue
            }
            stop.running = true
            let status = await runLine(line, number: lineNumber)
            stop.running = false
            if let stopped = stop.status { return stopped }
            // A reader gone or a failed write: nothing later could be seen (main says 141 or 74).
            if ctx.stdout.hasFailed { return status }
            guard status != .success else { continue }
            failed = true
            if bail { return status }
        }
        // The input may end because of the stop signal itself (`kill -TERM` to a pipeline's
        // group also ends the program writing to us): every signal taken so far decides first.
        ProcessSignals.shared.settle()
        if let status = stop.status { return status }
        return failed ? .failedAfterRetries : .success
    }

    /// Runs one line; reports a failure on stderr as `LINE: message`.
    private func runLine(_ line: String, number: Int) async -> ExitStatus {
        await REPLScriptLine(session: session, ctx: ctx).run(line, at: "\(number)")
    }
}

/// One line of a REPL script (standard input, or a file `source` reads) run without a person:
/// commands never prompt, a flow takes only the queued readings, and a failure is reported on
/// standard error as `WHERE: message` (`WHERE` is `LINE` or `FILE:LINE`).
struct REPLScriptLine {
    let session: REPLSession
    let ctx: CommandContext

    /// Runs `line`; returns its exit status (0 for a blank line or a comment).
    func run(_ line: String, at location: String) async -> ExitStatus {
        let words: [String]
        do {
            words = try REPLLexer.words(line)
        } catch {
            report(location, "unclosed \(error == .unclosedQuote("'") ? "single" : "double") quote")
            return .usage
        }
        guard let first = words.first else { return .success }
        do {
            let status = try await session.run(words, lineContext, feed: .queueOnly)
            // 141: stdout's reader went during a flow (cancelled, plan restored): quiet, as outside.
            // A sourced file reported its own lines already.
            if status != .success, status != .brokenPipe, first != "source" {
                report(location, "\(first) exited with status \(status.rawValue)")
            }
            return status
        } catch {
            let (message, status) = ErrorTranslator.translate(error, inREPL: true)
            report(location, message ?? "\(first) was cancelled")
            return status
        }
    }

    /// Commands see a non-terminal standard input and nobody to ask: they never prompt.
    private var lineContext: CommandContext {
        var c = ctx
        c.stdinIsTerminal = false
        c.ask = nil
        return c
    }

    private func report(_ location: String, _ message: String) {
        ctx.stdout.flush()
        ctx.writeText(TerminalText.escaped("\(location): \(message)", keepingNewlines: true))
    }
}

/// A signal during a scripted session: it cancels the running command (a flow ends
/// cancelledByUser with the plan restored) and the session stops after it with 130 (SIGINT) or
/// 143 (SIGTERM); between commands, or at a second signal, the session exits at once.
final class ScriptStop: @unchecked Sendable {
    private let lock = Mutex(())
    private var caught: ExitStatus?
    private var busy = false

    var status: ExitStatus? { lock.locked { caught } }
    var running: Bool {
        get { lock.locked { busy } }
        set { lock.locked { busy = newValue } }
    }

    func signalled(_ signo: Int32) {
        let exitNow = lock.locked { () -> Bool in
            defer { caught = caught ?? SignalHandling.status(for: signo) }
            return caught != nil || !busy
        }
        guard exitNow else {
            SignalHandling.forwardInterrupt(signo)
            return
        }
        OutputWriter.stdout.flush()
        _exit(SignalHandling.status(for: signo).rawValue)
    }
}
