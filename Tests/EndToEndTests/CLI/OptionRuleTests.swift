@testable import CorsanoCLI
import CorsanoKit
import Foundation
import Testing

/// Issue 23: rules between options are table data, checked in the validate phase (64) before a
/// handler opens a file (66), a store (74) or a bracelet (69).
@Suite struct OptionRuleTests {
    static let spec = CommandSpec(
        words: ["probe"], summary: "", operands: "[sign]", operandKind: .choice(["sign"]), details: "", options: [
            OptionSpec(.format, .choice(["jsonl", "fhir"]), default: .value("jsonl"), "F"),
            OptionSpec(.bundle, "B"), OptionSpec(.deriveMap, "D"), OptionSpec(.now, .time, "N"), OptionSpec(.due, .integer(1...9), "U"),
            OptionSpec(.run, .text, "R"), OptionSpec(.name, .text, "N"), OptionSpec(.verify, "V"), CommandTable.help,
        ], action: .command { _, _ in .success },
        rules: [.requiresValue(.bundle, .format, ["fhir"]), .excludesValue(.deriveMap, .format, ["fhir"], because: "derived"),
                .requires(.now, .due), .requiresOperand(.run, "sign"), .operand("sign", requires: [.run, .name], refuses: [.verify])])

    static func error(_ words: [String]) -> UsageError? {
        do { _ = try ArgumentParser.parse(words, as: spec, environment: [:]); return nil } catch let e as UsageError { return e } catch { return nil }
    }

    @Test(arguments: [
        (["--bundle"], "--bundle needs --format fhir"),
        (["--bundle", "--format", "jsonl"], "--bundle needs --format fhir"),
        (["--derive-map", "--format=fhir"], "--derive-map and --format fhir exclude each other (derived)"),
        (["--now", "2026-01-01T00:00:00Z"], "--now needs --due"),
        (["--run", "r"], "--run needs 'probe sign'"),
        (["sign", "--run", "r"], "probe sign: --run and --name are required"),
        (["sign", "--run", "r", "--name", "n", "--verify"], "probe sign: --verify is not an option of sign"),
    ])
    func eachRuleRefusesNamingTheOptions(words: [String], message: String) {
        #expect(Self.error(words)?.message == message)
    }

    @Test(arguments: [["--bundle", "--format", "fhir"], ["--derive-map"], ["--now", "2026-01-01T00:00:00Z", "--due", "3"],
                      ["sign", "--run", "r", "--name", "n"], ["--bundle", "--help"]])
    func aLineThatKeepsTheRulesParses(words: [String]) {
        #expect(Self.error(words) == nil)
    }

    /// The issue's examples on the binary: a usage error wins over a missing input (64, not 66),
    /// and nothing is written.
    @Test(arguments: [
        ["cuff", "ingest", "/nonexistent", "--format", "fhir", "--subject", "bogus"],
        ["cuff", "ingest", "/nonexistent", "--derive-map", "--format", "fhir"],
        ["cuff", "ingest", "/nonexistent", "--bundle"],
        ["cuff", "ingest", "/nonexistent", "--anchor-phone", "2026-01-01T00:00:00Z"],
        ["cuff", "ingest", "/nonexistent", "--column", "nonsense=1"],
        ["history", "--state", "/nonexistent/state.sqlite3", "--now", "2026-01-01T00:00:00Z"],
        ["history", "sign", "--state", "/nonexistent/state.sqlite3", "--run", "r", "--name", " ", "--meaning", "review"],
        ["bp-init", "--cuff", "/nonexistent", "--clock", "real", "--now", "2026-01-01T00:00:00Z"],
        ["cuff", "ingest", "/nonexistent", "--header-line", "0"],
        ["replay-filter", "/nonexistent", "--backdate", "5min"],
    ])
    func aUsageErrorWinsOverAMissingInput(args: [String]) throws {
        let r = try Corsano.run(args)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(!r.stderr.contains("No such file"))
    }

    /// Every key is an option of some command (no key without an option), and every profile
    /// field has its key (`ProfileInput.flags`).
    @Test func everyKeyIsUsedAndEveryProfileFieldHasOne() {
        let used = Set((CommandTable.commands + REPLGrammar.sessionCommands).flatMap(\.options).map(\.key) + CommandTable.global.map(\.key))
        #expect(Set(OptionKey.allCases).subtracting(used).isEmpty)
        #expect(ProfileInput.flags.map(\.0) == ProfileRules.fields)
    }
}
