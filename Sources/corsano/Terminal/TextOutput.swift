/// Where rendered text goes: the process's `OutputWriter`, or a buffer in tests.
protocol TextOutput: Sendable {
    /// Appends `text`.
    func write(_ text: String)
    /// Makes everything written so far visible (a terminal or pipe sees each screen as it happens).
    func flush()
}

extension OutputWriter: TextOutput {}
