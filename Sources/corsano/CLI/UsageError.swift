import CorsanoKit
/// A mistake on the command line (exit 64); every case names the flag or word at fault.
enum UsageError: DiagnosticError, Equatable {
    case missingCommand
    case unknownCommand(String)
    case unknownOption(String, command: String)
    case missingValue(option: String, placeholder: String)
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
            return "unknown command '\(c)'; try 'corsano \(group.map { "\($0) " } ?? "")--help'"
        case .unknownOption(let o, let c): return "\(c): unknown option '\(o)'; try 'corsano \(c) --help'"
        case .missingValue(let o, let p): return "--\(o) needs a value (\(p))"
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
        case .unknownCommand(let c): return "unknown command '\(c)'; try 'help'"
        case .unknownOption(let o, let c): return "\(c): unknown option '\(o)'; try 'help \(c)'"
        default: return message
        }
    }
}
