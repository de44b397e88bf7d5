import Foundation
import Testing
@testable import corsano

/// Man pages and `--help` do not drift from the command table: every flag of every command
/// appears in its corsano-CMD(1) page and in its `--help` output.
@Suite struct ManPageTests {
    static let commands = CommandTable.commands.map(\.words)

    /// The page rendered as plain text by mandoc (wide, so no flag is broken across lines).
    static func rendered(_ page: String) throws -> String {
        let path = Corsano.packageRoot.appendingPathComponent("man/\(page)").path
        let out = try Shell.run("mandoc", ["-T", "ascii", "-O", "width=250", path])
        #expect(out.status == 0, "mandoc \(page): \(out.stderr)")
        // Strip overstrike bold and underline (`X\bX`, `_\bX`).
        return out.stdout.replacing(/.\u{8}/, with: "")
    }

    /// True when `text` has `flag` as a whole word (`--cuff` is not found in `--cuff-cmd`).
    static func mentions(_ text: String, _ flag: String) -> Bool {
        var rest = Substring(text)
        while let r = rest.range(of: flag) {
            let after = rest[r.upperBound...].first
            if after == nil || !(after!.isLetter || after!.isNumber || after! == "-") { return true }
            rest = rest[r.upperBound...]
        }
        return false
    }

    @Test(arguments: commands)
    func everyFlagIsInTheManPage(words: [String]) throws {
        let spec = try #require(CommandTable.lookup(words)?.0)
        let text = try Self.rendered(spec.manName + ".1")
        #expect(text.contains("corsano \(spec.name)"))
        for option in spec.options {
            #expect(Self.mentions(text, "--" + option.name), "\(spec.manName)(1) lacks --\(option.name)")
        }
    }

    @Test(arguments: commands)
    func everyFlagIsInHelp(words: [String]) throws {
        let spec = try #require(CommandTable.lookup(words)?.0)
        // `help` itself takes no --help; `corsano help help` prints the same text.
        let r = try Corsano.run(spec.option("help") == nil ? ["help"] + words : words + ["--help"])
        #expect(r.status == 0)
        for option in spec.options {
            #expect(Self.mentions(r.stdout, "--" + option.name), "corsano \(spec.name) --help lacks --\(option.name)")
        }
    }

    @Test func overviewPageNamesEveryCommandAndExitStatus() throws {
        let text = try Self.rendered("corsano.1")
        for spec in CommandTable.commands {
            #expect(text.contains(spec.manName + "(1)"), "corsano(1) lacks \(spec.manName)(1)")
        }
        for variable in ["CORSANO_STATE", "CORSANO_BRACELET", "XDG_STATE_HOME", "LC_ALL", "LANG", "NO_COLOR"] {
            #expect(text.contains(variable), "corsano(1) lacks \(variable)")
        }
        for status in ["0", "1", "3", "4", "64", "65", "66", "69", "74", "130, 143", "141"] {
            #expect(text.contains("\n     \(status) "), "corsano(1) lacks exit status \(status)")
        }
    }

    @Test(arguments: ["corsano-formats.5", "corsano-scenario.5", "corsano-bridge.7"])
    func sectionFiveAndSevenPagesRender(page: String) throws {
        let text = try Self.rendered(page)
        #expect(text.hasPrefix(page.uppercased().replacing(/\.(\d)$/) { "(\($0.1))" }))
    }

    @Test func formatsPageGivesTheValidatorRanges() throws {
        let text = try Self.rendered("corsano-formats.5")
        for line in ["50 to 300 mmHg", "20 to 200 mmHg", "20 to 250 bpm"] {
            #expect(text.contains(line))
        }
    }

    /// Every method of docs/bridge-protocol.md's table is described in corsano-bridge(7).
    @Test func bridgePageNamesEveryProtocolMethod() throws {
        let doc = try String(contentsOf: Corsano.packageRoot.appendingPathComponent("docs/bridge-protocol.md"), encoding: .utf8)
        let table = doc.components(separatedBy: "## Methods").dropFirst().first?.components(separatedBy: "\n\n").dropFirst().first ?? ""
        let methods = table.split(separator: "\n").compactMap { row -> String? in
            guard row.hasPrefix("| `") else { return nil }
            return row.dropFirst(3).split(separator: "`").first.map(String.init)
        }
        #expect(methods.count == 12)
        let text = try Self.rendered("corsano-bridge.7")
        for method in methods + ["disconnected", "cancel", "sim.waitUntilHeld", "sim.disconnect"] {
            #expect(text.contains(method), "corsano-bridge(7) lacks \(method)")
        }
    }
}
