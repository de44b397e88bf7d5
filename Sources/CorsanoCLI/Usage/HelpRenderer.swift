/// `--help` text, rendered from the command table and laid out for the terminal it goes to.
enum HelpRenderer {
    static let version = "0.1.0"

    /// The layout of help written to `writer`: `COLUMNS`, else the width of the terminal it
    /// reaches (`CommandContext.terminal(for:)`: in the REPL, the one the line editor prints on),
    /// else 80 columns (a pipe), as `TextLayout` lays out the flows' text.
    static func layout(for writer: OutputWriter, _ ctx: CommandContext) -> TextLayout {
        TextLayout(terminal: ctx.terminal(for: writer), color: false, rightToLeft: false)
    }

    /// The layout when there is no terminal to ask (80 columns).
    static let plain = TextLayout(terminal: TerminalWidth(columns: TerminalWidth.fallback), color: false, rightToLeft: false)

    /// Help for one command: usage, summary, details, options.
    static func help(for spec: CommandSpec, layout: TextLayout = plain) -> String {
        var usage = "corsano \(spec.name)"
        if !spec.options.isEmpty { usage += " [OPTIONS]" }
        if !spec.operands.isEmpty { usage += " \(spec.operands)" }
        var out = paragraph(usage, hang: "usage: ", layout) + "\n"
        out += paragraph(spec.summary, layout)
        if !spec.details.isEmpty { out += "\n" + paragraph(spec.details, layout) }
        if !spec.options.isEmpty {
            out += "\nOptions:\n"
            out += table(spec.options.map { option in
                var help = option.help
                if let env = option.environment { help += " [env: \(env.rawValue)]" }
                return (option.helpUsage, help)
            }, column: min(30, (spec.options.map(\.helpUsage.count).max() ?? 0) + 4), layout)
        }
        if !spec.exits.isEmpty {
            out += "\nExit status:\n" + table(spec.exitRows.map { (String($0.status.rawValue), $0.text) }, column: 8, layout)
        }
        return out
    }

    /// Top-level help: every command with its summary, and the global options.
    static func overview(layout: TextLayout = plain) -> String {
        var out = "usage: corsano COMMAND [OPTIONS]\n\n"
        out += paragraph("Calibrate Corsano CardioWatch 287-2 bracelets from scripts: NIBP initialization against "
                         + "a reference cuff, PPG wearing optimization, and cuff-dump filtering. JSON lines in and out.", layout)
        out += "\nCommands:\n"
        out += table(CommandTable.commands.map { ($0.name, $0.summary) },
                     column: (CommandTable.commands.map(\.name.count).max() ?? 0) + 6, layout)
        out += "\nGlobal options:\n"
        out += table(CommandTable.global.map { ($0.helpUsage, $0.help) },
                     column: (CommandTable.global.map(\.helpUsage.count).max() ?? 0) + 4, layout)
        out += "\n" + paragraph("Run 'corsano help COMMAND' or 'corsano COMMAND --help' for a command's options.", layout)
        return out
    }

    /// The subcommands of a group word (`cuff` → `cuff ingest`), nil when `word` is not one.
    /// `inREPL` lists the REPL's grammar (with `cuff add`) and words the hint as the REPL's `help`.
    static func group(_ word: String, inREPL: Bool = false, layout: TextLayout = plain) -> String? {
        let members = (inREPL ? REPLGrammar.commands : CommandTable.commands).filter { $0.words.count > 1 && $0.words[0] == word }
        guard !members.isEmpty else { return nil }
        let program = inREPL ? "" : "corsano "
        var out = paragraph("\(program)\(word) SUBCOMMAND [OPTIONS]", hang: "usage: ", layout) + "\nSubcommands:\n"
        out += table(members.map { ($0.name, $0.summary) }, column: (members.map(\.name.count).max() ?? 0) + 6, layout)
        out += "\n" + paragraph(inREPL ? "Type 'help \(members[0].name)' for a subcommand's options."
                                : "Run 'corsano \(members[0].name) --help' for a subcommand's options.", layout)
        return out
    }

    /// `text` wrapped to the layout's width, later lines indented under the text after `hang`.
    static func paragraph(_ text: String, hang: String = "", _ layout: TextLayout) -> String {
        layout.lines(text, indent: String(repeating: " ", count: TextLayout.columns(hang)), first: hang)
    }

    /// The narrowest description column beside the names; narrower, descriptions go below them.
    static let narrowestDescription = 24
    /// How far descriptions below their names are indented.
    static let stackedIndent = 8

    /// Rows of a name (`--flag VALUE`, a command) and its description: the description starts at
    /// `column` and wraps there, on the name's line when the name leaves two spaces, else on the
    /// next. When the terminal leaves the description too little room beside the names, every
    /// description goes below its name, indented (as man pages do), rather than a word a line.
    static func table(_ rows: [(name: String, description: String)], column: Int, _ layout: TextLayout) -> String {
        let width = layout.width
        let stacked = width - column < narrowestDescription
        let column = stacked ? stackedIndent : column
        let indent = String(repeating: " ", count: column)
        var out = ""
        for (name, description) in rows {
            let left = "  " + name
            let beside = !stacked && TextLayout.columns(left) + 2 <= column
            if !beside { out += left + "\n" }
            out += layout.lines(description, indent: indent, first: beside ? left + String(indent.dropFirst(left.count)) : indent)
        }
        return out
    }
}

extension CommandContext {
    /// Writes `spec`'s help on this context's stdout, laid out for where that goes.
    func writeHelp(_ spec: CommandSpec) {
        stdout.write(HelpRenderer.help(for: spec, layout: HelpRenderer.layout(for: stdout, self)))
    }
}
