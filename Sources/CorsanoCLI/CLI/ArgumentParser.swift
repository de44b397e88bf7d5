import CorsanoKit

/// The parsed words of one command line: which command, its option values and operands, and
/// the values of the environment variables its options read (`OptionSpec.environment`).
struct ParsedCommand {
    let spec: CommandSpec
    /// Option values by key, in the order given (flags map to `[""]`).
    private(set) var values: [OptionKey: [String]] = [:]
    private(set) var operands: [String] = []
    /// The options a REPL session supplied (`supply`), not the line.
    private(set) var supplied: Set<OptionKey> = []
    /// Values of options not given, from their environment variable (non-empty), by option name.
    fileprivate(set) var fromEnvironment: [OptionKey: String] = [:]

    /// Where an option's value came from, for messages that name it.
    enum Source: Equatable {
        case commandLine
        case environment(EnvironmentVariable)
    }

    /// How many times the flag `name` was given (`-vv` counts two).
    func count(_ name: OptionKey) -> Int { values[name]?.count ?? 0 }

    /// True when the flag `name` was given.
    func flag(_ name: OptionKey) -> Bool { values[name] != nil }

    /// The last value of `--name`, else its environment variable's value (the table says which).
    func string(_ name: OptionKey) -> String? { values[name]?.last ?? fromEnvironment[name] }

    /// The last value of `--name` on the command line only.
    func given(_ name: OptionKey) -> String? { values[name]?.last }

    /// Where `string(name)` took its value; nil when it has none.
    func source(_ name: OptionKey) -> Source? {
        if values[name] != nil { return .commandLine }
        guard fromEnvironment[name] != nil, let variable = spec.option(name)?.environment else { return nil }
        return .environment(variable)
    }

    /// The usage error for a bad `value` of option `name`, naming the flag or the environment
    /// variable it came from.
    func badValue(_ name: OptionKey, _ value: String, expected: String) -> UsageError {
        if case .environment(let variable)? = source(name) {
            return .badEnvironment(variable: variable.rawValue, value: value, expected: expected)
        }
        return .badValue(option: name.rawValue, value: value, expected: expected)
    }

    /// Every value of a repeatable `--name`.
    func strings(_ name: OptionKey) -> [String] { values[name] ?? [] }

    /// `--name` as an integer within its table range. - Throws: `UsageError.badValue`.
    func integer(_ name: OptionKey) throws -> Int? {
        guard let raw = string(name) else { return nil }
        guard case .integer(let range)? = spec.option(name)?.value, let v = Int(raw), range.contains(v) else {
            let range = spec.option(name).flatMap { if case .integer(let r)? = $0.value { r } else { nil } }
            throw badValue(name, raw, expected: range.map { "an integer from \($0.lowerBound) to \($0.upperBound)" } ?? "an integer")
        }
        return v
    }

    /// The largest seconds value a flag takes: 100 years, far beyond any wait or age that makes sense.
    static let maxSeconds = 100 * 365 * 86_400

    /// `--name` as whole seconds, written as a duration (`90s`, `5m`, `1h30m`, or a bare number of
    /// seconds: `DurationText`); `.some(nil)` for `none` where allowed. - Throws: `UsageError.badValue`.
    func seconds(_ name: OptionKey) throws -> Int?? {
        guard let raw = string(name) else { return nil }
        let allowsNone: Bool
        if case .seconds(true)? = spec.option(name)?.value { allowsNone = true } else { allowsNone = false }
        if raw == "none", allowsNone { return .some(nil) }
        guard let v = DurationText.seconds(raw) else {
            throw badValue(name, raw, expected: DurationText.expected + (allowsNone ? ", or none" : ""))
        }
        return .some(v)
    }

    /// `--name` as an RFC 3339 instant. - Throws: `UsageError.badValue`.
    func instant(_ name: OptionKey) throws -> Instant? {
        guard let raw = string(name) else { return nil }
        guard let t = RFC3339.parseInstant(raw) else {
            throw badValue(name, raw, expected: "an RFC 3339 time like 2026-11-29T10:00:00Z")
        }
        return t
    }

    /// `--name` as a bound of a time range (`--since`, `--until`): an RFC 3339 time, or a date
    /// `YYYY-MM-DD` read in `zone` (the TZ environment's zone, else the system's: what `date`
    /// shows) — `--since` from that midnight, with `endOfDay` (`--until`) to that day's last
    /// second, so `--until 2026-11-29` takes the whole day. - Throws: `UsageError.badValue`.
    func bound(_ name: OptionKey, endOfDay: Bool = false, zone: () throws -> ZoneReader) throws -> Instant? {
        guard let raw = string(name) else { return nil }
        if let t = RFC3339.parseInstant(raw) { return t }
        let parts = raw.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2, parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
           let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
           let stamp = endOfDay ? NaiveDateTime(year: year, month: month, day: day, hour: 23, minute: 59, second: 59)
                                : NaiveDateTime(year: year, month: month, day: day, hour: 0, minute: 0, second: 0) {
            return try zone().instant(for: stamp)
        }
        throw badValue(name, raw, expected: "an RFC 3339 time like 2026-11-29T10:00:00Z or a date like 2026-11-29")
    }

    /// `--name` as a naive cuff-clock stamp. - Throws: `UsageError.badValue`.
    func naive(_ name: OptionKey) throws -> NaiveDateTime? {
        guard let raw = string(name) else { return nil }
        guard let t = RFC3339.parseNaive(raw) else {
            throw badValue(name, raw, expected: "a cuff time like 2025-01-01T00:03:10")
        }
        return t
    }
}

/// Table-driven argument parsing: `--flag value`, `--flag=value`, `--` ends options, `-` is an
/// operand (stdin). No prefix abbreviations; unknown flags name themselves. A value is never empty,
/// and an option that is not repeatable may be given again only with the same value (scripts that
/// append a default must not silently override, or be overridden by, what the user gave).
enum ArgumentParser {
    /// Parses `argv` (without the program name); options the line does not give take their
    /// environment variable's value from `environment`. - Throws: `UsageError`.
    static func parse(_ argv: [String], environment: [String: String]) throws -> ParsedCommand {
        guard let first = argv.first else { throw UsageError.missingCommand }
        guard let (spec, used) = CommandTable.lookup(argv) else {
            if CommandTable.commands.contains(where: { $0.words.first == first }) {
                throw UsageError.unknownCommand(argv.prefix(2).joined(separator: " "))
            }
            throw UsageError.unknownCommand(first)
        }
        return try parse(Array(argv.dropFirst(used)), as: spec, environment: environment)
    }

    /// Parses the words after the command name against `spec`. - Throws: `UsageError`.
    static func parse(_ words: [String], as spec: CommandSpec, environment: [String: String]) throws -> ParsedCommand {
        var parsed = ParsedCommand(spec: spec)
        var i = 0
        var optionsEnded = false
        while i < words.count {
            let word = words[i]
            i += 1
            guard !optionsEnded, word.hasPrefix("-"), word != "-" else {
                parsed.appendOperand(word)
                continue
            }
            if word == "--" { optionsEnded = true; continue }
            if word.count == 2, let option = spec.options.first(where: { $0.short == word.last }) {
                parsed.set(option.key, "")  // one-letter spellings are flags (-h)
                continue
            }
            // A repeatable one-letter flag doubled in one word: `-vv` is `-v -v`.
            if let (option, times) = cluster(word, of: spec) {
                for _ in 0..<times { parsed.set(option.key, "") }
                continue
            }
            // The global `-V`/`--version` after the command (issue 23: global options anywhere).
            if CommandTable.versionSpellings.contains(word), spec.option(.version) == nil {
                parsed.set(.version, "")
                continue
            }
            guard word.hasPrefix("--") else { throw UsageError.unknownOption(word, command: spec.name) }
            var name = String(word.dropFirst(2))
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            guard let option = spec.option(named: name) else { throw UsageError.unknownOption("--" + name, command: spec.name) }
            if option.value == nil {
                if inline != nil { throw UsageError.unexpectedValue(option: name) }
                parsed.set(option.key, "")
                continue
            }
            let value: String
            if let inline { value = inline } else {
                guard i < words.count else { throw UsageError.missingValue(option: name, placeholder: option.usage) }
                value = words[i]
                // A separate value word is never another option: `--state --no-preparation`
                // would otherwise create a file named `--no-preparation`. `--opt=VALUE` passes one.
                if isOptionWord(value, of: spec) {
                    throw UsageError.valueIsOption(option: name, placeholder: option.placeholder ?? option.value?.placeholder ?? "", word: value)
                }
                i += 1
            }
            guard !value.isEmpty else { throw UsageError.missingValue(option: name, placeholder: option.usage) }
            if case .choice(let allowed)? = option.value, !allowed.contains(value) {
                throw UsageError.badValue(option: name, value: value, expected: "one of " + allowed.joined(separator: ", "))
            }
            if !option.repeatable, let earlier = parsed.string(option.key) {
                guard earlier == value else { throw UsageError.repeatedOption(option: name, first: earlier, second: value) }
                continue
            }
            parsed.set(option.key, value)
        }
        // Pairs that exclude each other, as the command line gives them (a variable's value yields).
        for option in spec.options where parsed.values[option.key] != nil {
            if let other = option.excludes.first(where: { parsed.values[$0] != nil }) {
                throw UsageError.conflict("--\(option.name) and \(other.flag) exclude each other")
            }
        }
        var missing: [OptionSpec] = []
        for option in spec.options where parsed.values[option.key] == nil {
            if let variable = option.environment, let value = environment[variable.rawValue], !value.isEmpty {
                if case .choice(let allowed)? = option.value, !allowed.contains(value) {
                    throw UsageError.badEnvironment(variable: variable.rawValue, value: value,
                                                    expected: "one of " + allowed.joined(separator: ", "))
                }
                parsed.fromEnvironment[option.key] = value
            } else if option.required, !parsed.flag(.help), !parsed.flag(.version), option.requiredUnless.map({ parsed.flag($0) }) != true {
                missing.append(option)
            }
        }
        // Every required option missing, at once (not one per try).
        if !missing.isEmpty {
            let unless = Set(missing.compactMap(\.requiredUnless)).sorted { $0.rawValue < $1.rawValue }.map { spec.option($0)?.usage ?? $0.flag }
            throw UsageError.missing("\(spec.name): missing " + missing.map(\.usage).joined(separator: ", ")
                                     + (unless.isEmpty ? "" : " (required unless " + unless.joined(separator: " or ") + " gives them)"))
        }
        if spec.operandKind == nil, let extra = parsed.operands.first, spec.words != ["help"] {
            throw UsageError.unexpectedOperand(extra, command: spec.name)
        }
        if case .choice(let allowed)? = spec.operandKind, let op = parsed.operands.first, !allowed.contains(op) {
            throw UsageError.badOperand(op, command: spec.name, expected: "one of " + allowed.joined(separator: ", "))
        }
        // The validate phase: every value's kind and range, and every rule of the table, before
        // any file, store or bracelet (64 first).
        if !parsed.flag(.help), !parsed.flag(.version) {
            // (The profile fields are judged by `ProfileRules`, whose messages name the scale.)
            for option in spec.options where !CommandTable.profileFields.contains(where: { $0.key == option.key }) {
                switch option.value {
                case .integer?: _ = try parsed.integer(option.key)
                case .seconds?: _ = try parsed.seconds(option.key)
                default: break
                }
            }
            for rule in spec.rules { try rule.check(parsed) }
        }
        return parsed
    }
}

extension ArgumentParser {
    /// True when `word`, given as a separate value, is an option rather than a value: any word
    /// starting with `--` (`--` itself included), or a one-letter spelling of an option of `spec`
    /// or of a global option (`-h`, `-V`). `-` (stdin) and negative numbers stay values.
    static func isOptionWord(_ word: String, of spec: CommandSpec) -> Bool {
        if word.hasPrefix("--") || cluster(word, of: spec) != nil { return true }
        guard word.count == 2, word.first == "-", let letter = word.last else { return false }
        return spec.options.contains { $0.short == letter } || CommandTable.global.contains { $0.short == letter }
    }
}

extension ArgumentParser {
    /// The repeatable flag of `spec` that `word` spells several times in one word (`-vv`), and how often.
    static func cluster(_ word: String, of spec: CommandSpec) -> (OptionSpec, Int)? {
        guard word.count > 2, word.first == "-", let letter = word.last, word.dropFirst().allSatisfy({ $0 == letter }),
              let option = spec.options.first(where: { $0.short == letter && $0.repeatable && $0.value == nil }) else { return nil }
        return (option, word.count - 1)
    }
}

extension ParsedCommand {
    /// `value` for `key` where the command line gave none: what the REPL session supplies (its
    /// bracelet, store, queued cuff readings) as a typed override of an option the command has.
    mutating func supply(_ key: OptionKey, _ value: String) {
        guard values[key] == nil, spec.option(key) != nil else { return }
        values[key] = [value]
        supplied.insert(key)
    }
}

extension ParsedCommand {
    init(spec: CommandSpec) { self.spec = spec }
    fileprivate mutating func set(_ key: OptionKey, _ value: String) { values[key, default: []].append(value) }
    fileprivate mutating func appendOperand(_ word: String) { operands.append(word) }
}
