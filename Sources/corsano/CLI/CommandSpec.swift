/// What kind of value an option or operand takes; drives parsing, `--help`, and completion.
enum ValueKind: Equatable, Sendable {
    /// An RFC 3339 time (or a naive `YYYY-MM-DDTHH:MM:SS` where the option says so).
    case time
    /// A whole number of seconds, or `none` when `allowsNone`.
    case seconds(allowsNone: Bool)
    /// An integer in a range.
    case integer(ClosedRange<Int>)
    /// A file path (`-` = stdin/stdout where the option says so).
    case path
    /// One of a fixed set of words.
    case choice([String])
    /// A bracelet or listen URI (`sim`, `sim:FILE`, `unix:PATH`, `tcp:HOST:PORT`, `exec:CMD`).
    case uri
    /// A shell command, run with `sh -c`.
    case command
    /// Free text (a name, a zone).
    case text

    /// The placeholder shown in help (`TIME`, `SECONDS`, ...).
    var placeholder: String {
        switch self {
        case .time: return "TIME"
        case .seconds(let none): return none ? "SECONDS|none" : "SECONDS"
        case .integer: return "N"
        case .path: return "FILE"
        case .choice(let words): return words.joined(separator: "|")
        case .uri: return "URI"
        case .command: return "CMD"
        case .text: return "TEXT"
        }
    }
}

/// One option of a command: `--name [VALUE]`.
struct OptionSpec: Sendable {
    /// Long name without dashes, e.g. `max-attempts`.
    var name: String
    /// nil for a flag that takes no value.
    var value: ValueKind?
    /// Placeholder override for help (e.g. `MMHG`); defaults to the kind's.
    var placeholder: String?
    /// One line of help.
    var help: String
    /// Environment variable that supplies a default, if any.
    var environment: String?
    /// True when the option may be given more than once.
    var repeatable: Bool = false

    init(_ name: String, _ value: ValueKind? = nil, placeholder: String? = nil, environment: String? = nil,
         repeatable: Bool = false, _ help: String) {
        self.name = name
        self.value = value
        self.placeholder = placeholder
        self.help = help
        self.environment = environment
        self.repeatable = repeatable
    }

    /// A flag that takes no value.
    init(_ name: String, _ help: String) {
        self.init(name, nil, placeholder: nil, environment: nil, repeatable: false, help)
    }

    /// `--name VALUE` as shown in help and man pages.
    var usage: String {
        guard let value else { return "--\(name)" }
        return "--\(name) \(placeholder ?? value.placeholder)"
    }
}

/// One (sub)command: its words, synopsis, options and operands.
struct CommandSpec: Sendable {
    /// The command words, e.g. `["cuff", "ingest"]`.
    var words: [String]
    /// One line: what it does.
    var summary: String
    /// Operand synopsis, e.g. `[FILE...]`; empty when none.
    var operands: String
    /// Kind of each operand for completion (nil = none taken).
    var operandKind: ValueKind?
    /// Longer description for help and the man page.
    var details: String
    var options: [OptionSpec]

    /// `bp-init`, `cuff ingest`.
    var name: String { words.joined(separator: " ") }
    /// `corsano-bp-init`, `corsano-cuff-ingest` (man page names).
    var manName: String { "corsano-" + words.joined(separator: "-") }

    /// The option called `name`, if this command has it.
    func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }
}
