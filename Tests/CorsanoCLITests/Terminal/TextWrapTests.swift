import CorsanoKit
import Testing
@testable import CorsanoCLI

/// The one wrapper of human text on a terminal (`TextLayout.wrap`, issue 24 build 2) over every
/// string of the en, de and ar catalogs at every width from 20 to 120 columns: no line wider than
/// the width unless it holds one word that is; no word split; the text unchanged but for the
/// spaces that became line breaks (and the isolates a phrase broken at its spaces closes and
/// opens again).
@Suite struct TextWrapTests {
    static let locales: [AppLocale] = [.en, .de, .ar]
    static let widths = Array(20...120)

    /// Every catalog string of `locale`, its placeholders filled with values as long as real ones
    /// (a path with no space wider than any line, a phrase with spaces, a reading).
    static func texts(_ locale: AppLocale) -> [String] { catalogs[locale] ?? [] }

    static let catalogs = Dictionary(uniqueKeysWithValues: locales.map { ($0, catalog($0)) })

    static func catalog(_ locale: AppLocale) -> [String] {
        let l = Localizer(locale: locale)
        let values = ["/var/lib/corsano/state/calibration-records-of-the-ward.sqlite3", "bracelet refused the plan switch",
                      "120/80", "SIM-287-0042", "72", "3", "2026-12-02T09:00:00Z", "left", "5"]
        return L10nKey.allCases.map { key in
            // One space between words: the wrapper keeps words and their order, not runs of spaces.
            l.string(key, values).split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
                .joined(separator: "\n")
        }
    }

    /// `text` without bidi isolates (what a reader sees).
    static func visible(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { !(0x2066...0x2069).contains($0.value) }))
    }

    static func words(_ text: String) -> [String] { visible(text).split(whereSeparator: \.isWhitespace).map(String.init) }

    @Test(arguments: locales, widths)
    func everyCatalogStringWrapsAtSpacesWithinTheWidth(_ locale: AppLocale, _ width: Int) {
        let layout = TextLayout(width: width, color: false, rightToLeft: locale.isRightToLeft)
        // Plain, a help table's name column, a list item: each text in one of them, in turn by width.
        let layouts = [("", ""), ("  --cuff FILE  ", String(repeating: " ", count: 15)), ("2. ", "   ")]
        for (n, text) in Self.texts(locale).enumerated() {
            do {
                let (first, indent) = layouts[(n + width) % layouts.count]
                let lines = layout.wrap(text, indent: indent, first: first)
                for (i, line) in lines.enumerated() where TextLayout.columns(line) > width {
                    let body = line.dropFirst(i == 0 ? first.count : indent.count)
                    // One word as the wrapper counts them: a sign that may not start a line (`75 %`) goes with it.
                    #expect(TextLayout.words(String(body)).count == 1,
                            "\(locale.tag) at \(width): a line of \(TextLayout.columns(line)) with more than one word: \(line)")
                }
                #expect(Self.words(lines.joined(separator: " ")) == Self.words(first + text), "\(locale.tag) at \(width): \(lines)")
                // Unchanged but for line breaks: the lines, their indents taken off, joined by
                // single spaces, are the text with its newlines as spaces.
                let joined = lines.enumerated().map { i, line in String(line.dropFirst(i == 0 ? first.count : indent.count)) }
                #expect(Self.visible(joined.joined(separator: " ")) == Self.visible(text.replacing("\n", with: " ")),
                        "\(locale.tag) at \(width): \(lines)")
            }
        }
    }

    /// The cases: `…the r` / `ecords` at 80 columns; an Arabic word split; a word wider
    /// than the line is kept whole on a line of its own.
    @Test func aWordIsNeverSplit() {
        let layout = TextLayout(width: 20, color: false, rightToLeft: false)
        #expect(layout.wrap("x 0123456789012345678901234 y", indent: "  ") == ["  x", "  0123456789012345678901234", "  y"])
        #expect(layout.wrap("the records were written", indent: "") == ["the records were", "written"])
        let ar = TextLayout(width: 20, color: false, rightToLeft: true)
        let text = "تعذّر الوصول إلى السوار الاستشعاري"
        let lines = ar.wrap(text, indent: "")
        #expect(lines == ["تعذّر الوصول إلى", "السوار الاستشعاري"])
        #expect(Self.words(lines.joined(separator: " ")) == Self.words(text))
        #expect(ar.lines(text) == "\u{200F}تعذّر الوصول إلى\n\u{200F}السوار الاستشعاري\n")
        // An isolated value (`Localizer` isolates each in ar) whose first word is wider than a line:
        // that word alone on a line, the rest of the phrase wrapped after it.
        let path = "unix:/tmp/corsano-a-socket-path-wider-than-a-line.sock:"
        #expect(ar.wrap("تعذّر: \u{2068}\(path) No such file\u{2069}", indent: "")
                == ["تعذّر:", "\u{2068}\(path)\u{2069}", "\u{2068}No such file\u{2069}"])
    }

    /// Runs of spaces between words on a line are kept (`status` aligns its values with them);
    /// where the line breaks, the run goes.
    @Test func spacesBetweenWordsAreKept() {
        let layout = TextLayout(width: 20, color: false, rightToLeft: false)
        #expect(layout.wrap("plan      monitoring", indent: "") == ["plan      monitoring"])
        #expect(layout.wrap("bracelet  model 287-2, serial SIM-287-0001", indent: "          ", first: "", width: 30)
                == ["bracelet  model 287-2, serial", "          SIM-287-0001"])
    }

    /// Display width: a grapheme with combining marks is one column, an East Asian wide letter two.
    @Test func widthIsCountedInColumns() {
        let layout = TextLayout(width: 10, color: false, rightToLeft: false)
        let accented = String(repeating: "e\u{301}", count: 4)
        #expect(layout.wrap("\(accented) \(accented) ab", indent: "") == ["\(accented) \(accented)", "ab"])
        #expect(layout.wrap("血压 血压 血压", indent: "") == ["血压 血压", "血压"])
    }

    /// A diagnostic reads right to left when its words do: a translated message, not an English
    /// one in an Arabic run; a value in an isolate does not decide.
    @Test func directionComesFromTheFirstStrongLetter() {
        #expect(TextLayout.startsRightToLeft("تعذّر الوصول"))
        #expect(TextLayout.startsRightToLeft("120/80 \u{2068}abc\u{2069} تعذّر"))
        #expect(!TextLayout.startsRightToLeft("state store /x: تعذّر"))
        #expect(!TextLayout.startsRightToLeft("120/80"))
    }
}
