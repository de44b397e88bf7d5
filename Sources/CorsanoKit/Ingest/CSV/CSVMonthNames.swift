/// Month names and their abbreviations in English and the project's 17 locales, lowercased,
/// as dates in exports write them (`Nov 21 2026`, `21. November 2026`, `21 nov. 2026`,
/// `21 listopada 2026`). Genitive forms are listed where a language declines the month in a
/// date (pl, fi, el, ka). Georgian, Greek, Hebrew and Arabic are matched as written.
enum CSVMonthNames {
    /// Month number (1-12) of each lowercased name or abbreviation (a trailing `.` removed).
    static let table: [String: Int] = {
        var map: [String: Int] = [:]
        func add(_ names: [String]) {
            for (i, word) in names.enumerated() where !word.isEmpty {
                for variant in word.split(separator: "|") {
                    let key = String(variant).lowercased()
                    precondition(map[key] == nil || map[key] == i + 1, "month name '\(key)' is two months")
                    map[key] = i + 1
                }
            }
        }
        // en
        add(["january|jan", "february|feb", "march|mar", "april|apr", "may", "june|jun", "july|jul", "august|aug",
             "september|sep|sept", "october|oct", "november|nov", "december|dec"])
        // de (also Austrian Jänner)
        add(["januar|jänner|jän", "februar|feber", "märz|mär|mrz", "", "mai", "juni", "juli", "",
             "", "oktober|okt", "", "dezember|dez"])
        // fr
        add(["janvier|janv", "février|févr|fév", "mars", "avril|avr", "", "juin", "juillet|juil", "août|aoû",
             "septembre", "octobre", "novembre", "décembre|déc"])
        // es, pt-PT
        add(["enero|ene|janeiro", "febrero|fevereiro|fev", "marzo|março", "abril|abr", "mayo|maio", "junio|junho",
             "julio|julho", "agosto|ago", "septiembre|setiembre|setembro|set", "octubre|outubro|out", "noviembre|novembro",
             "diciembre|dic|dezembro"])
        // it
        add(["gennaio|gen", "febbraio", "", "aprile", "maggio|mag", "giugno|giu", "luglio|lug", "", "settembre",
             "ottobre|ott", "", "dicembre"])
        // nl, nl-BE
        add(["januari", "februari", "maart|mrt", "", "mei", "", "", "augustus", "", "", "", ""])
        // da, nb, sv
        add(["", "", "marts", "", "", "", "", "", "", "", "", "desember|december"])
        add(["", "", "", "", "", "", "", "", "", "okt", "", ""])
        add(["", "", "", "", "maj", "", "", "augusti", "", "", "", ""])
        // fi (nominative, partitive in dates, abbreviations)
        add(["tammikuu|tammikuuta|tammi", "helmikuu|helmikuuta|helmi", "maaliskuu|maaliskuuta|maalis",
             "huhtikuu|huhtikuuta|huhti", "toukokuu|toukokuuta|touko", "kesäkuu|kesäkuuta|kesä",
             "heinäkuu|heinäkuuta|heinä", "elokuu|elokuuta|elo", "syyskuu|syyskuuta|syys", "lokakuu|lokakuuta|loka",
             "marraskuu|marraskuuta|marras", "joulukuu|joulukuuta|joulu"])
        // pl (nominative, genitive, abbreviations)
        add(["styczeń|stycznia|sty", "luty|lutego|lut", "marzec|marca", "kwiecień|kwietnia|kwi", "maj|maja",
             "czerwiec|czerwca|cze", "lipiec|lipca|lip", "sierpień|sierpnia|sie", "wrzesień|września|wrz",
             "październik|października|paź", "listopad|listopada|lis", "grudzień|grudnia|gru"])
        // el (nominative, genitive, abbreviations)
        add(["ιανουάριος|ιανουαρίου|ιαν", "φεβρουάριος|φεβρουαρίου|φεβ", "μάρτιος|μαρτίου|μαρ",
             "απρίλιος|απριλίου|απρ", "μάιος|μαΐου|μαΐ|μαι", "ιούνιος|ιουνίου|ιουν", "ιούλιος|ιουλίου|ιουλ",
             "αύγουστος|αυγούστου|αυγ", "σεπτέμβριος|σεπτεμβρίου|σεπ", "οκτώβριος|οκτωβρίου|οκτ",
             "νοέμβριος|νοεμβρίου|νοε", "δεκέμβριος|δεκεμβρίου|δεκ"])
        // he
        add(["ינואר", "פברואר", "מרץ|מרס", "אפריל", "מאי", "יוני", "יולי", "אוגוסט", "ספטמבר", "אוקטובר",
             "נובמבר", "דצמבר"])
        // ar (Levantine and Gulf/Egyptian names)
        add(["يناير|كانون الثاني", "فبراير|شباط", "مارس|آذار", "أبريل|إبريل|نيسان", "مايو|أيار", "يونيو|يونية|حزيران",
             "يوليو|يولية|تموز", "أغسطس|آب", "سبتمبر|أيلول", "أكتوبر|تشرين الأول", "نوفمبر|تشرين الثاني",
             "ديسمبر|كانون الأول"])
        // ka (nominative and the -ს form used in dates)
        add(["იანვარი|იანვარს|იან", "თებერვალი|თებერვალს|თებ", "მარტი|მარტს|მარ", "აპრილი|აპრილს|აპრ",
             "მაისი|მაისს|მაი", "ივნისი|ივნისს|ივნ", "ივლისი|ივლისს|ივლ", "აგვისტო|აგვისტოს|აგვ",
             "სექტემბერი|სექტემბერს|სექ", "ოქტომბერი|ოქტომბერს|ოქტ", "ნოემბერი|ნოემბერს|ნოე", "დეკემბერი|დეკემბერს|დეკ"])
        return map
    }()

    /// The month of `word` (case-insensitive, a trailing `.` ignored), or nil.
    static func month(_ word: String) -> Int? {
        var w = word.lowercased()
        if w.hasSuffix(".") { w.removeLast() }
        return table[w]
    }
}
