/// The compiled-in string tables: one `switch key` function per locale, in `Strings+<tag>.swift`.
///
/// Compiled into the binary rather than loaded from a resource bundle: SwiftPM's `Bundle.module`
/// looks in the build folder and fails for a binary copied elsewhere (issue 8). Switches rather
/// than dictionary literals because large literals take the type checker tens of seconds.
package enum StringTables {
    /// The text of `key` in `locale`'s own table, without fallback; nil when it has none.
    package static func own(_ key: L10nKey, in locale: AppLocale) -> String? {
        switch locale {
        case .ar: return ar(key)
        case .da: return da(key)
        case .de: return de(key)
        case .el: return el(key)
        case .en: return en(key)
        case .es: return es(key)
        case .fi: return fi(key)
        case .fr: return fr(key)
        case .he: return he(key)
        case .it: return it(key)
        case .ka: return ka(key)
        case .nb: return nb(key)
        case .nl: return nl(key)
        case .nlBE: return nlBE(key)
        case .pl: return pl(key)
        case .ptPT: return ptPT(key)
        case .sv: return sv(key)
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
