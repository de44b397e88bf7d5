import CorsanoKit
import Testing

@Suite struct LocaleResolverTests {
    /// (--lang, LC_ALL, LC_MESSAGES, LANG) → expected locale ("Build" 2).
    static let table: [(String?, String?, String?, String?, AppLocale)] = [
        (nil, nil, nil, "nl_BE.UTF-8", .nlBE),
        (nil, nil, nil, "nl_NL.UTF-8", .nl),
        (nil, nil, nil, "nl", .nl),
        (nil, nil, nil, "pt_PT.UTF-8", .ptPT),
        (nil, nil, nil, "pt_BR.UTF-8", .en),
        (nil, nil, nil, "pt", .en),
        (nil, nil, nil, "nb_NO.UTF-8", .nb),
        (nil, nil, nil, "no_NO", .nb),
        (nil, nil, nil, "C", .en),
        (nil, nil, nil, "POSIX", .en),
        (nil, nil, nil, "C.UTF-8", .en),
        (nil, nil, nil, "de_AT.UTF-8@euro", .de),
        (nil, nil, nil, "ar_EG.UTF-8", .ar),
        (nil, nil, nil, "he_IL", .he),
        (nil, nil, nil, "iw_IL", .he),
        (nil, nil, nil, "ka_GE.UTF-8", .ka),
        (nil, nil, nil, "el_GR.UTF-8", .el),
        (nil, nil, nil, "ja_JP.UTF-8", .en),
        (nil, nil, nil, nil, .en),
        (nil, nil, nil, "", .en),
        (nil, "fr_FR.UTF-8", "de_DE.UTF-8", "sv_SE.UTF-8", .fr),
        (nil, nil, "de_DE.UTF-8", "sv_SE.UTF-8", .de),
        (nil, "", "", "sv_SE.UTF-8", .sv),
        // A set but unusable LC_ALL wins over LANG (POSIX precedence), as `ls` would behave.
        (nil, "C", nil, "de_DE.UTF-8", .en),
        ("de", "fr_FR.UTF-8", nil, "sv_SE.UTF-8", .de),
        ("nl-BE", nil, nil, "C", .nlBE),
        ("pt-PT", nil, nil, nil, .ptPT),
        ("pt", nil, nil, "de_DE", .en),
        ("", nil, nil, "fi_FI.UTF-8", .fi),
    ]

    @Test(arguments: table.indices)
    func resolves(_ i: Int) {
        let (lang, all, messages, langVar, expected) = Self.table[i]
        var env: [String: String] = [:]
        env["LC_ALL"] = all
        env["LC_MESSAGES"] = messages
        env["LANG"] = langVar
        #expect(LocaleResolver.resolve(lang: lang, environment: env) == expected, "row \(i)")
    }

    @Test func everyShippedTagResolvesToItself() {
        for locale in AppLocale.allCases {
            #expect(LocaleResolver.resolve(lang: locale.tag, environment: [:]) == locale)
            let posix = String(locale.tag.map { $0 == "-" ? "_" : $0 }) + ".UTF-8"
            #expect(LocaleResolver.resolve(lang: nil, environment: ["LANG": posix]) == locale)
        }
    }

    @Test func seventeenLocales() {
        #expect(AppLocale.allCases.map(\.tag) == ["ar", "da", "de", "el", "en", "es", "fi", "fr", "he", "it",
                                                 "ka", "nb", "nl", "nl-BE", "pl", "pt-PT", "sv"])
        #expect(AppLocale.allCases.filter(\.isRightToLeft) == [.ar, .he])
    }
}
