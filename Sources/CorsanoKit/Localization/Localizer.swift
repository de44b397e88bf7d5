/// Looks up human text in one locale and fills its positional placeholders.
///
/// `localizer[.measurementLine, 121, 79, 64]` replaces `{1}`, `{2}`, `{3}` with the arguments'
/// descriptions. Missing strings fall back along `AppLocale.fallback` to English. In right-to-left
/// locales each argument is wrapped in Unicode isolates (FSI … PDI, UAX #9) so a Latin or numeric
/// value such as `120/80` keeps its own direction inside Arabic or Hebrew text.
public struct Localizer: Sendable {
    public let locale: AppLocale

    /// Creates a localizer for `locale`.
    public init(locale: AppLocale) { self.locale = locale }

    /// The text of `key` with `{n}` replaced by the n-th argument.
    public subscript(_ key: L10nKey, _ args: any CustomStringConvertible...) -> String {
        format(StringTables.text(key, in: locale), args.map(\.description))
    }

    /// The text of `key` with `{n}` replaced by `args[n-1]`.
    public func string(_ key: L10nKey, _ args: [String]) -> String {
        format(StringTables.text(key, in: locale), args)
    }

    /// The plural form of `key` for `count` (ngettext): `{1}` is the count, `{2}`… the rest.
    ///
    /// The form follows the locale's Plural-Forms rule (`po/LANG.po`), so `{1} day`/`{1} days`
    /// in English and three forms in Polish.
    public subscript(_ key: L10nKey, count count: Int, _ rest: any CustomStringConvertible...) -> String {
        format(StringTables.text(key, in: locale, count: count), [String(count)] + rest.map(\.description))
    }

    /// `key` for a count read from an event: the plural form of `count`'s integer value, `{1}` the
    /// value as written (`?` when absent; then the last form, as for a count that is not an integer).
    public func counted(_ key: L10nKey, _ count: JSONValue?, _ rest: any CustomStringConvertible...) -> String {
        format(StringTables.text(key, in: locale, count: count?.intValue),
               [count?.displayText ?? "?"] + rest.map(\.description))
    }

    /// True when `answer` (trimmed, any case) means yes in this locale or in English.
    public func isYes(_ answer: String) -> Bool {
        let word = answer.trimmingSpaces.lowercased()
        guard !word.isEmpty else { return false }
        let accepted = (self[.answersYes] + "," + StringTables.text(.answersYes, in: .en)).split(separator: ",")
        return accepted.contains { $0.trimmingSpaces.lowercased() == word }
    }

    /// Whether `answer` means no in this locale (its `answersNo` words, or English n/no).
    public func isNo(_ answer: String) -> Bool {
        let word = answer.trimmingSpaces.lowercased()
        guard !word.isEmpty else { return false }
        let accepted = (self[.answersNo] + "," + StringTables.text(.answersNo, in: .en)).split(separator: ",")
        return accepted.contains { $0.trimmingSpaces.lowercased() == word }
    }

    /// Fills `{1}`…`{n}` in `template`; a placeholder without an argument stays as written.
    func format(_ template: String, _ args: [String]) -> String {
        guard template.contains("{") else { return template }
        var out = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"),
               let n = Int(rest[afterOpen..<close]), n >= 1, n <= args.count {
                out += isolate(TerminalText.escaped(args[n - 1], keepingIsolates: true))  // arguments are data: no controls; a nested localized value keeps its own balanced isolates
                rest = rest[rest.index(after: close)...]
            } else {
                out += "{"
                rest = rest[afterOpen...]
            }
        }
        return out + rest
    }

    /// `value` between FSI and PDI in right-to-left locales; unchanged otherwise.
    func isolate(_ value: String) -> String {
        locale.isRightToLeft ? "\u{2068}" + value + "\u{2069}" : value
    }

    /// The placeholder numbers used in `template`, sorted and unique (`{2} {1} {2}` → [1, 2]).
    package static func placeholders(in template: String) -> [Int] {
        var found = Set<Int>()
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            rest = rest[rest.index(after: open)...]
            if let close = rest.firstIndex(of: "}"), let n = Int(rest[..<close]) { found.insert(n) }
        }
        return found.sorted()
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and newlines (Foundation-free).
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let s = Substring(self)
        guard let first = s.firstIndex(where: { !isSpace($0) }), let last = s.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return s[first...last]
    }
}
