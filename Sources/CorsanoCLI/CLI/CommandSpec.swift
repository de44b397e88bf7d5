import CorsanoKit

/// What kind of value an option or operand takes; drives parsing, `--help`, and completion.
enum ValueKind: Equatable, Sendable {
    /// An RFC 3339 time (or a naive `YYYY-MM-DDTHH:MM:SS` where the option says so).
    case time
    /// A duration in whole seconds (`90s`, `5m`, `1h`, `1h30m`, or a bare number of seconds:
    /// `DurationText`), or `none` when `allowsNone`. Help shows `DURATION`.
    case seconds(allowsNone: Bool)
    /// An integer in a range.
    case integer(ClosedRange<Int>)
    /// A file path (`-` = stdin/stdout where the option says so).
    case path
    /// A directory path.
    case directory
    /// One of a fixed set of words.
    case choice([String])
    /// A bracelet or listen URI (`sim`, `sim:FILE`, `unix:PATH`, `tcp:HOST:PORT`, `exec:CMD`).
    case uri
    /// A shell command, run with `sh -c`.
    case command
    /// Free text (a name, a zone).
    case text

    /// True when `text` is a value of this kind as parsing takes it (the table's validator
    /// checks each default with it).
    func accepts(_ text: String) -> Bool {
        switch self {
        case .time: return RFC3339.parseInstant(text) != nil || RFC3339.parseNaive(text) != nil
        case .seconds(let none): return (none && text == "none") || DurationText.seconds(text) != nil
        case .integer(let range): return Int(text).map(range.contains) ?? false
        case .choice(let words): return words.contains(text)
        case .uri: return (try? BraceletAddress(text)) != nil
        case .path, .directory, .command, .text: return !text.isEmpty
        }
    }

    /// The placeholder shown in help (`TIME`, `SECONDS`, ...).
    var placeholder: String {
        switch self {
        case .time: return "TIME"
        case .seconds(let none): return none ? "DURATION|none" : "DURATION"
        case .integer: return "N"
        case .path: return "FILE"
        case .directory: return "DIR"
        case .choice(let words): return words.joined(separator: "|")
        case .uri: return "URI"
        case .command: return "CMD"
        case .text: return "TEXT"
        }
    }
}

/// A duration as options take it (docs/design.md "Commands"): `90s`, `5m`, `1h`, units in
/// that order, each at most once (`1h30m`, `2m30s`), or a bare number of seconds; whole seconds
/// from 0 to `ParsedCommand.maxSeconds`.
enum DurationText {
    /// What a refused duration should have been, for `UsageError.badValue`.
    static let expected = "a duration like 90s, 5m, 1h or 1h30m (a bare number is seconds), at most 100 years"

    /// The whole seconds `text` stands for; nil when it is not a duration or exceeds the range.
    static func seconds(_ text: String) -> Int? {
        if let bare = Int(text), text.first != "+" { return (0...ParsedCommand.maxSeconds).contains(bare) ? bare : nil }
        let units: [(Character, Int)] = [("h", 3600), ("m", 60), ("s", 1)]
        var total = 0, digits = "", next = 0
        for c in text {
            if c.isASCII, c.isNumber { digits.append(c); continue }
            guard !digits.isEmpty, let at = units[next...].firstIndex(where: { $0.0 == c }),
                  let n = Int(digits) else { return nil }
            let (product, overflow) = n.multipliedReportingOverflow(by: units[at].1)
            guard !overflow, product <= ParsedCommand.maxSeconds else { return nil }
            total += product
            digits = ""
            next = at + 1
        }
        guard digits.isEmpty, next > 0, total <= ParsedCommand.maxSeconds else { return nil }
        return total
    }
}

/// An option's default as help, completions and man pages state it.
enum OptionDefault: Equatable, Sendable {
    /// One value, written as it would be given on the command line. Built from the core's
    /// config types (`BPInitializationConfig.default`, `HostRules()`), never typed in the table;
    /// the man page must state the same value.
    case value(String)
    /// A rule rather than one value (`wall time`, `from LC_ALL, LC_MESSAGES, LANG`).
    case rule(String)

    /// An integer default.
    static func integer(_ value: Int) -> OptionDefault { .value(String(value)) }
    /// A whole-seconds default (`nil` is `none`).
    static func seconds(_ value: Double?) -> OptionDefault { .value(value.map { String(Int($0)) } ?? "none") }

    /// The words after `default ` in help.
    var text: String {
        switch self {
        case .value(let v), .rule(let v): return v
        }
    }
}

/// An environment variable the executable reads (only the executable reads the environment).
/// The ones that back an option are read through that option (`ParsedCommand.string`).
enum EnvironmentVariable: String, CaseIterable, Sendable {
    case state = "CORSANO_STATE"
    /// `--store-wait`'s value when the command line gives none.
    case storeWait = "CORSANO_STORE_WAIT"
    case bracelet = "CORSANO_BRACELET"
    case gateway = "CORSANO_GATEWAY"
    case bridgeTokenFile = "CORSANO_BRIDGE_TOKEN_FILE"
    case xdgStateHome = "XDG_STATE_HOME"
    /// Where the audit key lives by default (`$XDG_CONFIG_HOME/corsano/audit.key`, issue 35).
    case xdgConfigHome = "XDG_CONFIG_HOME"
    case home = "HOME"
    case lcAll = "LC_ALL"
    case lcMessages = "LC_MESSAGES"
    case lang = "LANG"
    case noColor = "NO_COLOR"
    case term = "TERM"
    case tz = "TZ"
    case columns = "COLUMNS"
    /// `-v`'s level when the command line gives neither `-v` nor `--quiet`: 1 or 2 (0: none).
    case verbose = "CORSANO_VERBOSE"
    /// The system bus BlueZ is reached on (libdbus's own variable; corsano reads it to pass the
    /// address on, default `BlueZCentral.defaultSystemBus`).
    case dbusSystemBus = "DBUS_SYSTEM_BUS_ADDRESS"
    /// What a PostgreSQL `--state` URI leaves out: read by libpq itself (its "Environment Variables").
    case pgHost = "PGHOST", pgPort = "PGPORT", pgUser = "PGUSER", pgPassword = "PGPASSWORD", pgService = "PGSERVICE"
    case pgSSLMode = "PGSSLMODE"

    /// The man page whose ENVIRONMENT section describes it; nil for variables of the platform
    /// that every program reads alike (`HOME`, `TERM`) or that a page describes at its option (`TZ`).
    var manPage: String? {
        switch self {
        case .pgHost, .pgPort, .pgUser, .pgPassword, .pgService, .pgSSLMode: return "corsano.1"
        case .state, .storeWait, .bracelet, .gateway, .bridgeTokenFile, .xdgStateHome, .xdgConfigHome, .lcAll, .lcMessages, .lang, .noColor, .columns, .verbose, .dbusSystemBus: return "corsano.1"
        case .home, .term, .tz: return nil
        }
    }
}

extension CommandContext {
    /// The value of `variable` in this process's environment (empty counts as set).
    subscript(_ variable: EnvironmentVariable) -> String? { environment[variable.rawValue] }
}

/// One option of a command: `--name [VALUE]`, with everything known about it: value kind and
/// range, default, environment variable, whether it is required. Help, completions, the REPL,
/// the man-page check and parsing all read this one entry.
struct OptionSpec: Sendable {
    /// The option's typed key; its raw value is the long name without dashes, e.g. `max-attempts`.
    var key: OptionKey
    /// Long name without dashes, e.g. `max-attempts`.
    var name: String { key.rawValue }
    /// nil for a flag that takes no value.
    var value: ValueKind?
    /// Placeholder override for help (e.g. `MMHG`); defaults to the kind's.
    var placeholder: String?
    /// One sentence of help, without its final period and without the default (see `helpText`).
    var summary: String
    /// The default when the option is not given, if one is worth stating.
    var defaultValue: OptionDefault?
    /// Said after the default inside its parentheses: `(default 3; 1 disables retry)`.
    var defaultNote: String?
    /// Environment variable read when the option is not given (an empty value counts as unset).
    var environment: EnvironmentVariable?
    /// True when the command cannot run without it (the parser refuses the line: exit 64,
    /// naming every required option missing at once).
    var required: Bool = false
    /// The option that may supply a required one instead (`profile push --from FILE` holds every
    /// field): with it given, the command checks what is still missing.
    var requiredUnless: OptionKey?
    /// True when the option may be given more than once.
    var repeatable: Bool = false
    /// A one-letter spelling (`h` for `-h`), for the flags every program has.
    var short: Character?
    /// Options that cannot be given with this one (`--json` and `--text`): the parser refuses
    /// the pair, zsh and fish stop offering the other once one is on the line.
    var excludes: [OptionKey] = []
    /// How the value names a file the command reads, when it does: the runner checks that file
    /// exists and is readable before any store or bracelet is opened (`InputCheck`, exit 66).
    var input: InputRole?

    init(_ key: OptionKey, _ value: ValueKind? = nil, placeholder: String? = nil, default defaultValue: OptionDefault? = nil,
         note defaultNote: String? = nil, environment: EnvironmentVariable? = nil, required: Bool = false,
         unless requiredUnless: OptionKey? = nil, repeatable: Bool = false, _ summary: String) {
        self.requiredUnless = requiredUnless
        self.key = key
        self.value = value
        self.placeholder = placeholder
        self.summary = summary
        self.defaultValue = defaultValue
        self.defaultNote = defaultNote
        self.environment = environment
        self.required = required
        self.repeatable = repeatable
    }

    /// A flag that takes no value.
    init(_ key: OptionKey, _ summary: String) {
        self.init(key, nil, placeholder: nil, summary)
    }

    /// The help line: `Calibration attempts (default 3; 1 disables retry).`, `Height in cm
    /// (required unless --from gives it).`
    var help: String {
        var notes: [String] = []
        if required { notes.append("required" + (requiredUnless.map { " unless \($0.flag) gives it" } ?? "")) }
        if let defaultValue { notes.append("default " + defaultValue.text + (defaultNote.map { "; " + $0 } ?? "")) }
        return summary + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")") + "."
    }

    /// This option, which cannot be given with `names`.
    func excluding(_ names: OptionKey...) -> OptionSpec {
        var o = self
        o.excludes += names
        return o
    }

    /// This option, whose value names a file the command reads (`InputRole`).
    func input(_ role: InputRole = .file) -> OptionSpec {
        var o = self
        o.input = role
        return o
    }

    /// This option with the one-letter spelling `-letter` too.
    func short(_ letter: Character) -> OptionSpec {
        var o = self
        o.short = letter
        return o
    }

    /// `-h, --help` or `--name VALUE`: the left column of help.
    var helpUsage: String { (short.map { "-\($0), " } ?? "") + usage }

    /// `--name VALUE` as shown in help and man pages.
    var usage: String {
        guard let value else { return "--\(name)" }
        return "--\(name) \(placeholder ?? value.placeholder)"
    }
}

/// Runs one parsed command and returns its exit status; errors go to `ErrorTranslator`.
typealias CommandHandler = @Sendable (ParsedCommand, CommandContext) async throws -> ExitStatus

/// Runs one REPL session command (`connect`, `cuff add`, ...) on the words after its name.
typealias SessionHandler = @Sendable (REPLSession, [String], CommandContext) async throws -> ExitStatus

/// Who runs a command: every spec names its handler, so no command can exist without one.
enum CommandAction: Sendable {
    /// A command of the table, the same on the command line and in the REPL.
    case command(CommandHandler)
    /// A command of the REPL session only; it gets the session.
    case session(SessionHandler)
}

/// One (sub)command: its words, synopsis, options, operands and handler.
struct CommandSpec: Sendable {
    /// The command words, e.g. `["cuff", "ingest"]`.
    var words: [String]
    /// One line: what it does.
    var summary: String
    /// Operand synopsis, e.g. `[FILE...]`; empty when none.
    var operands: String
    /// Kind of each operand for completion (nil = none taken); `.path` operands are files the
    /// command reads (never writes), checked by the runner's inputs phase (`InputCheck`).
    var operandKind: ValueKind?
    /// Longer description for help and the man page.
    var details: String
    /// Every status the command exits with and what each means for it (docs/design.md
    /// "Exit status"): rendered into its `--help`, equal to its man page's EXIT STATUS (a test). Built
    /// from `ExitCase`'s shared entries; empty only for a REPL session command.
    var exits: [ExitCase] = []
    var options: [OptionSpec]
    /// What runs it.
    var action: CommandAction
    /// True when the command handles SIGINT, SIGTERM and SIGHUP itself (a flow ends
    /// cancelledByUser with the plan restored; a filter finishes its line, commits and counts);
    /// any other ends by a stop signal's default action (`ProcessSignals`).
    var handlesStopSignals = false
    /// Rules between its options, checked by the parser after every option is read (exit 64),
    /// before a handler runs: `requires`, `excludesValue`, value checks (`OptionRule`).
    var rules: [OptionRule] = []

    /// `bp-init`, `cuff ingest`.
    var name: String { words.joined(separator: " ") }
    /// `corsano-bp-init`, `corsano-cuff-ingest` (man page names).
    var manName: String { "corsano-" + words.joined(separator: "-") }

    /// The option `key`, if this command has it.
    func option(_ key: OptionKey) -> OptionSpec? { options.first { $0.key == key } }

    /// The option spelt `--name` on a command line, if this command has it.
    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }

    /// The handler of a table command; nil for a REPL session command.
    var handler: CommandHandler? {
        if case .command(let run) = action { return run }
        return nil
    }
}
