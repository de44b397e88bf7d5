/// Picks the locale of human text from `--lang` and the POSIX locale variables.
///
/// The core never reads the environment itself: the executable passes it in.
/// Rules (docs/design.md "Localization"): `--lang` wins; otherwise the first non-empty of
/// `LC_ALL`, `LC_MESSAGES`, `LANG` (POSIX precedence: a set but unusable value such as `C`
/// does not fall through to the next variable). A value like `nl_BE.UTF-8@euro` is tried as
/// `nl-BE`, then `nl`; anything unknown is English. Plain `pt` is English (we ship pt-PT only,
/// and Brazilian readers should not get European Portuguese by accident).
public enum LocaleResolver {
    /// The variables consulted, in precedence order.
    public static let variables = ["LC_ALL", "LC_MESSAGES", "LANG"]

    /// The locale for `--lang` (when given) or the environment.
    public static func resolve(lang: String?, environment: [String: String]) -> AppLocale {
        if let lang, !lang.isEmpty { return locale(for: lang) ?? .en }
        for name in variables {
            if let value = environment[name], !value.isEmpty { return locale(for: value) ?? .en }
        }
        return .en
    }

    /// The shipped locale a POSIX locale name or BCP 47 tag maps to; nil when none fits.
    public static func locale(for identifier: String) -> AppLocale? {
        // Drop `.codeset` and `@modifier` (`de_DE.UTF-8@euro` → `de_DE`).
        var base = Substring(identifier)
        if let cut = base.firstIndex(where: { $0 == "." || $0 == "@" }) { base = base[..<cut] }
        let parts = base.split(whereSeparator: { $0 == "_" || $0 == "-" })
        guard let first = parts.first else { return nil }
        let language = aliases[first.lowercased()] ?? first.lowercased()
        if language == "c" || language == "posix" { return nil }
        if parts.count > 1 {
            let region = parts[1].uppercased()
            if let exact = AppLocale(rawValue: "\(language)-\(region)") { return exact }
        }
        // `pt` alone is not `pt-PT`: only the region-qualified tag reaches it.
        return AppLocale(rawValue: language).flatMap { $0 == .ptPT || $0 == .nlBE ? nil : $0 }
    }

    /// Legacy and macro-language codes: Norwegian `no` and Bokmål `nb` read the same text;
    /// `iw` is the pre-1989 code for Hebrew, still seen in old Java-style locales.
    static let aliases = ["no": "nb", "iw": "he"]
}
