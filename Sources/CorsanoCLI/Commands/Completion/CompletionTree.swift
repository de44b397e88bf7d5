/// The command table reshaped for completion: first words, the second words of two-word
/// commands (`cuff ingest`), and what each option's value and each command's operands complete
/// to. Every generator (bash, zsh, fish) and the REPL read this one shape.
struct CompletionTree {
    /// What a value completes to.
    enum Values: Equatable {
        /// Nothing to offer (times, numbers, free text, commands).
        case none
        /// One of these words.
        case words([String])
        /// A file path.
        case files
        /// Directory names.
        case directories
        /// A command name (the operand of `help`).
        case commands
        /// A bracelet or listen URI: these scheme starts, then after `sim:` a scenario file
        /// (`*.json`) and after `unix:` a socket path.
        case uri([String])
    }

    /// The URI schemes followed by a path, with the files each offers (nil: any file).
    static let pathSchemes: [(scheme: String, suffix: String?)] = [("sim:", ".json"), ("unix:", nil)]

    let commands: [CommandSpec]

    init(commands: [CommandSpec] = CommandTable.commands) { self.commands = commands }

    /// First words in table order, each once (`bp-init`, ..., `cuff`, `profile`, ...).
    var firstWords: [String] {
        var seen = Set<String>()
        return commands.compactMap { $0.words.first }.filter { seen.insert($0).inserted }
    }

    /// First words that start two-word commands, with their second words.
    var groups: [(word: String, subcommands: [String])] {
        firstWords.compactMap { first in
            let subs = commands.filter { $0.words.count == 2 && $0.words[0] == first }.map { $0.words[1] }
            return subs.isEmpty ? nil : (first, subs)
        }
    }

    /// The summary shown for a first word (a group shows its subcommands).
    func summary(ofFirstWord word: String) -> String {
        let specs = commands.filter { $0.words.first == word }
        if specs.count == 1, specs[0].words.count == 1 { return specs[0].summary }
        return specs.map(\.summary).joined(separator: " ")
    }

    /// The long flags of `spec`, with dashes.
    static func flags(of spec: CommandSpec) -> [String] { spec.options.map { "--" + $0.name } }

    /// What the value of `option` completes to. `--listen` takes only the socket schemes.
    static func values(of option: OptionSpec) -> Values {
        option.value == .uri && option.name == "listen" ? .uri(["unix:", "tcp:"]) : values(of: option.value)
    }

    /// The bracelet URI schemes (docs/design.md "The bracelet port"): `sim` alone, or a prefix to go on from.
    static let uriStarts = ["sim", "sim:", "unix:", "tcp:", "exec:"]

    /// What a value of `kind` completes to.
    static func values(of kind: ValueKind?) -> Values {
        switch kind {
        case .choice(let words)?: return .words(words)
        case .uri?: return .uri(uriStarts)
        case .seconds(allowsNone: true)?: return .words(["none"])
        case .path?: return .files
        case .directory?: return .directories
        default: return .none
        }
    }

    /// What the operands of `spec` complete to (`help` takes a command name).
    static func operands(of spec: CommandSpec) -> Values {
        spec.words == ["help"] ? .commands : values(of: spec.operandKind)
    }

    /// Flags accepted with no command (`corsano --version`).
    static let globalFlags = CommandTable.global.map { "--" + $0.name }
}
