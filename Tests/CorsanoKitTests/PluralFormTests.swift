@testable import CorsanoKit
import Testing

/// ngettext-style lookup: each locale's Plural-Forms rule (generated from its po header into
/// Swift), the form chosen for a count, and the fallback of a missing (fuzzy) entry.
@Suite struct PluralFormTests {
    /// Counts and the form gettext's usual Plural-Forms give them (CLDR categories in order).
    static let expected: [(AppLocale, [(Int, Int)])] = [
        (.en, [(0, 1), (1, 0), (2, 1), (11, 1), (101, 1)]),
        (.de, [(0, 1), (1, 0), (2, 1), (21, 1)]),
        (.fr, [(0, 0), (1, 0), (2, 1), (100, 1)]),
        (.ptPT, [(0, 1), (1, 0), (2, 1)]),
        (.he, [(1, 0), (2, 1), (0, 2), (3, 2), (10, 2), (20, 2), (102, 2)]),
        (.pl, [(1, 0), (2, 1), (4, 1), (5, 2), (11, 2), (12, 2), (14, 2), (21, 2), (22, 1), (24, 1), (25, 2),
               (112, 2), (122, 1), (0, 2)]),
        (.ar, [(0, 0), (1, 1), (2, 2), (3, 3), (10, 3), (11, 4), (99, 4), (100, 5), (101, 5), (102, 5),
               (103, 3), (111, 4), (1000, 5)]),
    ]

    @Test(arguments: expected.indices)
    func ruleGivesTheLocalesForms(_ i: Int) {
        let (locale, cases) = Self.expected[i]
        for (n, form) in cases {
            #expect(StringTables.pluralForm(n, in: locale) == form, "\(locale.tag) n=\(n)")
        }
    }

    /// Every form index a rule returns exists, for every locale, and every form is reached.
    @Test(arguments: AppLocale.allCases)
    func everyFormIsInRangeAndReached(_ locale: AppLocale) {
        let forms = Set((0...1_000).map { StringTables.pluralForm($0, in: locale) })
        #expect(forms == Set(0..<StringTables.pluralCount(in: locale)), "\(locale.tag): \(forms.sorted())")
    }

    @Test func countPicksTheForm() {
        #expect(Localizer(locale: .en)[.durationDays, count: 1] == "1 day")
        #expect(Localizer(locale: .en)[.durationDays, count: 3] == "3 days")
        #expect(Localizer(locale: .pl)[.durationDays, count: 1] == "1 dzień")
        #expect(Localizer(locale: .pl)[.durationDays, count: 22] == "22 dni")
        #expect(Localizer(locale: .he)[.durationHours, count: 1] == "1 שעה".isolatingNumber("1"))
        #expect(Localizer(locale: .he)[.durationHours, count: 5] == "5 שעות".isolatingNumber("5"))
        #expect(Localizer(locale: .fr)[.durationDays, count: 1] == "1 jour")
        #expect(Localizer(locale: .fr)[.durationDays, count: 2] == "2 jours")
        #expect(Localizer(locale: .de)[.resultWOFailedAfterRetries, count: 1, "x"] == "nicht optimiert, Versuche: 1, letzter Grund: x")
    }

    /// A count from an event: shown as written, the form from its integer value; without one the
    /// last form and `?`.
    @Test func countedFromJSON() {
        let en = Localizer(locale: .en)
        #expect(en.counted(.durationDays, .int(1)) == "1 day")
        #expect(en.counted(.durationDays, .double(1)) == "\(JSONValue.double(1).displayText) day")
        #expect(en.counted(.durationDays, nil) == "? days")
        #expect(en.counted(.durationDays, .string("many")) == "many days")
        #expect(CatalogText.plural(["a", "b"]).form(count: -1, in: .en) == "a")
        #expect(CatalogText.plural(["a", "b"]).form(count: Int.min, in: .en) == "b")
    }

    /// A fuzzy or untranslated entry is left out of the generated table; the lookup then falls
    /// back along nl-BE → nl → en, and a plural entry counts with the rule of the catalog it
    /// comes from.
    @Test func missingEntryFallsBackToEnglishWithEnglishPlural() {
        let withoutTitle: (L10nKey, AppLocale) -> CatalogText? = { key, locale in
            key == .woTitle || key == .durationDays ? nil : StringTables.own(key, in: locale)
        }
        #expect(StringTables.text(.woTitle, in: .de, count: nil, own: withoutTitle) == "Wearing optimization")
        #expect(StringTables.text(.bpTitle, in: .de, count: nil, own: withoutTitle) == "Blutdruckkalibrierung (NIBP)")
        #expect(StringTables.text(.durationDays, in: .pl, count: 1, own: withoutTitle) == "{1} day")
        #expect(StringTables.text(.durationDays, in: .pl, count: 5, own: withoutTitle) == "{1} days")

        let flemishGap: (L10nKey, AppLocale) -> CatalogText? = { key, locale in
            locale == .nlBE ? nil : StringTables.own(key, in: locale)
        }
        #expect(StringTables.text(.bpInstructionsTitle, in: .nlBE, count: nil, own: flemishGap) == "Voordat je begint")
    }
}

private extension String {
    /// The Hebrew text as the localizer writes it: the number between FSI and PDI.
    func isolatingNumber(_ n: String) -> String {
        replacingOccurrences(of: n, with: "\u{2068}" + n + "\u{2069}")
    }
}
