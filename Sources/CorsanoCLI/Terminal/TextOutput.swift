/// Where rendered text goes: the process's `OutputWriter`, or a buffer in tests.
protocol TextOutput: Sendable {
    /// Appends `text`.
    func write(_ text: String)
    /// Makes everything written so far visible (a terminal or pipe sees each screen as it happens).
    func flush()
}

extension OutputWriter: TextOutput {}

/// Where a flow's prompts go (stdout with text output, stderr when stdout carries JSON lines)
/// and how they are laid out: wrapped to that terminal's width in the run's direction.
struct PromptOutput: Sendable {
    let writer: OutputWriter
    let layout: TextLayout

    /// Writes `prompt` laid out, flushed: the person answers after its last line.
    func ask(_ prompt: String) {
        guard !prompt.isEmpty else { return }
        writer.write(layout.prompt(prompt))
        writer.flush()
    }

    /// Writes `message`, text the person reads before the prompt comes again (a typed reading not
    /// understood), laid out by the one wrapper (`TextLayout.lines`), flushed.
    func say(_ message: String) {
        writer.write(layout.lines(message))
        writer.flush()
    }

    /// Writes `instruction` laid out as a prompt, then ends the line: the person acts, types nothing
    /// (`validate --live`'s step prompts).
    func tell(_ instruction: String) {
        guard !instruction.isEmpty else { return }
        writer.write(layout.prompt(instruction) + "\n")
        writer.flush()
    }
}
