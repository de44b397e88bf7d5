import CorsanoKit
/// A mistake on the command line (exit 64); every case names the flag or word at fault.
enum UsageError: DiagnosticError, Equatable {
    case missingCommand
    case unknownCommand(String)
    case unknownOption(String, command: String)
    case missingValue(option: String, placeholder: String)
    /// A value option whose separate value word is an option (`--state --no-preparation`).
    case valueIsOption(option: String, placeholder: String, word: String)
    /// An option where the command belongs (`corsano --no-state`); `example` is a command that takes it.
    case optionForCommand(String, example: String?)
    case unexpectedValue(option: String)
    /// A value option that is not repeatable, given twice with different values.
    case repeatedOption(option: String, first: String, second: String)
    case badValue(option: String, value: String, expected: String)
    /// An environment variable that stands for an option (`OptionSpec.environment`) holds a bad value.
    case badEnvironment(variable: String, value: String, expected: String)
    case unexpectedOperand(String, command: String)
    case badOperand(String, command: String, expected: String)
    case conflict(String)
    case missing(String)

    var message: String {
        switch self {
        case .missingCommand: return "no command given; try 'corsano --help'"
        case .unknownCommand(let c):
            // `cuff digest`: point at the group's own listing.
            let first = c.split(separator: " ").first.map(String.init) ?? c
            let group = c.contains(" ") && CommandTable.commands.contains { $0.words.count > 1 && $0.words[0] == first } ? first : nil
            return "unknown command '\(c)';" + Self.nearest(command: c, in: CommandTable.commands)
                + " try 'corsano \(group.map { "\($0) " } ?? "")--help'"
        case .unknownOption(let o, let c):
            return "\(c): unknown option '\(o)';" + Self.nearest(option: o, of: c, in: CommandTable.commands)
                + " try 'corsano \(c) --help'"
        case .missingValue(let o, let p): return "--\(o) needs a value (\(p))"
        case .valueIsOption(let o, let p, let w):
            return "--\(o) needs a value (\(p)); '\(w)' is an option (--\(o)=VALUE passes a value that starts with --)"
        case .optionForCommand(let o, let example):
            return "'\(o)' is an option, not a command; options go after the command"
                + (example.map { ": corsano \($0) \(o)" } ?? "") + "; try 'corsano --help'"
        case .unexpectedValue(let o): return "--\(o) takes no value"
        case .repeatedOption(let o, let a, let b): return "--\(o) given twice with different values ('\(a)' and '\(b)')"
        case .badValue(let o, let v, let e): return "--\(o): bad value '\(v)': expected \(e)"
        case .badEnvironment(let name, let v, let e): return "\(name): bad value '\(v)': expected \(e)"
        case .unexpectedOperand(let w, let c): return "\(c): unexpected argument '\(w)'"
        case .badOperand(let w, let c, let e): return "\(c): bad argument '\(w)': expected \(e)"
        case .conflict(let text), .missing(let text): return text
        }
    }

    /// The message as the REPL shows it: hints name the REPL's own words (`help`, `help CMD`),
    /// not the shell's `corsano --help`.
    var replMessage: String {
        switch self {
        case .missingCommand: return "no command given; try 'help'"
        case .unknownCommand(let c): return "unknown command '\(c)';" + Self.nearest(command: c, in: REPLGrammar.commands) + " try 'help'"
        case .unknownOption(let o, let c):
            return "\(c): unknown option '\(o)';" + Self.nearest(option: o, of: c, in: REPLGrammar.commands) + " try 'help \(c)'"
        default: return message
        }
    }

    /// ` did you mean 'bp-init'?` for `bp-int`, `cuff ingest` for `cuff ingst` (within the
    /// group when its first word is one), else "".
    static func nearest(command typed: String, in commands: [CommandSpec]) -> String {
        let words = typed.split(separator: " ").map(String.init)
        if words.count > 1, commands.contains(where: { $0.words.count > 1 && $0.words[0] == words[0] }) {
            let members = commands.filter { $0.words.count > 1 && $0.words[0] == words[0] }.map { $0.words[1] }
            return DidYouMean.phrase(for: words[1], among: members) { words[0] + " " + $0 }
        }
        return DidYouMean.phrase(for: typed, among: commands.map(\.name) + commands.map { $0.words[0] })
    }

    /// ` did you mean '--threshold'?` for `--treshold` among `command`'s options, else "".
    static func nearest(option typed: String, of command: String, in commands: [CommandSpec]) -> String {
        guard let spec = commands.first(where: { $0.name == command }) else { return "" }
        let bare = typed.hasPrefix("--") ? String(typed.dropFirst(2)) : String(typed.drop { $0 == "-" })
        return DidYouMean.phrase(for: bare, among: spec.options.map(\.name)) { "--" + $0 }
    }
}
