@testable import CorsanoKit
import Testing

/// The compiled-in tables: complete, placeholder-faithful, really translated, in the right script.
@Suite struct LocalizationTableTests {
    static let translated = AppLocale.allCases.filter { $0 != .en }

    /// Latin tokens allowed in non-Latin scripts: device labels, keys, units, acronyms.
    /// Latin words a translation keeps: names, units, and (reports, issue 36) the product and
    /// program names, the UTC zone and a command-line flag; (the validation report) the standards'
    /// names and the Bland–Altman method.
    static let latinTokens = ["Bluetooth", "Ctrl-C", "Enter", "START", "NIBP", "PPG", "mmHg",
                              "Corsano CardioWatch", "corsano", "UTC", "report --due DAYS",
                              "ISO", "IEEE", "Bland–Altman", "HMAC", "history --verify"]

    /// Every catalog ships every key (CI refuses fuzzy and empty entries, so none falls back), a
    /// plural entry where English has one, with as many forms as its Plural-Forms header says.
    @Test(arguments: AppLocale.allCases)
    func everyKeyHasTextInEveryLocale(_ locale: AppLocale) {
        for key in L10nKey.allCases {
            guard let entry = StringTables.own(key, in: locale) else {
                Issue.record("\(locale.tag) has no own \(key)")
                continue
            }
            #expect(entry.forms.allSatisfy { !$0.trimmingSpaces.isEmpty }, "\(locale.tag) \(key)")
            if case .plural(let forms) = StringTables.en(key) {
                #expect(forms.count == 2, "English \(key) has singular and plural")
                #expect(entry.forms.count == StringTables.pluralCount(in: locale), "\(locale.tag) \(key) forms")
            } else {
                #expect(entry.forms.count == 1, "\(locale.tag) \(key) is plural but English is not")
                if case .plural = entry { Issue.record("\(locale.tag) \(key) is plural but English is not") }
            }
        }
    }

    @Test(arguments: translated)
    func placeholdersMatchEnglish(_ locale: AppLocale) {
        for key in L10nKey.allCases {
            let english = StringTables.text(key, in: .en)
            for text in StringTables.own(key, in: locale)?.forms ?? [] {
                #expect(Localizer.placeholders(in: text) == Localizer.placeholders(in: english), "\(locale.tag) \(key): \(text)")
                // Prompts keep their trailing space so typing does not touch the question.
                #expect(text.hasSuffix(" ") == english.hasSuffix(" "), "\(locale.tag) \(key) trailing space")
            }
        }
    }

    /// A copied English table fails: at most 1 key in 20 (and at least 4) may read as in English
    /// (unit abbreviations such as `{1} min`, and report words such as "Normal", "Gateway" or
    /// "SYS/DIA (mmHg)" are the same in many languages).
    @Test(arguments: translated)
    func differsFromEnglishInNearlyEveryKey(_ locale: AppLocale) {
        let same = L10nKey.allCases.filter { StringTables.text($0, in: locale) == StringTables.text($0, in: .en) }
        #expect(same.count <= max(4, L10nKey.allCases.count / 20), "\(locale.tag) reads as English in \(same)")
    }

    /// nl_BE.po is its own catalog (seeded from nl.po) with Flemish usage where it differs.
    @Test func flemishDiffersFromNetherlandsDutchInItsOwnTerms() {
        let differing = L10nKey.allCases.filter { StringTables.own($0, in: .nlBE) != StringTables.own($0, in: .nl) }
        #expect(differing.count >= 20, "\(differing)")
        #expect(Localizer(locale: .nlBE)[.bpInstructionsTitle] == "Voor u begint")
        #expect(Localizer(locale: .nl)[.bpInstructionsTitle] == "Voordat je begint")
        #expect(Localizer(locale: .nlBE)[.woTitle] == Localizer(locale: .nl)[.woTitle])
    }

    static let scripts: [(AppLocale, String, [ClosedRange<UInt32>])] = [
        (.ar, "Arabic", [0x0600...0x06FF, 0x0750...0x077F, 0xFB50...0xFDFF, 0xFE70...0xFEFF]),
        (.he, "Hebrew", [0x0590...0x05FF, 0xFB1D...0xFB4F]),
        (.ka, "Georgian", [0x10A0...0x10FF, 0x1C90...0x1CBF, 0x2D00...0x2D2F]),
        (.el, "Greek", [0x0370...0x03FF, 0x1F00...0x1FFF]),
    ]

    /// Every letter of every string is in the locale's script, apart from the allowed Latin tokens.
    @Test(arguments: scripts.indices)
    func nonLatinLocalesAreInTheirScript(_ i: Int) {
        let (locale, name, ranges) = Self.scripts[i]
        var scriptLetters = 0
        for key in L10nKey.allCases {
            var text = StringTables.text(key, in: locale)
            for token in Self.latinTokens { text = text.split(separator: token, omittingEmptySubsequences: false).joined(separator: " ") }
            let letters = text.unicodeScalars.filter(\.properties.isAlphabetic)
            let foreign = letters.filter { s in !ranges.contains { $0.contains(s.value) } }
            #expect(foreign.isEmpty, "\(locale.tag) \(key) has non-\(name) letters: \(String(String.UnicodeScalarView(foreign)))")
            if !letters.isEmpty { #expect(letters.count > foreign.count, "\(locale.tag) \(key)") }
            scriptLetters += letters.count - foreign.count
        }
        #expect(scriptLetters > 2_000, "\(locale.tag): \(scriptLetters) \(name) letters")
    }

    /// The patient-leaflet terms for systolic, diastolic, pulse and cuff appear where expected.
    static let leafletTerms: [(AppLocale, [String])] = [
        (.de, ["Systolisch", "diastolisch", "Puls", "Manschette"]),
        (.fr, ["Systolique", "diastolique", "pouls", "brassard"]),
        (.es, ["Sistólica", "diastólica", "pulso", "manguito"]),
        (.it, ["Sistolica", "diastolica", "polso", "bracciale"]),
        (.nl, ["Systolisch", "diastolisch", "hartslag", "manchet"]),
        (.nlBE, ["Systolisch", "diastolisch", "polsslag", "manchet"]),
        (.ptPT, ["Sistólica", "diastólica", "pulsação", "braçadeira"]),
        (.da, ["Systolisk", "diastolisk", "puls", "manchet"]),
        (.nb, ["Systolisk", "diastolisk", "puls", "mansjett"]),
        (.sv, ["Systoliskt", "diastoliskt", "puls", "manschett"]),
        (.fi, ["Systolinen", "diastolinen", "pulssi", "mansetti"]),
        (.pl, ["skurczowe", "rozkurczowe", "tętno", "mankiet"]),
        (.el, ["Συστολική", "διαστολική", "σφυγμοί", "περιχειρίδα"]),
        (.ka, ["სისტოლური", "დიასტოლური", "პულსი", "მანჟეტი"]),
        (.he, ["סיסטולי", "דיאסטולי", "דופק", "שרוול"]),
        (.ar, ["الانقباضي", "الانبساطي", "النبض", "الكفة"]),
    ]

    @Test(arguments: leafletTerms.indices)
    func usesLeafletTerms(_ i: Int) {
        let (locale, terms) = Self.leafletTerms[i]
        let line = StringTables.text(.measurementLine, in: locale)
        for term in terms.prefix(3) { #expect(line.contains(term), "\(locale.tag): \(line) lacks \(term)") }
        #expect(StringTables.text(.bpPrepCuffFit, in: locale).contains(terms[3]), "\(locale.tag) cuff")
    }

    @Test func yesAnswersAreLocalized() {
        #expect(Localizer(locale: .de).isYes("Ja"))
        #expect(Localizer(locale: .de).isYes("y"))
        #expect(!Localizer(locale: .de).isYes("nein"))
        #expect(Localizer(locale: .fr).isYes("oui"))
        #expect(Localizer(locale: .pl).isYes("tak"))
        #expect(Localizer(locale: .el).isYes("ναι"))
        #expect(Localizer(locale: .he).isYes("כן"))
        #expect(Localizer(locale: .ar).isYes("نعم"))
        #expect(Localizer(locale: .ka).isYes("კი"))
        #expect(!Localizer(locale: .fi).isYes("ei"))
    }
}
