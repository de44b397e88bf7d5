/// `--help` text, rendered from the command table.
enum HelpRenderer {
    static let version = "0.1.0"

    /// Help for one command: usage, summary, details, options.
    static func help(for spec: CommandSpec) -> String {
        var out = "usage: corsano \(spec.name)"
        if !spec.options.isEmpty { out += " [OPTIONS]" }
        if !spec.operands.isEmpty { out += " \(spec.operands)" }
        out += "\n\n\(spec.summary)\n"
        if !spec.details.isEmpty { out += "\n" + wrap(spec.details, width: 78, indent: "") + "\n" }
        if !spec.options.isEmpty {
            out += "\nOptions:\n"
            let width = min(30, (spec.options.map(\.usage.count).max() ?? 0) + 4)
            for option in spec.options {
                var help = option.help
                if let env = option.environment { help += " [env: \(env.rawValue)]" }
                let left = "  " + option.usage
                if left.count + 2 <= width {
                    out += left + String(repeating: " ", count: width - left.count) + help + "\n"
                } else {
                    out += left + "\n" + String(repeating: " ", count: width) + help + "\n"
                }
            }
        }
        return out
    }

    /// Top-level help: every command with its summary, and the global options.
    static func overview() -> String {
        var out = "usage: corsano COMMAND [OPTIONS]\n\n"
        out += "Calibrate Corsano CardioWatch 287-2 bracelets from scripts: NIBP initialization against\n"
        out += "a reference cuff, PPG wearing optimization, and cuff-dump filtering. JSON lines in and out.\n\n"
        out += "Commands:\n"
        let width = (CommandTable.commands.map(\.name.count).max() ?? 0) + 4
        for spec in CommandTable.commands {
            out += "  " + spec.name + String(repeating: " ", count: width - spec.name.count) + spec.summary + "\n"
        }
        out += "\nGlobal options:\n"
        let globalWidth = (CommandTable.global.map(\.usage.count).max() ?? 0) + 5
        for option in CommandTable.global {
            out += "  " + option.usage + String(repeating: " ", count: globalWidth - option.usage.count) + option.help + "\n"
        }
        out += "\nRun 'corsano help COMMAND' or 'corsano COMMAND --help' for a command's options.\n"
        return out
    }

    /// The subcommands of a group word (`cuff` → `cuff ingest`), nil when `word` is not one.
    /// `inREPL` lists the REPL's grammar (with `cuff add`) and words the hint as the REPL's `help`.
    static func group(_ word: String, inREPL: Bool = false) -> String? {
        let members = (inREPL ? REPLGrammar.commands : CommandTable.commands).filter { $0.words.count > 1 && $0.words[0] == word }
        guard !members.isEmpty else { return nil }
        let program = inREPL ? "" : "corsano "
        var out = "usage: \(program)\(word) SUBCOMMAND [OPTIONS]\n\nSubcommands:\n"
        let width = (members.map(\.name.count).max() ?? 0) + 4
        for spec in members {
            out += "  " + spec.name + String(repeating: " ", count: width - spec.name.count) + spec.summary + "\n"
        }
        out += inREPL ? "\nType 'help \(members[0].name)' for a subcommand's options.\n"
            : "\nRun 'corsano \(members[0].name) --help' for a subcommand's options.\n"
        return out
    }

    static func wrap(_ text: String, width: Int, indent: String) -> String {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count + word.count + 1 > width, line != indent {
                lines.append(line)
                line = indent
            }
            line += (line == indent ? "" : " ") + word
        }
        if line != indent { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
