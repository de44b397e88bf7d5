import CorsanoKit

/// A rule between the options of one command, declared in the command table and checked for
/// every command line before anything is opened (exit 64, docs/design.md "Commands"): no handler
/// checks an option rule itself. `--a` excluding `--b` outright is `OptionSpec.excludes`.
enum OptionRule: Sendable {
    /// `first` needs `second` given (`history --now` needs `--due`).
    case requires(OptionKey, OptionKey, because: String? = nil)
    /// `first` needs `second` set to one of `values` (`--output-dir` needs `--format fhir`);
    /// `second`'s stated default counts when it is not given.
    case requiresValue(OptionKey, OptionKey, [String])
    /// `first` cannot be given with `second` set to one of `values` (`--derive-map` and `--format fhir`).
    case excludesValue(OptionKey, OptionKey, [String], because: String? = nil)
    /// `option` needs the operand `word` (`--run` needs `history sign`).
    case requiresOperand(OptionKey, String)
    /// With the operand `word`, `options` must all be given and the others of `refused` must not
    /// (`history sign --run ID --name NAME --meaning M`).
    case operand(String, requires: [OptionKey], refuses: [OptionKey])
    /// A check of values that needs no file, store or bracelet (a `--subject` that is no
    /// Patient/ID, a `--column` that names no role). - Throws: `UsageError`.
    case check(@Sendable (ParsedCommand) throws -> Void)

    /// Checks this rule on `parsed`. - Throws: `UsageError` naming the options.
    func check(_ parsed: ParsedCommand) throws {
        switch self {
        case .requires(let a, let b, let because):
            if parsed.flag(a), !parsed.flag(b) { throw UsageError.conflict("\(a.flag) needs \(b.flag)" + Self.note(because)) }
        case .requiresValue(let a, let b, let values):
            if parsed.flag(a), !values.contains(parsed.valueOrDefault(b) ?? "") {
                throw UsageError.conflict("\(a.flag) needs \(b.flag) " + values.joined(separator: " or "))
            }
        case .excludesValue(let a, let b, let values, let because):
            if parsed.flag(a), let value = parsed.valueOrDefault(b), values.contains(value) {
                throw UsageError.conflict("\(a.flag) and \(b.flag) \(value) exclude each other" + Self.note(because))
            }
        case .requiresOperand(let option, let word):
            if parsed.flag(option), parsed.operands.first != word {
                throw UsageError.conflict("\(option.flag) needs '\(parsed.spec.name) \(word)'")
            }
        case .operand(let word, let required, let refused):
            guard parsed.operands.first == word else { return }
            let name = parsed.spec.name + " " + word
            if parsed.operands.count > 1 { throw UsageError.conflict("\(name): unexpected operand \(parsed.operands[1])") }
            if let other = refused.first(where: parsed.flag) { throw UsageError.conflict("\(name): \(other.flag) is not an option of \(word)") }
            if required.contains(where: { !parsed.flag($0) }) {
                let list = required.map(\.flag)
                throw UsageError.missing("\(name): " + list.dropLast().joined(separator: ", ") + " and " + list.last! + " are required")
            }
        case .check(let check):
            try check(parsed)
        }
    }

    private static func note(_ because: String?) -> String { because.map { " (\($0))" } ?? "" }
}

extension ParsedCommand {
    /// The value of `key` given (or from its variable), else its table default when that is one value.
    func valueOrDefault(_ key: OptionKey) -> String? {
        if let value = string(key) { return value }
        if case .value(let text)? = spec.option(key)?.defaultValue { return text }
        return nil
    }
}
