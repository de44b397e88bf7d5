/// Human text a command writes outside the flows' screens — diagnostics, notes, the REPL's banner
/// and replies, help — laid out by the one wrapper (`TextLayout.wrap`) when it reaches a terminal
/// (build 2; docs/design.md "Data on the wire: JSON lines"), and written as it is
/// everywhere else: scripts read pipes and files.
extension CommandContext {
    /// The terminal `writer` reaches, whose width text for it is laid out to: the process's
    /// stdout (1) or stderr (2) when `writer` is this context's stdout or stderr and that is a
    /// terminal — in the interactive REPL both are the line editor's pipe, which prints on the
    /// terminal — else `writer`'s own descriptor (80 columns when it is no terminal); `COLUMNS`
    /// (or `--columns`) first.
    func terminal(for writer: OutputWriter) -> TerminalWidth {
        let fd: Int32 = writer === stdout && stdoutIsTerminal ? 1 : writer === stderr && stderrIsTerminal ? 2 : writer.fd
        return TerminalWidth(fd: fd, columns: self[.columns])
    }

    /// Whether `writer` reaches a terminal (then text is laid out for it).
    func isTerminal(_ writer: OutputWriter) -> Bool {
        writer === stdout && stdoutIsTerminal || writer === stderr && stderrIsTerminal
    }

    /// Writes `text` (lines separated by `\n`) on `writer`, by default stderr: at a terminal
    /// wrapped to its width by `TextLayout.wrap` — later lines of a paragraph start with
    /// `indent`, its first with `first` — and, when `rightToLeft` (by default: when the text
    /// starts with a right-to-left letter, a message translated to Arabic or Hebrew), each line
    /// marked right-to-left as the flows' text is; elsewhere exactly `text` and a newline.
    func writeText(_ text: String, on writer: OutputWriter? = nil, indent: String = "", first: String? = nil,
                   rightToLeft: Bool? = nil) {
        let writer = writer ?? stderr
        guard isTerminal(writer) else { return writer.line((first ?? indent) + text) }
        let layout = TextLayout(terminal: terminal(for: writer), color: false,
                                rightToLeft: rightToLeft ?? TextLayout.startsRightToLeft(text))
        writer.write(layout.lines(text, indent: indent, first: first))
    }
}
