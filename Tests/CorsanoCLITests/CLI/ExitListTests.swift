import CorsanoKit
import Foundation
import Testing
@testable import CorsanoCLI

/// Each command's exit statuses are data (`CommandSpec.exits`, issue 24): its `--help` shows
/// them, and its man page's EXIT STATUS lists the same numbers; corsano(1) lists every one.
@Suite struct ExitListTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let commands = CommandTable.commands.map(\.words)

    /// The numbers of a man page's EXIT STATUS list: the heads of its `.It` items
    /// (`.It 64`, `.It 130 , 143`), and what the section says outside its list (which must not
    /// name a status: the list is the whole of it).
    static func manStatuses(_ page: String) throws -> (items: [Int32], prose: String) {
        let source = try String(contentsOf: packageRoot.appendingPathComponent("man/\(page)"), encoding: .utf8)
        var inSection = false, depth = 0
        var items: [Int32] = [], prose = ""
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(".Sh ") { inSection = line == ".Sh EXIT STATUS"; continue }
            guard inSection else { continue }
            if line.hasPrefix(".Bl ") { depth += 1 } else if line.hasPrefix(".El") { depth -= 1 }
            if depth == 1, line.hasPrefix(".It ") {
                let head = line.dropFirst(4).split { $0 == " " || $0 == "," }
                items += head.compactMap { Int32($0) }
                #expect(head.allSatisfy { Int32($0) != nil }, "\(page): EXIT STATUS item '\(line)' is not a list of statuses")
            } else if depth == 0, !line.hasPrefix(".Bl"), !line.hasPrefix(".El") {
                prose += line + "\n"
            }
        }
        return (items, prose)
    }

    /// The statuses `spec` lists.
    static func statuses(_ spec: CommandSpec) -> Set<Int32> { Set(spec.exits.map(\.status.rawValue)) }

    @Test(arguments: commands)
    func theManPageListsTheCommandsStatuses(words: [String]) throws {
        let spec = try #require(CommandTable.lookup(words)?.0)
        #expect(Self.statuses(spec).isSuperset(of: [0, 64]), "\(spec.name): no exit list, or one without 0 and 64")
        let page = try Self.manStatuses(spec.manName + ".1")
        #expect(Set(page.items) == Self.statuses(spec),
                "\(spec.manName)(1) lists \(page.items.sorted()); the table says \(Self.statuses(spec).sorted())")
        #expect(page.items.count == Set(page.items).count, "\(spec.manName)(1) lists a status twice")
    }

    /// corsano(1) lists every status any command exits with, and 70 (an error that declares
    /// none), and nothing else.
    @Test func corsanoOneListsEveryStatus() throws {
        let all = CommandTable.commands.reduce(into: Set<Int32>()) { $0.formUnion(Self.statuses($1)) }
        let page = try Self.manStatuses("corsano.1")
        #expect(Set(page.items) == all.union([CorsanoCLI.ExitStatus.internalError.rawValue]))
        #expect(Set(CorsanoCLI.ExitStatus.allCases.map(\.rawValue)) == all.union([CorsanoCLI.ExitStatus.internalError.rawValue]),
                "a status no command lists, or one ExitStatus lacks")
    }

    /// `--help` ends with an "Exit status" section, one row per status of the list.
    @Test(arguments: commands)
    func helpShowsTheExitList(words: [String]) throws {
        let spec = try #require(CommandTable.lookup(words)?.0)
        let help = HelpRenderer.help(for: spec)
        let parts = help.components(separatedBy: "\nExit status:\n")
        try #require(parts.count == 2, "\(spec.name) --help has no Exit status section")
        let section = parts[1]
        let shown = section.split(separator: "\n").compactMap { line in
            line.hasPrefix("  ") ? Int32(line.dropFirst(2).prefix { $0 != " " }) : nil
        }
        #expect(shown == Self.statuses(spec).sorted(), "\(spec.name) --help shows \(shown)")
        for (_, text) in spec.exitRows {
            #expect(section.replacing(/\s+/, with: " ").contains(text), "\(spec.name) --help lacks '\(text)'")
        }
    }

    /// Busy is not broken: wherever a command claims or repairs a bracelet, a live run holding it
    /// is 75 (waiting fixes it), in its list, its man page and its errors; no 69 says so
    /// (docs/design.md "Plan safety", "Exit status").
    @Test(arguments: [["bp-init"], ["wearing-opt"], ["profile", "push"], ["bracelet", "repair"]])
    func aBraceletALiveRunHoldsIs75(words: [String]) throws {
        let spec = try #require(CommandTable.lookup(words)?.0)
        #expect(spec.exits.contains { $0.status == .notYet && $0.text.contains("live run holds the bracelet") }, "\(spec.name)")
        #expect(!spec.exits.contains { $0.status == .unavailable && $0.text.contains("held") }, "\(spec.name)")
        let page = try String(contentsOf: Self.packageRoot.appendingPathComponent("man/\(spec.manName).1"), encoding: .utf8)
        let item75 = try #require(page.components(separatedBy: "\n.It 75\n").dropFirst().first?.components(separatedBy: "\n.It ").first)
        #expect(item75.contains("live run holds the bracelet"), "\(spec.manName)(1)'s 75 does not name a held bracelet")
        #expect(ErrorTranslator.status(of: BraceletError.busy("held", retryAfter: nil)) == .notYet)
        #expect(ErrorTranslator.status(of: BraceletError.held(BraceletHolder(run: "r", gateway: "g", pid: 1))) == .notYet)
        #expect(ErrorTranslator.status(of: BraceletError.unavailable("not a 287-2")) == .unavailable)
    }

    /// The example: bp-init's help said nothing of 65 (a bad scenario) or 77.
    @Test func bpInitsHelpShowsBadDataAndNotPermitted() throws {
        let help = HelpRenderer.help(for: try #require(CommandTable.lookup(["bp-init"])?.0))
        #expect(help.contains("\n  65    the --bracelet scenario is invalid"))
        #expect(help.contains("\n  77    "))
    }
}
