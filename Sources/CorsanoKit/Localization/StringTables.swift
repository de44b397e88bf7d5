/// The compiled-in catalogs: English in `Strings+en.swift`, every other locale generated from its
/// `po/LANG.po` into `Generated/` by `scripts/l10n` (docs/localization.md).
///
/// Compiled into the binary rather than loaded from .mo files or a resource bundle: SwiftPM's
/// `Bundle.module` looks in the build folder and a copied binary must still speak every language
///. `switch` tables rather than dictionary literals because large literals take the type
/// checker tens of seconds.
package enum StringTables {
    /// The text of `key` in `locale`, following the fallback chain (nl-BE → nl → en).
    ///
    /// A plural entry picks its form for `count` with the rule of the catalog the entry comes from
    /// (a string falling back to English counts in English); without a count, the last form.
    package static func text(_ key: L10nKey, in locale: AppLocale, count: Int? = nil) -> String {
        text(key, in: locale, count: count, own: own)
    }

    /// `text(_:in:count:)` over the tables `own` returns (tests pass tables with gaps).
    package static func text(_ key: L10nKey, in locale: AppLocale, count: Int?,
                             own: (L10nKey, AppLocale) -> CatalogText?) -> String {
        var current: AppLocale? = locale
        while let l = current {
            if let entry = own(key, l) { return entry.form(count: count, in: l) }
            current = l.fallback
        }
        return en(key).form(count: count, in: .en)
    }
}

/// One catalog entry: a text, or one text per plural form of its locale (`msgstr[0]`, `msgstr[1]`…).
package enum CatalogText: Equatable, Sendable, ExpressibleByStringLiteral {
    case text(String)
    /// The forms in the order of the locale's Plural-Forms rule.
    case plural([String])

    package init(stringLiteral value: String) { self = .text(value) }

    /// Every text of the entry (one, or each plural form).
    package var forms: [String] {
        switch self {
        case .text(let s): return [s]
        case .plural(let forms): return forms
        }
    }

    /// The text for `count` under `locale`'s plural rule; the last form when `count` is nil.
    ///
    /// gettext counts are unsigned: a negative count picks the form of its magnitude.
    package func form(count: Int?, in locale: AppLocale) -> String {
        switch self {
        case .text(let s): return s
        case .plural(let forms):
            guard let last = forms.indices.last else { return "" }
            guard let count else { return forms[last] }
            let index = StringTables.pluralForm(Int(clamping: count.magnitude), in: locale)
            return forms[min(max(index, 0), last)]
        }
    }
}
