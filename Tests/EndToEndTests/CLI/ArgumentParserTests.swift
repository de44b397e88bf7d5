@testable import CorsanoCLI
import Testing

/// The argv parser on its own, against a spec of its own (so the command table can change
/// without touching these): `--`, `=` forms, empty and repeated values, `-`, and values that
/// start with a dash. The exit status of a usage error is checked on the built binary at the end.
@Suite struct ArgumentParserTests {
    static let spec = CommandSpec(
        words: ["probe"], summary: "A command for parser tests.", operands: "[FILE...]", operandKind: .path,
        details: "", options: [
            OptionSpec(.now, .time, "An instant"),
            OptionSpec(.cuff, .path, "A file"),
            OptionSpec(.maxAttempts, .integer(1...10), "A count"),
            OptionSpec(.clock, .choice(["real", "virtual"]), "A choice"),
            OptionSpec(.json, "A flag"),
        ], action: .command { _, _ in .success })

    static func parse(_ words: [String]) throws -> ParsedCommand { try ArgumentParser.parse(words, as: spec, environment: [:]) }

    /// The usage error parsing `words` throws (nil when it parses).
    static func error(_ words: [String]) -> UsageError? {
        do { _ = try parse(words); return nil } catch let e as UsageError { return e } catch { return nil }
    }

    @Test func doubleDashEndsOptionsAndIsNotAnOperand() throws {
        let p = try Self.parse(["--json", "a.csv", "--", "--now", "-", "--bogus"])
        #expect(p.flag(.json))
        #expect(p.string(.now) == nil)
        #expect(p.operands == ["a.csv", "--now", "-", "--bogus"])
        // A second `--` after the first is an operand like any other word.
        #expect(try Self.parse(["--", "--"]).operands == ["--"])
    }

    @Test func equalsGivesTheValueOfAValueOption() throws {
        let p = try Self.parse(["--now=2026-11-29T10:00:00Z", "--cuff=a=b.jsonl", "--clock=virtual"])
        #expect(p.string(.now) == "2026-11-29T10:00:00Z")
        #expect(p.string(.cuff) == "a=b.jsonl")  // only the first `=` splits
        #expect(p.string(.clock) == "virtual")
        #expect(p.operands.isEmpty)
    }

    @Test(arguments: ["--json=1", "--json=", "--json=true"])
    func equalsOnABooleanFlagIsAUsageErrorNamingIt(word: String) {
        #expect(Self.error([word]) == .unexpectedValue(option: "json"))
        #expect(UsageError.unexpectedValue(option: "json").message == "--json takes no value")
    }

    @Test(arguments: [["--cuff="], ["--cuff", ""], ["--now="], ["--clock="]])
    func anEmptyValueIsAMissingValue(words: [String]) {
        let name = String(words[0].dropFirst(2).prefix { $0 != "=" })
        let usage = Self.spec.option(named: name)!.usage
        #expect(Self.error(words) == .missingValue(option: name, placeholder: usage))
    }

    @Test func aValueOptionGivenTwiceWithTheSameValueIsAccepted() throws {
        let p = try Self.parse(["--now", "2026-11-29T10:00:00Z", "x", "--now=2026-11-29T10:00:00Z", "--json", "--json"])
        #expect(p.strings(.now) == ["2026-11-29T10:00:00Z"])
        #expect(p.flag(.json))
        #expect(p.operands == ["x"])
    }

    @Test func aValueOptionGivenTwiceWithDifferentValuesIsAUsageErrorNamingIt() {
        let e = Self.error(["--max-attempts", "2", "--json", "--max-attempts=3"])
        #expect(e == .repeatedOption(option: "max-attempts", first: "2", second: "3"))
        #expect(e?.message == "--max-attempts given twice with different values ('2' and '3')")
        #expect(Self.error(["--cuff", "a", "--cuff", "b"]) == .repeatedOption(option: "cuff", first: "a", second: "b"))
    }

    @Test(arguments: [["--now"], ["a.csv", "--cuff"], ["--json", "--max-attempts"]])
    func aValueOptionLastWithNoValueIsAMissingValue(words: [String]) {
        let name = String(words.last!.dropFirst(2))
        #expect(Self.error(words) == .missingValue(option: name, placeholder: Self.spec.option(named: name)!.usage))
    }

    @Test func aLoneDashIsAnOperandAndAValue() throws {
        let p = try Self.parse(["-", "--cuff", "-"])
        #expect(p.operands == ["-"])
        #expect(p.string(.cuff) == "-")
    }

    @Test func anUnknownFlagAfterOperandsIsStillAnUnknownOption() {
        #expect(Self.error(["a.csv", "b.csv", "--bogus"]) == .unknownOption("--bogus", command: "probe"))
        #expect(Self.error(["a.csv", "--bogus=1"]) == .unknownOption("--bogus", command: "probe"))
        // Short options do not exist; a dash word that is not `-` is an unknown option, not a file.
        #expect(Self.error(["a.csv", "-x"]) == .unknownOption("-x", command: "probe"))
        // No prefix abbreviations.
        #expect(Self.error(["--max", "2"]) == .unknownOption("--max", command: "probe"))
    }

    @Test func aValueThatStartsWithADashIsTheValue() throws {
        let p = try Self.parse(["--now", "-0001-01-01T00:00:00Z"])
        #expect(p.string(.now) == "-0001-01-01T00:00:00Z")
        #expect(p.operands.isEmpty)
        // Taken as the value, then judged as one: refused naming the option, not read as a flag.
        #expect(throws: UsageError.badValue(option: "now", value: "-0001-01-01T00:00:00Z",
                                            expected: "an RFC 3339 time like 2026-11-29T10:00:00Z")) { try p.instant(.now) }
        // A negative number is a value, judged in the validate phase (integers and durations are
        // checked by the parser, before any handler).
        #expect(Self.error(["--max-attempts", "-1"]) == .badValue(option: "max-attempts", value: "-1", expected: "an integer from 1 to 10"))
        // `-` stays stdin.
        #expect(try Self.parse(["--cuff", "-"]).string(.cuff) == "-")
    }

    /// Issue 23: a separate value word that is an option (of the command, a global one, or any
    /// `--` word) is refused naming both; `--opt=VALUE` passes such a value.
    @Test(arguments: [["--cuff", "--json"], ["--cuff", "--no-such"], ["--cuff", "--"], ["--cuff", "-h"], ["--cuff", "-V"]])
    func aValueWordThatIsAnOptionIsRefusedNamingBoth(words: [String]) {
        #expect(Self.error(words) == .valueIsOption(option: "cuff", placeholder: "FILE", word: words[1]))
    }

    @Test func anOptionLikeValueIsGivenWithEquals() throws {
        let p = try Self.parse(["--cuff=--json"])
        #expect(p.string(.cuff) == "--json")
        #expect(!p.flag(.json))
        #expect(UsageError.valueIsOption(option: "state", placeholder: "FILE", word: "--no-preparation").message
                == "--state needs a value (FILE); '--no-preparation' is an option (--state=VALUE passes a value that starts with --)")
    }

    /// The global `-V`/`--version` parses after any command's name.
    @Test(arguments: [["--version"], ["-V"], ["a.csv", "--version"]])
    func theGlobalVersionIsAnOptionOfEveryCommand(words: [String]) throws {
        #expect(try Self.parse(words).flag(.version))
    }

    @Test func anOperandWhereNoneIsTakenIsRefused() {
        let none = CommandSpec(words: ["bare"], summary: "", operands: "", operandKind: nil, details: "", options: [],
                               action: .command { _, _ in .success })
        #expect(throws: UsageError.unexpectedOperand("x", command: "bare")) { try ArgumentParser.parse(["x"], as: none, environment: [:]) }
    }

    /// The binary turns each refusal into exit 64 with the message on stderr, nothing on stdout.
    @Test(arguments: [
        (["bp-init", "--no-state", "--now", "2026-11-29T10:00:00Z", "--now=2026-11-29T11:00:00Z"],
         "corsano: --now given twice with different values ('2026-11-29T10:00:00Z' and '2026-11-29T11:00:00Z')\n"),
        (["bp-init", "--no-state", "--cuff="], "corsano: --cuff needs a value (--cuff FILE)\n"),
        (["bp-init", "--state="], "corsano: --state needs a value (--state FILE)\n"),
        (["bp-init", "--cuff", "--no-state"],
         "corsano: --cuff needs a value (FILE); '--no-state' is an option (--cuff=VALUE passes a value that starts with --)\n"),
        (["--no-state"], "corsano: '--no-state' is an option, not a command; options go after the command: corsano bp-init --no-state; try 'corsano --help'\n"),
        (["bp-init", "--cuff-timeout", "5min"],
         "corsano: --cuff-timeout: bad value '5min': expected a duration like 90s, 5m, 1h or 1h30m (a bare number is seconds), at most 100 years\n"),
        (["cuff", "ingest", "a.csv", "--bogus"], "corsano: cuff ingest: unknown option '--bogus'; try 'corsano cuff ingest --help'\n"),
        (["bp-init", "--now", "-0001-01-01T00:00:00Z"],
         "corsano: --now: bad value '-0001-01-01T00:00:00Z': expected an RFC 3339 time like 2026-11-29T10:00:00Z\n"),
    ])
    func theBinaryExits64NamingTheOption(args: [String], stderr: String) throws {
        let r = try Corsano.run(args)
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == stderr)
    }
}
