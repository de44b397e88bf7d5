import CorsanoKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `corsano repl` on a terminal: readline prompt, history, TAB completion; each line runs as a
/// task that Control-C cancels (a flow ends `cancelledByUser`, the shell stays); Control-D quits.
/// While a flow runs, a `cuff>` prompt takes typed readings (manual entries) for it.
///
/// With standard output not a terminal (`corsano repl | tee log`) it carries only JSON lines —
/// flow events and the session commands' replies — while the prompt, the echo and all text go
/// to standard error.
struct InteractiveREPL {
    let session: REPLSession
    let ctx: CommandContext

    func run() async -> ExitStatus {
        let history = REPLHistory(environment: ctx.environment)
        history.load()
        let running = RunningCommand()
        let editor: LineEditor
        do {
            editor = try LineEditor(history: history, terminalFD: ctx.stdoutIsTerminal ? 1 : 2, onInterrupt: {
                running.cancel()
                SignalHandling.forwardInterrupt()
            })
        } catch {
            ctx.diagnose("repl: cannot start the line editor: \(error)")
            return .ioError
        }
        let terminated = Flag()
        REPLSignals.install([SIGTERM, SIGHUP]) { signo in
            // SIGTERM / SIGHUP (the terminal closed): the running flow ends cancelled (plan
            // restored), then the shell exits 143 / 129.
            terminated.set(signo)
            running.cancel()
            SignalHandling.forwardInterrupt(signo)
            editor.endInput()
        }
        editor.start()
        var lineCtx = ctx
        // Text is printed by the editor thread above the line being typed; JSON lines go
        // straight to a standard output that is no terminal.
        lineCtx.stderr = OutputWriter(fd: editor.outputWriteEnd, capacity: 0)
        lineCtx.stdout = ctx.stdoutIsTerminal ? lineCtx.stderr : ctx.stdout
        lineCtx.stdinIsTerminal = false  // commands never read the terminal: the editor does
        lineCtx.ask = { prompt in
            guard case .line(let line) = await editor.readLine(prompt: prompt, kind: .question) else { return nil }
            return line
        }
        if !ctx.quiet {
            lineCtx.writeText("corsano \(HelpRenderer.version): 'help' lists the commands; TAB completes, Control-C cancels, Control-D quits.")
        }
        while !session.quitRequested, !terminated.isSet {
            guard case .line(let line) = await editor.readLine(prompt: session.prompt, kind: .command) else { break }
            await runLine(line, editor: editor, running: running, ctx: lineCtx)
        }
        history.save()
        editor.stop()
        return terminated.signal.map(SignalHandling.status(for:)) ?? .success
    }

    private func runLine(_ line: String, editor: LineEditor, running: RunningCommand, ctx: CommandContext) async {
        let words: [String]
        do {
            words = try REPLLexer.words(line)
        } catch {
            ctx.diagnose("unclosed quote")
            return
        }
        guard !words.isEmpty else { return }
        editor.openFlowPrompts()
        // Control-D at the flow's cuff> prompt cancels it as Control-C does.
        let typed = TypedReadings(editor: editor, ctx: ctx, cancelFlow: {
            running.cancel()
            SignalHandling.forwardInterrupt()
        })
        let task = Task { [session] in
            try await session.run(words, ctx, feed: .queueThenTyped { pipe in typed.start(feeding: pipe) })
        }
        running.set(task)
        let result = await task.result
        running.clear()
        ctx.stdout.flush()
        LineEditor.reclaimSignals()
        editor.closeFlowPrompts()
        await typed.finish()
        switch result {
        case .success(let status) where status != .success:
            ctx.writeText("[exit status \(status.rawValue)]")
        case .failure(let error):
            let (message, status) = ErrorTranslator.translate(error, inREPL: true)
            ctx.diagnose(message ?? "cancelled")
            ctx.writeText("[exit status \(status.rawValue)]")
        default:
            break
        }
    }
}

/// The command task a Control-C cancels.
final class RunningCommand: @unchecked Sendable {
    private let lock = Mutex(())
    private var task: Task<ExitStatus, any Error>?

    func set(_ task: Task<ExitStatus, any Error>) { lock.locked { self.task = task } }
    func clear() { lock.locked { task = nil } }
    func cancel() { lock.locked { task }?.cancel() }
}

/// A flag set from another thread.
final class Flag: @unchecked Sendable {
    private let lock = Mutex(())
    private var value: Int32?
    var isSet: Bool { lock.locked { value != nil } }
    /// The signal that set the flag first.
    var signal: Int32? { lock.locked { value } }
    func set(_ signo: Int32) { lock.locked { value = value ?? signo } }
}
