import CorsanoKit

/// The person at the terminal (stdin is a terminal): Enter starts the first session, the retry
/// question takes y/n in the run's language, and the "Pair a cuff" hook waits for Enter.
/// End of input (Ctrl-D) at any prompt declines: `cancelledByUser` (130). Source: seed "Flow reference" 2 and 5.
struct TerminalInteraction: BPInitInteraction {
    let lines: TerminalLines
    let localizer: Localizer
    /// Where prompts go: stdout with text output, stderr when stdout carries JSON lines.
    let prompts: PromptOutput

    func confirmStart() async throws -> Bool {
        try await lines.read(prompt: localizer[.promptStart] + " ", to: prompts) != .end
    }

    func confirmRetry(nextAttempt: Int, maxAttempts: Int) async throws -> Bool {
        try await Self.askRetry(localizer) { prompt in
            guard case .line(let text) = try await lines.read(prompt: prompt, to: prompts) else { return nil }
            return text
        }
    }

    /// The y/n retry question, asked through `ask` until answered: yes in the run's language (or
    /// English) retries, no declines; an empty line asks again, and so does any other answer
    /// ("Please answer y or n." first: a typo must not cancel a calibration, issue 26); nil (end
    /// of input, Ctrl-D) declines.
    static func askRetry(_ localizer: Localizer, _ ask: (String) async throws -> String?) async rethrows -> Bool {
        var question = localizer[.retryQuestion]
        while true {
            guard let text = try await ask(question) else { return false }
            let answer = text.trimmingSpaces.lowercased()
            if localizer.isYes(answer) { return true }
            if localizer.isNo(answer) { return false }
            question = answer.isEmpty ? localizer[.retryQuestion] : localizer[.answerYesOrNo] + "\n" + localizer[.retryQuestion]
        }
    }
}

/// Readings typed at the terminal, `120/80 72`: manual entries with `enteredAt`, the wall-clock
/// instant they were typed, and no `measuredAt` (docs/design.md "Host-side cuff rules": exempt from the time rules and deduplication). A typo is named and asked again;
/// the `--cuff-timeout` limit is `noReading`; end of input (Ctrl-D) is `cancelledByUser`.
struct TypedCuffSource: CuffSource {
    let lines: TerminalLines
    let localizer: Localizer
    let prompts: PromptOutput
    let timeout: Duration?
    /// True when the text narrator already said "Press START on the BP cuff monitor".
    let narrated: Bool

    func next(for request: CuffRequest) async throws -> CuffItem {
        var prompt = (narrated ? "" : localizer[.bpPressStart] + "\n") + localizer[.promptTypedReading]
        while true {
            switch try await lines.read(prompt: prompt, to: prompts, timeout: timeout) {
            case .end:
                // Ctrl-D at a terminal is the person leaving: cancelled (130), as at every other
                // prompt of the flow. (A non-terminal stdin never reaches this source: `noReading`.)
                prompts.writer.write("\n")
                throw CancellationError()
            case .timedOut:
                prompts.writer.write("\n")
                return .failed(.noReading)
            case .line(let text) where text.trimmingSpaces.isEmpty:
                prompt = localizer[.promptTypedReading]
            case .line(let text):
                do {
                    // Stamped with the wall clock: the instant a person typed it, whatever the run's clock.
                    return .reading(try ManualCuffEntry.parse(text, enteredAt: CommandContext.wallClock()))
                } catch {
                    prompts.say("corsano: " + localizer.describe(typedReading: error))
                    prompt = localizer[.promptTypedReading]
                }
            }
        }
    }
}

/// `--cuff-paired-cmd` (exit 0 = a cuff is paired) and the "Pair a cuff" hook: `--pair-cmd`,
/// else Enter at a terminal, else nothing.
struct CommandCuffPairing: CuffPairing {
    let pairedCommand: String?
    let pairCommand: String?
    /// Prompts for Enter when there is no `--pair-cmd` and stdin is a terminal.
    let terminal: TerminalInteraction?
    let timeout: Duration?
    let ctx: CommandContext

    func isPaired() async -> Bool {
        guard let pairedCommand else { return true }
        guard case .exited(0, _)? = try? await ShellCommand.run(pairedCommand, timeout: timeout) else { return false }
        return true
    }

    func requestPairing() async throws {
        if let pairCommand {
            // Whether it worked is judged by asking isPaired() again, as the seed's flow does.
            if case .exited(let status, _) = try await ShellCommand.run(pairCommand, timeout: timeout), status != 0 {
                ctx.diagnose("--pair-cmd exited with status \(status)")
            }
        } else if let terminal {
            // Ctrl-D at the pairing prompt is cancelled, as at every prompt of the flow.
            if try await terminal.lines.read(prompt: terminal.localizer[.bpPairingPrompt] + " ", to: terminal.prompts) == .end {
                throw CancellationError()
            }
        }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and CR.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
