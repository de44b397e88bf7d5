import CorsanoKit
import Synchronization

/// While a flow runs in the interactive REPL: a `cuff>` prompt whose lines (`120/80 72`, the
/// same words as `cuff add`) go to the flow as manual entries, each with `enteredAt` (the wall
/// clock when typed). Control-D, like Control-C, cancels the flow (130): at a terminal the end of
/// input is the person leaving, at every prompt of a flow.
final class TypedReadings: @unchecked Sendable {
    private let editor: LineEditor
    private let ctx: CommandContext
    /// Cancels the running flow (what Control-C does).
    private let cancelFlow: @Sendable () -> Void
    private let lock = Mutex(())
    private var task: Task<Void, Never>?

    /// The prompt: what it takes, by an example of the one grammar (`ManualCuffEntry`), not a bare name.
    static let prompt = "cuff (120/80 72)> "

    init(editor: LineEditor, ctx: CommandContext, cancelFlow: @escaping @Sendable () -> Void) {
        self.editor = editor
        self.ctx = ctx
        self.cancelFlow = cancelFlow
    }

    /// Starts the prompt loop feeding `pipe` (called by the session when a flow starts).
    func start(feeding pipe: CuffPipe) {
        let t = Task { [editor, ctx, cancelFlow] in
            while true {
                switch await editor.readLine(prompt: Self.prompt, kind: .reading) {
                case .interrupted:
                    return
                case .endOfInput:
                    // As Control-C: the cuff input stays open (its end would be `noReading`, 3).
                    cancelFlow()
                    return
                case .line(let line):
                    do {
                        guard let reading = try Self.reading(try REPLLexer.words(line)) else { continue }
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

    /// The reading on a `cuff>` line: `120/80 72`, or the same words after `cuff add` (what
    /// `help` and the error messages show); nil for a blank line or a comment.
    /// - Throws: `UsageError` naming what is wrong, or saying that a command waits for the flow.
    static func reading(_ words: [String]) throws -> CuffReading? {
        guard let first = words.first else { return nil }
        if words.starts(with: ["cuff", "add"]) { return try CuffQueue.reading(Array(words.dropFirst(2)), enteredAt: CommandContext.wallClock()) }
        if first.first?.isLetter == true, CommandTable.lookup(words, in: REPLGrammar.commands) != nil {
            throw UsageError.conflict("'\(first)' cannot run while the flow runs: type a reading like 120/80 72 "
                                      + "(Control-D ends the cuff input, Control-C cancels the flow)")
        }
        return try CuffQueue.reading(words, enteredAt: CommandContext.wallClock())
    }

    /// Waits for the prompt loop to end (after `LineEditor.closeFlowPrompts`).
    func finish() async {
        await lock.locked { task }?.value
    }
}
