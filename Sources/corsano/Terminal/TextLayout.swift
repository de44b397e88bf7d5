import CorsanoKit

/// Lays `TextBlock`s out for a plain terminal: wrapped to 80 columns, optional ANSI colour,
/// progress as a bar, right-to-left locales marked for bidi-aware terminals.
///
/// Right-to-left (ar, he): a plain terminal cannot right-align text without knowing its width,
/// and padding would break on resize and in pipes, so lines stay left-aligned in logical order.
/// Each line starts with U+200F RIGHT-TO-LEFT MARK, so terminals that implement the Unicode
/// bidi algorithm (VTE with bidi, Konsole, mlterm) take the line as a right-to-left paragraph
/// even when it opens with a number or bullet; `Localizer` wraps every substituted value in
/// FSI…PDI isolates so `120/80` or a firmware message keeps its own order. Terminals without
/// bidi show the marks as nothing (they are zero-width format characters) and the Arabic or
/// Hebrew letters in logical order. Digits stay ASCII, as on the cuff's display and in JSON.
struct TextLayout {
    /// Columns a line may use (readable on an 80-column terminal, one column to spare for the mark).
    var width = 78
    var color: Bool
    var rightToLeft: Bool

    /// The text of `blocks`, each line ending in a newline.
    func render(_ blocks: [TextBlock], first: Bool) -> String {
        var lines: [String] = []
        for block in blocks {
            switch block {
            case .title(let title):
                if !(first && lines.isEmpty) { lines.append("") }
                lines.append(style(title, .title))
                lines.append(String(repeating: "-", count: min(width, Self.columns(title))))
            case .text(let text, let tone):
                lines += wrap(text, indent: "").map { style($0, tone) }
            case .list(let items, let numbered):
                for (i, item) in items.enumerated() {
                    let marker = numbered ? "\(i + 1). " : "- "
                    let hang = String(repeating: " ", count: marker.count)
                    for (j, line) in wrap(item, indent: hang).enumerated() {
                        lines.append(j == 0 ? marker + line.dropFirst(hang.count) : line)
                    }
                }
            case .progress(let percent, let detail):
                lines.append(progressLine(percent: percent, detail: detail))
            }
        }
        let mark = rightToLeft ? "\u{200F}" : ""
        return lines.map { $0.isEmpty ? "\n" : mark + $0 + "\n" }.joined()
    }

    /// `[########------------] detail`: 20 cells, one per 5 %.
    func progressLine(percent: Int, detail: String) -> String {
        let filled = max(0, min(20, percent / 5))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled)
        return "[" + (color ? "\u{1B}[36m" + bar + "\u{1B}[0m" : bar) + "] " + detail
    }

    /// Words of `text` in lines of at most `width` columns, each starting with `indent`.
    /// A word longer than a line stands alone rather than being cut.
    func wrap(_ text: String, indent: String) -> [String] {
        var lines: [String] = []
        var current = indent
        var currentWidth = indent.count
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let w = Self.columns(word)
            if currentWidth > indent.count, currentWidth + 1 + w > width {
                lines.append(current)
                current = indent
                currentWidth = indent.count
            }
            if currentWidth > indent.count { current += " "; currentWidth += 1 }
            current += word
            currentWidth += w
        }
        lines.append(current)
        return lines
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

    /// Terminal columns of `text`: one per scalar, none for format characters (bidi marks,
    /// isolates) and combining marks (Arabic harakat). The shipped scripts have no wide glyphs.
    static func columns<S: StringProtocol>(_ text: S) -> Int {
        text.unicodeScalars.reduce(0) { n, scalar in
            switch scalar.properties.generalCategory {
            case .format, .nonspacingMark, .enclosingMark: return n
            default: return n + 1
            }
        }
    }
}
