import CorsanoKit

/// Lays `TextBlock`s out for a plain terminal: wrapped to the terminal's width, optional ANSI
/// colour, progress as a bar, right-to-left locales marked for bidi-aware terminals.
///
/// Right-to-left (ar, he): a plain terminal cannot right-align text without knowing its width,
/// and padding would break on resize and in pipes, so lines stay left-aligned in logical order.
/// Each line starts with U+200F RIGHT-TO-LEFT MARK, so terminals that implement the Unicode
/// bidi algorithm (VTE with bidi, Konsole, mlterm) take the line as a right-to-left paragraph
/// even when it opens with a number or bullet; `Localizer` wraps every substituted value in
/// FSI…PDI isolates so `120/80` or a firmware message keeps its own order, and wrapping never
/// breaks a line inside an isolate. Terminals without bidi show the marks as nothing (they are
/// zero-width format characters) and the Arabic or Hebrew letters in logical order. Digits stay
/// ASCII, as on the cuff's display and in JSON.
struct TextLayout: Sendable {
    /// The terminal whose columns the text is laid out for (read at every render, so a resize
    /// applies from the next screen on).
    var terminal: TerminalWidth
    var color: Bool
    var rightToLeft: Bool

    /// The narrowest line width laid out; below it words would be cut almost everywhere.
    static let minimumWidth = 10

    /// Lays out for `terminal`.
    init(terminal: TerminalWidth, color: Bool, rightToLeft: Bool) {
        self.terminal = terminal
        self.color = color
        self.rightToLeft = rightToLeft
    }

    /// Lays out lines of at most `width` columns (a terminal of `width + 2`).
    init(width: Int = 78, color: Bool, rightToLeft: Bool) {
        self.init(terminal: TerminalWidth(columns: width + 2), color: color, rightToLeft: rightToLeft)
    }

    /// Columns a line may use: the terminal's less two — one for the right-to-left mark, which
    /// some terminals draw as a cell, and one so that no line reaches the last column, where a
    /// terminal wraps (or, for the progress line, leaves a stale row at the next redraw).
    var width: Int { max(Self.minimumWidth, terminal.columns - 2) }

    /// The text of `blocks`, each line ending in a newline.
    func render(_ blocks: [TextBlock], first: Bool) -> String {
        let width = self.width
        var lines: [String] = []
        for block in blocks {
            switch block {
            case .title(let title):
                if !(first && lines.isEmpty) { lines.append("") }
                let wrapped = wrap(title, indent: "", width: width)
                lines += wrapped.map { style($0, .title) }
                // Under the title's widest line, but no wider than a line (a title word may be).
                lines.append(String(repeating: "-", count: min(width, wrapped.map { Self.columns($0) }.max() ?? 0)))
            case .text(let text, let tone):
                lines += wrap(text, indent: "", width: width).map { style($0, tone) }
            case .list(let items, let numbered):
                for (i, item) in items.enumerated() {
                    let marker = numbered ? "\(i + 1). " : "- "
                    lines += wrap(item, indent: String(repeating: " ", count: marker.count), first: marker, width: width)
                }
            case .progress(let percent, let detail):
                lines.append(progressLine(percent: percent, detail: detail, width: width))
            }
        }
        return marked(lines)
    }

    /// `lines` each ended with a newline, and marked (RLM) in a right-to-left layout unless empty.
    private func marked(_ lines: [String]) -> String {
        lines.map { $0.isEmpty ? "\n" : mark + $0 + "\n" }.joined()
    }

    /// A prompt the person answers on its last line: wrapped like a paragraph (a leading `2. `
    /// hangs like a list item), each line marked in right-to-left locales, and the space before
    /// the answer kept.
    func prompt(_ text: String) -> String {
        let width = self.width
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        var lines: [String] = []
        for (i, body) in paragraphs.enumerated() {
            let marker = body.prefix { $0.isNumber }
            let hang = !marker.isEmpty && body.dropFirst(marker.count).hasPrefix(". ") ? marker + ". " : ""
            func lay(_ width: Int) -> [String] {
                wrap(String(body.dropFirst(hang.count)), indent: String(repeating: " ", count: hang.count), first: String(hang), width: width)
            }
            var wrapped = lay(width)
            // The answer is typed after the last line: leave it room for `120/80 72` and more.
            // Either the whole paragraph or its last line alone is wrapped narrower, whichever
            // keeps more of the prompt's end together (`(for example 120/80 72):`), then fewer lines.
            let narrower = width - Self.answerRoom
            if i == paragraphs.count - 1, let last = wrapped.last, Self.columns(last) > narrower, narrower >= Self.minimumWidth {
                let indent = wrapped.count == 1 ? "" : String(repeating: " ", count: hang.count)
                let whole = lay(narrower)
                let lastAlone = wrapped.count == 1 ? whole
                    : wrapped.dropLast() + wrap(String(last.dropFirst(indent.count)), indent: indent, width: narrower)
                let score = { (lines: [String]) in (Self.columns(lines.last ?? ""), -lines.count) }
                wrapped = score(lastAlone) >= score(whole) ? lastAlone : whole
            }
            lines += wrapped
        }
        return lines.map { $0.isEmpty ? $0 : mark + $0 }.joined(separator: "\n") + " "
    }

    /// Columns a prompt's last line leaves free for the answer typed after it.
    static let answerRoom = 12

    private var mark: String { rightToLeft ? "\u{200F}" : "" }

    /// The number of bar cells: one per 5 %.
    static let barCells = 20

    /// `[########------------] detail`, at most `width` columns, so that a redraw in place stays
    /// on one row: on a narrow terminal the bar shrinks (to 5 cells), then goes (the detail says
    /// the percentage too), and only a detail too long for the line alone is cut, ending in `…`.
    func progressLine(percent: Int, detail: String, width: Int? = nil) -> String {
        let width = width ?? self.width
        let detailColumns = Self.columns(detail)
        // "[" + bar + "] " + detail
        let cells = min(Self.barCells, width - 3 - detailColumns)
        let fewest = Self.barCells / 4
        if cells >= fewest { return bar(percent, cells: cells) + detail }
        if detailColumns <= width { return detail }
        return bar(percent, cells: fewest) + Self.truncate(detail, to: max(0, width - 3 - fewest))
    }

    /// `[###--] ` with `cells` cells, `percent * cells / 100` of them filled.
    private func bar(_ percent: Int, cells: Int) -> String {
        let filled = max(0, min(cells, percent * cells / 100))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled)
        return "[" + (color ? "\u{1B}[36m" + bar + "\u{1B}[0m" : bar) + "] "
    }

    /// The one wrapper of human text for a terminal: the lines of `text`, each at most
    /// `width` columns (the layout's by default) unless one word alone is wider. Each paragraph
    /// (a `\n` starts one) is laid out on its own; the first line starts with `first` (a marker
    /// or a name column: `2. `, `  --cuff FILE   `), every other line with `indent`.
    ///
    /// Lines break only at spaces: never inside a word, in any script, and never inside a Unicode
    /// isolate (FSI, LRI or RLI up to its PDI), except that an isolated phrase wider than a whole
    /// line breaks at a space inside it (`split`). A word wider than a line stays whole on a line
    /// of its own: the terminal folds it at its edge, and the next word starts a new line, so the
    /// layout stays where it thinks it is. Width is counted in terminal columns (`columns`).
    /// The text is unchanged but for the spaces that became line breaks.
    func wrap(_ text: String, indent: String = "", first: String? = nil, width: Int? = nil) -> [String] {
        let width = max(Self.minimumWidth, width ?? self.width)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { i, paragraph in
            Self.wrap(String(paragraph), first: i == 0 ? first ?? indent : indent, indent: indent, width: width)
        }
    }

    /// `text` wrapped (`wrap`) as terminal text: every line marked in a right-to-left layout and
    /// ended with a newline.
    func lines(_ text: String, indent: String = "", first: String? = nil) -> String {
        marked(wrap(text, indent: indent, first: first))
    }

    /// One paragraph (no newline in `text`) wrapped: see `wrap(_:indent:first:width:)`.
    private static func wrap(_ text: String, first: String, indent: String, width: Int) -> [String] {
        let indentColumns = columns(indent)
        var lines: [String] = []
        var current = first
        var currentWidth = columns(first)
        var empty = true  // no word on `current` yet
        for (gap, word) in spacedWords(text) {
            var word = word
            var w = columns(word)
            if !empty, currentWidth + gap.count + w > width {
                lines.append(current)
                current = indent
                currentWidth = indentColumns
                empty = true
            }
            // An isolated phrase too wide even for a line of its own breaks at its spaces (`split`).
            while empty, currentWidth + w > width, let (head, tail) = split(word, fitting: width - currentWidth) {
                lines.append(current + head)
                current = indent
                currentWidth = indentColumns
                word = tail
                w = columns(word)
            }
            // Spaces before a word go with it on its line (a paragraph's leading ones too), never
            // to the start of a line the wrap began.
            if !empty || lines.isEmpty { current += gap; currentWidth += gap.count }
            current += word
            currentWidth += w
            empty = false
        }
        lines.append(current)
        return lines
    }

    /// The words of `text`: runs between spaces, where a space inside an isolate (FSI, LRI or
    /// RLI up to its PDI) belongs to the word, and so does the space before a sign that may not
    /// start a line (`75 %`, `position : assis`, `[o/n] ?`; UAX #14 classes PO, CL, EX, IS).
    static func words(_ text: String) -> [String] { spacedWords(text).map(\.word) }

    /// The words of `text` (`words`), each with the spaces before it: kept as they are between
    /// words on one line (`status`'s `bracelet  model …`), dropped where the line breaks.
    static func spacedWords(_ text: String) -> [(gap: String, word: String)] {
        var words: [(gap: String, word: String)] = []
        var gap = ""
        var word = ""
        var depth = 0
        func end() {
            guard !word.isEmpty else { return }
            if let last = words.last, let first = word.first, cannotStartLine(first) {
                words[words.count - 1].word = last.word + gap + word
            } else {
                words.append((gap, word))
            }
            gap = ""
            word = ""
        }
        for c in text {
            if c == " ", depth == 0 {
                end()
                gap.append(c)
                continue
            }
            depth = max(0, depth + isolateChange(c))
            word.append(c)
        }
        end()
        return words
    }

    /// True for signs that belong to the word before them: percent, closing brackets and
    /// quotes, and the punctuation French sets after a space.
    private static func cannotStartLine(_ c: Character) -> Bool {
        if "%‰°:;!?…»›".contains(c) { return true }
        switch c.unicodeScalars.first?.properties.generalCategory {
        case .closePunctuation?, .finalPunctuation?: return true
        default: return false
        }
    }

    /// True when the first strong letter of `text` outside isolates is right-to-left (UAX #9
    /// rules P2–P3: that letter sets a paragraph's direction). The direction of a diagnostic comes
    /// from its words, not the run's locale: most diagnostics are English in every locale, and
    /// only the translated ones read right to left in ar and he.
    static func startsRightToLeft(_ text: String) -> Bool {
        var depth = 0
        for scalar in text.unicodeScalars {
            let change = isolateChange(Character(scalar))
            depth = max(0, depth + change)
            guard depth == 0, change == 0, scalar.properties.isAlphabetic else { continue }
            switch scalar.value {
            // Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic; their presentation forms;
            // the right-to-left scripts of the supplementary planes.
            case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
            default: return false
            }
        }
        return false
    }

    /// +1 for an isolate initiator (LRI, RLI, FSI), -1 for PDI, else 0.
    private static func isolateChange(_ c: Character) -> Int {
        switch c.unicodeScalars.first?.value {
        case 0x2066, 0x2067, 0x2068: return 1
        case 0x2069: return -1
        default: return 0
        }
    }

    /// Breaks an isolated phrase too wide for a line at a space inside an isolate: the last one
    /// whose head fits `columns`, else the first (its head is then one word wider than a line,
    /// kept whole); the head and the rest, nil when the phrase has no such space (a word is never
    /// broken). An isolate open at the break is closed at the end of the head (PDI) and opened
    /// again at the start of the tail, so no line leaves the bidi state open.
    static func split(_ word: String, fitting columns: Int) -> (String, String)? {
        let chars = Array(word)
        var used = 0
        var open: [Character] = []
        var cut: (at: Int, open: [Character])?
        for (i, c) in chars.enumerated() {
            if c == " ", !open.isEmpty, i > 0 {
                if used > columns, cut != nil { break }
                cut = (i, open)
                if used > columns { break }
            }
            used += Self.columns(c)
            switch isolateChange(c) {
            case 1: open.append(c)
            case -1: _ = open.popLast()
            default: break
            }
        }
        guard let cut, cut.at + 1 < chars.count else { return nil }
        let head = String(chars[..<cut.at]) + String(repeating: "\u{2069}", count: cut.open.count)
        let tail = String(cut.open) + String(chars[(cut.at + 1)...])
        return (head, tail)
    }

    /// `text` cut to at most `columns` columns, ending in `…`; an isolate left open by the cut is
    /// closed, so the bidi state never leaks into what follows.
    static func truncate(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        var out = "", used = 0, depth = 0
        for c in text {
            let w = Self.columns(c)
            if used + w > columns - 1 { break }
            out.append(c)
            used += w
            depth = max(0, depth + isolateChange(c))
        }
        return out + String(repeating: "\u{2069}", count: depth) + "…"
    }

    enum Style { case title }

    func style(_ line: String, _ tone: TextTone) -> String {
        guard color else { return line }
        switch tone {
        case .plain: return line
        case .success: return "\u{1B}[32m" + line + "\u{1B}[0m"
        case .failure: return "\u{1B}[33m" + line + "\u{1B}[0m"
        case .note: return "\u{1B}[2m" + line + "\u{1B}[0m"
        case .action: return "\u{1B}[1m" + line + "\u{1B}[0m"
        }
    }

    func style(_ line: String, _ style: Style) -> String {
        color ? "\u{1B}[1m" + line + "\u{1B}[0m" : line
    }

    /// Terminal columns of `text`, grapheme by grapheme.
    static func columns<S: StringProtocol>(_ text: S) -> Int {
        text.reduce(0) { $0 + columns($1) }
    }

    /// Columns of one grapheme: none for format characters (bidi marks, isolates) and lone
    /// combining marks, two for East Asian wide and fullwidth letters and emoji, else one.
    static func columns(_ c: Character) -> Int {
        var visible = false
        for scalar in c.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .format, .nonspacingMark, .enclosingMark, .control: continue
            default:
                if isWide(scalar.value) { return 2 }
                visible = true
            }
        }
        return visible ? 1 : 0
    }

    /// East Asian Wide/Fullwidth blocks and emoji (UAX #11, the ranges wcwidth implementations use).
    private static func isWide(_ v: UInt32) -> Bool {
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
