@testable import CorsanoCLI
import Foundation
import Testing

/// `--help` at the terminal's width (point 2 covers help too): at 40 columns every
/// line fits, no word is broken, and the words are those of the wide text. Taken from `COLUMNS`
/// and, in tmux, from the terminal itself.
@Suite struct HelpWidthTests {
    /// Every help page: the overview, each command's, each group's.
    static let pages: [[String]] = [["--help"], ["cuff", "--help"]] + CommandTable.commands.map { spec in
        spec.option(.help) == nil ? ["help"] + spec.words : spec.words + ["--help"]
    }

    static func words(_ text: String) -> [String] { text.split(whereSeparator: \.isWhitespace).map(String.init) }

    /// The words of `narrow` are those of `wide`, each whole (issue 24: never split inside a word).
    static func sameWords(_ narrow: String, _ wide: String) -> Bool { words(narrow) == words(wide) }

    /// A line wider than `width` is one word, indented: a word no line could hold, kept whole.
    static func fits(_ line: Substring, _ width: Int) -> Bool { line.count <= width || words(String(line)).count == 1 }

    @Test(arguments: pages)
    func fitsFortyColumnsFromCOLUMNS(page: [String]) throws {
        let narrow = try Corsano.run(page, env: ["COLUMNS": "40"])
        let wide = try Corsano.run(page, env: ["COLUMNS": "250"])
        #expect(narrow.status == 0)
        for line in narrow.stdout.split(separator: "\n") where !Self.fits(line, 38) {
            Issue.record("\(page) at 40 columns: a line of \(line.count): \(line)")
        }
        #expect(Self.sameWords(narrow.stdout, wide.stdout), "\(page): words differ between 40 and 250 columns:\n\(narrow.stdout)")
        // Wide, an option's description stays on the line of an option that leaves room for it.
        for line in wide.stdout.split(separator: "\n") where line.hasPrefix("  --") && !line.contains(/^  \S+( \S+)? *$/) {
            #expect(line.contains(/\S  +\S/), "\(page) at 250 columns: \(line)")
        }
    }

    @Test func fitsTheTerminalInTmux() throws {
        let terms = try Self.pages.map { ($0, try Tmux($0, columns: 40, rows: 60)) }
        for (page, term) in terms {
            try term.waitFor("[exited 0]")
            let rows = try term.transcript().filter { !$0.hasPrefix("[exited") }
            for row in rows where !Self.fits(row[...], 40) {
                Issue.record("\(page) in a 40-column terminal: a row of \(row.count) (wrapped by the terminal): \(row)")
            }
            let wide = try Corsano.run(page, env: ["COLUMNS": "250"])
            #expect(Self.sameWords(rows.joined(separator: "\n"), wide.stdout), "\(page): words differ:\n\(rows.joined(separator: "\n"))")
        }
    }

    /// Piped with no `COLUMNS`, help is laid out for 80 columns.
    @Test func pipedHelpFitsEightyColumns() throws {
        let r = try Corsano.run(["bp-init", "--help"], env: ["COLUMNS": ""])
        for line in r.stdout.split(separator: "\n") { #expect(line.count <= 78, "\(line)") }
        // A description too long for its line goes on under itself, in its column.
        #expect(r.stdout.contains(/\n  --cuff FILE {17}\S[^\n]*\n {30}\S/), "\(r.stdout)")
    }
}
