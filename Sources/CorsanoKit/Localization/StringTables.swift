/// The compiled-in string tables: one `switch key` function per locale, in `Strings+<tag>.swift`.
///
/// Compiled into the binary rather than loaded from a resource bundle: SwiftPM's `Bundle.module`
/// looks in the build folder and fails for a binary copied elsewhere (issue 8). Switches rather
/// than dictionary literals because large literals take the type checker tens of seconds.
package enum StringTables {
    /// The text of `key` in `locale`'s own table, without fallback; nil when it has none.
    package static func own(_ key: L10nKey, in locale: AppLocale) -> String? {
        switch locale {
        case .en: return en(key)
        default: return nil
        }
    }

    /// The text of `key` in `locale`, following the fallback chain (nl-BE → nl → en).
    package static func text(_ key: L10nKey, in locale: AppLocale) -> String {
        var current: AppLocale? = locale
        while let l = current {
            if let s = own(key, in: l) { return s }
            current = l.fallback
        }
        return en(key)
    }
}
