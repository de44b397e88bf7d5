import CorsanoKit
import Foundation
import Testing
@testable import CorsanoCLI

/// Man pages and `--help` do not drift from the command table: the pages' OPTIONS and
/// ENVIRONMENT are checked against the table in both directions, with the same defaults, and
/// every flag appears in its `--help` output.
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

    /// A man page's source read as the table check needs it: the OPTIONS items (`.It Fl -name`)
    /// with their text (macro names dropped), the flags the section mentions outside items (those
    /// it sends to corsano(1)), and the ENVIRONMENT items (`.It Ev A , B`).
    struct Page {
        var items: [String: String] = [:]
        var referred: Set<String> = []
        var environment: Set<String> = []

        init(_ name: String) throws {
            let source = try String(contentsOf: Corsano.packageRoot.appendingPathComponent("man/\(name)"), encoding: .utf8)
            var section = "", item: String?
            for line in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.hasPrefix(".Sh ") { section = String(line.dropFirst(4)); item = nil; continue }
                if section == "ENVIRONMENT", line.hasPrefix(".It Ev ") {
                    environment.formUnion(line.dropFirst(7).split(separator: " ").map(String.init).filter { $0 != "," })
                }
                guard section == "OPTIONS" else { continue }
                if line.hasPrefix(".It Fl -"), let flag = line.dropFirst(7).split(separator: " ").first {
                    item = String(flag.dropFirst())
                    items[item!] = ""
                } else if line.hasPrefix(".El") || line.hasPrefix(".Ss") || line.hasPrefix(".Pp") {
                    item = nil
                } else if let item {
                    items[item, default: ""] += " " + (line.hasPrefix(".") ? String(line.drop { $0 != " " }.dropFirst()) : line)
                } else if line.hasPrefix(".Fl -"), let flag = line.dropFirst(5).split(separator: " ").first {
                    referred.insert(String(flag))
                }
            }
        }

        /// The words right after each `default` in an item's text (`(default 300)` → `300`).
        static func defaults(in text: String) -> [String] {
            text.matches(of: /default[: ]+([^\s,;)]+)/).map { String($0.1) }
        }
    }

    /// Every flag a page describes is the command's, and every flag of the command is described
    /// on its page or on corsano(1) where the page sends it; a default the table takes from the
    /// core is the one the page states, and the page states no default the table lacks; an
    /// option's environment variable is named where the option is described.
    @Test(arguments: commands)
    func theManPageAndTheTableAgreeBothWays(words: [String]) throws {
        let spec = try #require(CommandTable.lookup(words)?.0)
        let page = try Page(spec.manName + ".1"), overview = try Page("corsano.1")
        let text = try Self.rendered(spec.manName + ".1")
        #expect(text.contains("corsano \(spec.name)"))
        #expect(!page.items.isEmpty, "\(spec.manName)(1) has no OPTIONS items")
        for flag in page.items.keys.sorted() {
            #expect(spec.option(named: flag) != nil, "\(spec.manName)(1) describes --\(flag), which corsano \(spec.name) does not take")
        }
        for flag in page.referred.sorted() {
            #expect(spec.option(named: flag) != nil, "\(spec.manName)(1) refers to --\(flag), which corsano \(spec.name) does not take")
        }
        for option in spec.options {
            // The common options (`CommandTable.common`) are described once, on corsano(1).
            let common = CommandTable.common.contains { $0.key == option.key }
            let described = page.items[option.name] ?? (page.referred.contains(option.name) || common ? overview.items[option.name] : nil)
            guard let described else {
                Issue.record("\(spec.manName)(1) lacks --\(option.name)")
                continue
            }
            let stated = Page.defaults(in: described)
            switch option.defaultValue {
            case .value(let value)?:
                #expect(stated.contains(value), "\(spec.manName)(1) --\(option.name): default \(value) in the table, \(stated) on the page")
            case .rule?:
                break  // prose on both sides
            case nil:
                #expect(stated.isEmpty, "\(spec.manName)(1) --\(option.name) states a default \(stated) the table lacks")
            }
            if let variable = option.environment {
                let both = described + (overview.items[option.name] ?? "")
                #expect(both.contains(variable.rawValue), "\(spec.manName)(1) --\(option.name) does not name \(variable.rawValue)")
            }
        }
    }

    /// corsano(1) describes the global flags and the shared options it is sent for.
    @Test func theOverviewPageDescribesTheGlobalAndSharedOptions() throws {
        let overview = try Page("corsano.1")
        let shared = CommandTable.global + CommandTable.common + CommandTable.bracelet + CommandTable.output + CommandTable.state
            + CommandTable.journal
        #expect(Set(overview.items.keys) == Set(shared.map(\.name)))
        for option in CommandTable.bracelet + CommandTable.output + CommandTable.state + CommandTable.journal {
            if case .value(let value)? = option.defaultValue {
                #expect(Page.defaults(in: overview.items[option.name] ?? "").contains(value), "corsano(1) --\(option.name) lacks default \(value)")
            }
        }
    }

    /// ENVIRONMENT sections list exactly the variables the table says they do, and every
    /// variable behind an option is one of those.
    @Test func environmentSectionsMatchTheTable() throws {
        for page in ["corsano.1"] + CommandTable.commands.map { $0.manName + ".1" } {
            let expected = Set(EnvironmentVariable.allCases.filter { $0.manPage == page }.map(\.rawValue))
            #expect(try Page(page).environment == expected, "\(page) ENVIRONMENT")
        }
        for spec in CommandTable.commands {
            for option in spec.options {
                if let variable = option.environment { #expect(variable.manPage != nil, "\(variable.rawValue) is documented nowhere") }
            }
        }
    }

    @Test(arguments: commands)
    func everyFlagIsInHelp(words: [String]) throws {
        let spec = try #require(CommandTable.lookup(words)?.0)
        // `help` itself takes no --help; `corsano help help` prints the same text.
        let r = try Corsano.run(spec.option(.help) == nil ? ["help"] + words : words + ["--help"])
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
        for status in ["0", "1", "3", "4", "64", "65", "66", "69", "74", "130, 143, 129", "141"] {
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
        #expect(methods.count == 14)
        let text = try Self.rendered("corsano-bridge.7")
        for method in methods + ["disconnected", "cancel", "sim.waitUntilHeld", "sim.disconnect", "simCuffReading"] {
            #expect(text.contains(method), "corsano-bridge(7) lacks \(method)")
        }
    }

    /// `cuff ingest --help` lists the --from formats (a short list), not only FORMAT.
    @Test func cuffIngestHelpListsTheFromFormats() throws {
        let help = try Corsano.run(["cuff", "ingest", "--help"]).stdout.replacing(/\s+/, with: " ")
        for format in ["auto"] + IngestFormat.allCases.map(\.rawValue) {
            #expect(help.contains(" \(format),") || help.contains(" \(format) "), "--help lacks \(format): \(help)")
        }
        #expect(help.contains("or csv:LAYOUT"))
    }

    /// scripts/checks/man.sh renders a page as man shows it at MANWIDTH=80: a page whose literal
    /// line renders 81 columns wide fails it, naming the page and the width; the same page with
    /// the line one column shorter passes (so the failure is the width's, not the page's).
    @Test(arguments: [80, 81])
    func theManCheckFailsOnARenderedLineOver80Columns(columns: Int) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("man-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("corsano-width.1")
        func write(_ literal: String) throws {
            try """
                .Dd December 7, 2026
                .Dt CORSANO-WIDTH 1
                .Os
                .Sh NAME
                .Nm corsano-width
                .Nd a page of one literal line
                .Sh DESCRIPTION
                .Bd -literal
                \(literal)
                .Ed

                """.write(to: path, atomically: true, encoding: .utf8)
        }
        // Where man puts the literal line: its indent, read from the page rendered with "x".
        try write("x")
        let probe = try Shell.run("sh", ["-c", "MANWIDTH=80 man -l \"$1\" | col -bx", "sh", path.path])
        let indent = try #require(probe.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces) == "x" }).prefix { $0 == " " }.count
        try write(String(repeating: "x", count: columns - indent))
        let check = try Shell.run("bash", [Corsano.packageRoot.appendingPathComponent("scripts/checks/man.sh").path, dir.path])
        if columns > 80 {
            #expect(check.status == 1, "\(check.stdout)")
            #expect(check.stderr.contains("man: corsano-width.1: rendered line") && check.stderr.contains("is 81 columns wide"), "\(check.stderr)")
        } else {
            #expect(check.status == 0, "\(check.stderr)")
        }
    }
}
