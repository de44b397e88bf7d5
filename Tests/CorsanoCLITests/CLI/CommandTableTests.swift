import CorsanoKit
import Testing
@testable import CorsanoCLI

/// The command table's own checks (as swift-argument-parser validates a command tree), and the
/// facts it carries that parsing reads: defaults from the core's config types, environment
/// variables read through the option, required options.
@Suite struct CommandTableTests {
    @Test func theTableAndTheREPLGrammarPassTheValidator() {
        #expect(CommandTable.problems(in: CommandTable.commands) == [])
        #expect(CommandTable.problems(in: REPLGrammar.sessionCommands, sessionCommands: true) == [])
        // The REPL's words are unique too (table commands with the session's).
        #expect(CommandTable.problems(in: REPLGrammar.commands.filter { $0.handler != nil }) == [])
        #expect(Set(REPLGrammar.commands.map(\.name)).count == REPLGrammar.commands.count)
    }

    static func run(_: ParsedCommand, _: CommandContext) async throws -> CorsanoCLI.ExitStatus { .success }

    @Test func theValidatorFindsEachKindOfMistake() {
        let broken = [
            CommandSpec(words: ["x"], summary: "", operands: "", operandKind: nil, details: "", options: [
                OptionSpec(.name, "A"), OptionSpec(.name, .text, "A again"),
                OptionSpec(.count, .integer(1...5), default: .integer(9), "N"),
                OptionSpec(.clock, .choice(["p", "q"]), default: .value("r"), "C"),
                OptionSpec(.timeout, .seconds(allowsNone: false), default: .value("none"), "S"),
                OptionSpec(.force, nil, environment: .state, required: true, "F"),
            ], action: .command(Self.run)),
            CommandSpec(words: ["x"], summary: "", operands: "", operandKind: nil, details: "", options: [],
                        action: .session { _, _, _ in .success }),
        ]
        #expect(CommandTable.problems(in: broken) == [
            "x: --name is listed twice",
            "x: --count's default '9' is not a N",
            "x: --clock's default 'r' is not a p|q",
            "x: --timeout's default 'none' is not a DURATION",
            "x: --force takes no value but has a default, an environment variable or is required",
            "command 'x' is listed twice",
            "x: a table command runs with a session handler",
        ])
        #expect(CommandTable.problems(in: broken, sessionCommands: true).contains("x: a REPL session command runs with a command handler"))
    }

    /// Defaults are the core's values, shown in help as they are.
    @Test func defaultsComeFromTheCoreConfigTypes() throws {
        let bpInit = try #require(CommandTable.lookup(["bp-init"])?.0)
        #expect(bpInit.option(.maxAttempts)?.defaultValue == .integer(BPInitializationConfig.default.maxAttempts))
        #expect(bpInit.option(.threshold)?.defaultValue == .integer(BPInitializationConfig.default.deviationThresholdMmHg))
        #expect(bpInit.option(.maxReadingAge)?.defaultValue == .seconds(BPInitializationConfig.default.maxReadingAge))
        #expect(bpInit.option(.backdate)?.defaultValue == .seconds(BPInitializationConfig.default.backdateSeconds))
        #expect(bpInit.option(.cuffTimeout)?.defaultValue == .integer(BPInitializationConfig.defaultCuffTimeoutSeconds))
        #expect(bpInit.option(.requestTimeout)?.defaultValue == .seconds(BridgeClient.defaultRequestTimeout))
        #expect(bpInit.option(.maxAttempts)?.help == "Calibration attempts (default 3; 1 disables retry).")
        let wearing = try #require(CommandTable.lookup(["wearing-opt"])?.0)
        #expect(wearing.option(.position)?.defaultValue == .value(WearingOptimizationConfig.default.position.rawValue))
        #expect(wearing.option(.skinTone)?.value == .integer(ProfileRules.skinTone))
        let filter = try #require(CommandTable.lookup(["replay-filter"])?.0)
        #expect(filter.option(.scope)?.defaultValue == .value(StoreSeenSet.defaultScope))
        #expect(filter.option(.maxReadingAge)?.defaultValue == .seconds(HostRules().maxReadingAge))
    }

    @Test func anOptionsEnvironmentVariableIsReadThroughTheOption() throws {
        let env = ["CORSANO_BRACELET": "unix:/run/b.sock", "CORSANO_STATE": ""]
        let parsed = try ArgumentParser.parse(["bp-init"], environment: env)
        #expect(parsed.string(.bracelet) == "unix:/run/b.sock")
        #expect(parsed.given(.bracelet) == nil)
        #expect(parsed.source(.bracelet) == .environment(.bracelet))
        #expect(parsed.string(.state) == nil)  // empty counts as unset
        let flagWins = try ArgumentParser.parse(["bp-init", "--bracelet", "sim"], environment: env)
        #expect(flagWins.string(.bracelet) == "sim")
        #expect(flagWins.source(.bracelet) == .commandLine)
        // A bad value names where it came from.
        let bad = try ArgumentParser.parse(["bp-init"], environment: ["CORSANO_BRACELET": "ftp:x"])
        #expect(throws: UsageError.badEnvironment(variable: "CORSANO_BRACELET", value: "ftp:x",
                                                  expected: "sim, sim:SCENARIO.json, unix:PATH, tcp:HOST:PORT or exec:COMMAND")) {
            try BraceletConnector.address(bad, CommandContext(environment: [:], stdinIsTerminal: false, stdoutIsTerminal: false))
        }
        // A command without the option does not read the variable.
        #expect(try ArgumentParser.parse(["cuff", "ingest"], environment: env).string(.bracelet) == nil)
    }

    @Test func aRequiredOptionIsRefusedWhenMissingButHelpStillWins() throws {
        let spec = CommandSpec(words: ["x"], summary: "", operands: "", operandKind: nil, details: "", options: [
            OptionSpec(.device, .text, environment: .state, required: true, "Needed"), CommandTable.help,
        ], action: .command(Self.run))
        #expect(throws: UsageError.missing("x: missing --device TEXT")) { try ArgumentParser.parse([], as: spec, environment: [:]) }
        // Every missing required option at once; one that another option may supply is not
        // missing when that one is given (profile push --from).
        let two = CommandSpec(words: ["y"], summary: "", operands: "", operandKind: nil, details: "", options: [
            OptionSpec(.name, .text, required: true, unless: .from, "A"), OptionSpec(.limit, .integer(1...2), required: true, unless: .from, "B"),
            OptionSpec(.from, .path, "F"), CommandTable.help,
        ], action: .command(Self.run))
        #expect(throws: UsageError.missing("y: missing --name TEXT, --limit N (required unless --from FILE gives them)")) {
            try ArgumentParser.parse([], as: two, environment: [:])
        }
        #expect(try ArgumentParser.parse(["--from", "f"], as: two, environment: [:]).string(.name) == nil)
        #expect(try ArgumentParser.parse(["--device", "v"], as: spec, environment: [:]).string(.device) == "v")
        #expect(try ArgumentParser.parse([], as: spec, environment: ["CORSANO_STATE": "e"]).string(.device) == "e")
        #expect(try ArgumentParser.parse(["--help"], as: spec, environment: [:]).flag(.help))
    }

    /// The global flags are one list: main accepts them, the overview and completions show them.
    @Test func globalFlagsAreListedOnce() throws {
        let overview = HelpRenderer.overview()
        for option in CommandTable.global {
            #expect(overview.contains("  -\(option.short.map(String.init) ?? "?"), --\(option.name)"))
            #expect(BashCompletion.script().contains("--\(option.name)"))
            #expect(ZshCompletion.script().contains("'(- *)--\(option.name)[\(option.help)]'"))
            #expect(FishCompletion.script().contains("-n __corsano_needs_command -l \(option.name) -d '\(option.help)'"))
        }
        #expect(CompletionTree.globalFlags == ["--help", "--version"])
    }
}
