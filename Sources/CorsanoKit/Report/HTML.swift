/// A piece of HTML whose text is already escaped: reports are built only from `HTML.text` (every
/// value from the store, the bracelet or a person goes through it), `HTML.element` and the fixed
/// markup of the report types, so a serial or an operator's name holding `<script>` or `"` is
/// shown as written and never becomes markup (HTML Living Standard §13.1.2.5 and
/// "Escaping a string"). Control characters (C0, DEL, C1) and bidirectional formatting characters
/// are shown as visible escapes, as in every human-readable output (`TerminalText`; docs/design.md "State store").
public struct HTML: Sendable, Equatable {
    /// The markup.
    public var markup: String

    /// Markup written by corsano itself (tags and text of the report types, never a value from outside).
    init(markup: String) { self.markup = markup }

    /// `text` escaped for an element's content or a quoted attribute value: `&`, `<`, `>`, `"`
    /// and `'` as character references; controls as visible escapes.
    public static func text(_ text: String) -> HTML { HTML(markup: escape(text)) }

    /// An element with `attributes` (values escaped; one with an empty value is left out) holding `children`.
    public static func element(_ tag: String, _ attributes: KeyValuePairs<String, String> = [:], _ children: [HTML] = []) -> HTML {
        HTML(markup: "<\(tag)" + attributes.filter { !$0.value.isEmpty }.map { " \($0.key)=\"\(escape($0.value))\"" }.joined() + ">"
             + children.map(\.markup).joined() + "</\(tag)>")
    }

    /// A value run (a date, a time, a zone, a serial, a version, a model, a name, a number with
    /// its unit) in its own bidi isolate: `<bdi>` (HTML Living Standard §4.5.24; UAX #9 isolates,
    /// direction from the value's own first strong character), so neither the document's
    /// direction nor a neighbouring value reorders it: an Arabic date keeps its parts together, a
    /// Latin serial stays one run in a Hebrew line. `nowrap` keeps a short run on one line (a
    /// serial never splits at its hyphen); `kind` names what it is (`date`, `time`, `zone`, `serial`).
    public static func value(_ text: String, nowrap: Bool = true, kind: String = "") -> HTML {
        element("bdi", ["class": String((["v"] + (nowrap ? ["nw"] : []) + (kind.isEmpty ? [] : [kind])).joined(separator: " "))], text: text)
    }

    /// The catalogue's text of `key` (`StringTables`, never an English literal) with `{n}`
    /// replaced by `values[n-1]`, each value keeping its own markup (a `value` isolate, a
    /// date-time): the template's words are escaped, the values are not escaped twice. A
    /// placeholder without a value stays as written (as `Localizer` does).
    static func localized(_ l: Localizer, _ key: L10nKey, _ values: [HTML]) -> HTML {
        let template = StringTables.text(key, in: l.locale)
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += escape(String(rest[..<open]))
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), let n = Int(rest[afterOpen..<close]), n >= 1, n <= values.count {
                out += values[n - 1].markup
                rest = rest[rest.index(after: close)...]
            } else {
                out += "{"
                rest = rest[afterOpen...]
            }
        }
        return HTML(markup: out + escape(String(rest)))
    }

    /// An element without attributes holding `children`.
    public static func element(_ tag: String, _ children: [HTML]) -> HTML { element(tag, [:], children) }

    /// An element holding only `text`.
    public static func element(_ tag: String, _ attributes: KeyValuePairs<String, String> = [:], text: String) -> HTML {
        element(tag, attributes, [.text(text)])
    }

    /// The escaped form of `text` (see `text(_:)`).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        // A localized label's own isolates around its values stay; every other bidi control is escaped.
        for character in TerminalText.escaped(text, keepingIsolates: true) {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `text` as a CSS string literal (with its quotes) that is safe inside a `<style>` element:
    /// every character but ASCII letters, digits and spaces as a CSS hex escape (CSS Syntax 3
    /// §4.3.7), so neither `"` nor `\` nor `</style>` can end the string or the element.
    public static func cssString(_ text: String) -> String {
        var out = "\""
        for scalar in TerminalText.escaped(text).unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", " ": out.unicodeScalars.append(scalar)
            default: out += "\\" + String(scalar.value, radix: 16) + " "
            }
        }
        return out + "\""
    }
}

extension Array where Element == HTML {
    /// The pieces one after another.
    var joined: HTML { HTML(markup: map(\.markup).joined()) }
}
