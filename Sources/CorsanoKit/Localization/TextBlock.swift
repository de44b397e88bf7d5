/// One piece of a flow screen in human text, before layout (wrapping, colour, direction).
///
/// The core decides *what* to say (`FlowNarrator`); the terminal renderer decides how it looks.
public enum TextBlock: Equatable, Sendable {
    /// A screen heading (a step of the flow).
    case title(String)
    /// A paragraph, wrapped to the terminal width.
    case text(String, tone: TextTone)
    /// A checklist or a sequence of steps.
    case list([String], numbered: Bool)
    /// Wearing-optimization progress: 0-100 percent and its detail line.
    case progress(percent: Int, detail: String)
}

/// How a paragraph should stand out; colour is only ever a hint (NO_COLOR, pipes).
public enum TextTone: Equatable, Sendable {
    case plain
    case success
    case failure
    /// Asides: dropped readings, restored plans, profile pushes.
    case note
    /// An instruction the user must act on ("Press START on the BP cuff monitor").
    case action
}
