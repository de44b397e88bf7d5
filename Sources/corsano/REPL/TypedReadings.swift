import CorsanoKit

/// While a flow runs in the interactive REPL: a `cuff>` prompt whose lines (`120/80 72`, the
/// same words as `cuff add`) go to the flow as manual entries. Control-D ends the cuff input
/// (the flow then has no reading); Control-C cancels the flow.
final class TypedReadings: @unchecked Sendable {
    private let editor: LineEditor
    private let ctx: CommandContext
    private let lock = NSLockLite()
    private var task: Task<Void, Never>?

    init(editor: LineEditor, ctx: CommandContext) {
        self.editor = editor
        self.ctx = ctx
    }

    /// Starts the prompt loop feeding `pipe` (called by the session when a flow starts).
    func start(feeding pipe: CuffPipe) {
        let t = Task { [editor, ctx] in
            while true {
                switch await editor.readLine(prompt: "cuff> ", interruptEnds: true) {
                case .interrupted:
                    return
                case .endOfInput:
                    pipe.endInput()
                    return
                case .line(let line):
                    do {
                        let reading = try CuffQueue.reading(try REPLLexer.words(line))
                        pipe.send(reading)
                    } catch let error as UsageError {
                        ctx.diagnose(error.message)
                    } catch {
                        ctx.diagnose("unclosed quote")
                    }
                }
            }
        }
        lock.locked { task = t }
    }

    /// Waits for the prompt loop to end (after `LineEditor.closeFlowPrompts`).
    func finish() async {
        await lock.locked { task }?.value
    }
}
