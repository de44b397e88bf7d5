/// One column name an export uses for a reading field, and where that name was seen.
public struct CSVHeaderAlias: Sendable {
    /// The column name as an export writes it (normalized by `CSVHeader.normalize` before use).
    public let name: String
    /// The reading field the column holds.
    public let role: CSVHeader.Role
    /// The export (or locale) the name comes from; Tests/Fixtures/README.md names the sources.
    public let source: String
}

/// The header alias table: column names of real exports and of the project's 17 locales
/// (ar, da, de, el, en, es, fi, fr, he, it, ka, nb, nl, nl-BE, pl, pt-PT, sv), as data.
///
/// Names are written as the exports write them; `CSVHeader.normalize` folds case, drops
/// punctuation and a unit in parentheses, keeps a bracketed qualifier, and strips a dotted
/// namespace (`com.samsung.health.blood_pressure.`). Entries marked `locale: xx` are the
/// field's standard term in that language (the words of po/xx.po and common clinical usage),
/// not yet seen in an export; the others were seen in the export they name.
enum CSVHeaderAliases {
    private static func a(_ role: CSVHeader.Role, _ source: String, _ names: String...) -> [CSVHeaderAlias] {
        names.map { CSVHeaderAlias(name: $0, role: role, source: source) }
    }

    static let all: [CSVHeaderAlias] = pressures + pulse + map + stamps + zone + user + status

    /// Systolic and diastolic columns: every export and locale that names one names the other, so
    /// each source is a row of both.
    static let pressures: [CSVHeaderAlias] = pressureRows.flatMap { row in
        row.systolic.map { CSVHeaderAlias(name: $0, role: .systolic, source: row.source) }
            + row.diastolic.map { CSVHeaderAlias(name: $0, role: .diastolic, source: row.source) }
    }

    private static let pressureRows: [(source: String, systolic: [String], diastolic: [String])] = [
        ("OMRON connect e-mailed logbook (en, de, fr, it, es, nl, pl, sv, tr, pt)", ["SYS"], ["DIA"]),
        ("OMRON connect app CSV", ["SYS(mmHg)"], ["DIA(mmHg)"]),
        ("OMRON connect report (en)", ["Systolic (mmHg)"], ["Diastolic (mmHg)"]),
        ("Withings bp.csv; Blood Pressure Monitor app; Samsung Health", ["Systolic"], ["Diastolic"]),
        ("SilverCrest SBM69 tool", ["Systolic Pressure"], ["Diastolic Pressure"]),
        ("HealthForYou (Sanitas/SilverCrest); omblepy", ["Sys"], ["Dia"]),
        ("Health Auto Export (Apple Health)", ["Blood Pressure [Systolic] (mmHg)"], ["Blood Pressure [Diastolic] (mmHg)"]),
        ("Beurer BM-58 tool (en, de); bplog", ["Systole"], ["Diastole"]),
        ("Garmin FIT blood_pressure message", ["systolic_pressure"], ["diastolic_pressure"]),
        ("OMRON connect e-mailed logbook (ja, zh, zh-Hans)", ["最高血圧（mmHg）", "收縮壓(mmHg)", "高压"], ["最低血圧（mmHg）", "舒張壓(mmHg)", "低压"]),
        ("OMRON connect e-mailed logbook (ko, vi)", ["최고혈압 (mmHg)", "Huyết áp tâm thu"], ["최저혈압 (mmHg)", "Huyết áp tâm trương"]),
        ("English variants", ["SBP", "Systolic BP", "Systolic blood pressure", "Blood pressure systolic", "Syst"],
         ["DBP", "Diastolic BP", "Diastolic blood pressure", "Blood pressure diastolic", "Diast"]),
        ("locale: de", ["Systolisch", "Systolischer Blutdruck"], ["Diastolisch", "Diastolischer Blutdruck"]),
        ("locale: fr", ["Systolique", "Pression systolique", "Tension systolique"], ["Diastolique", "Pression diastolique", "Tension diastolique"]),
        ("locale: es", ["Sistólica", "Presión sistólica"], ["Diastólica", "Presión diastólica"]),
        ("locale: it", ["Sistolica", "Pressione sistolica"], ["Diastolica", "Pressione diastolica"]),
        ("locale: nl, nl-BE", ["Systolische bloeddruk", "Bovendruk"], ["Diastolische bloeddruk", "Onderdruk"]),
        ("locale: da, nb", ["Systolisk", "Systolisk blodtryk", "Systolisk blodtrykk"], ["Diastolisk", "Diastolisk blodtryk", "Diastolisk blodtrykk"]),
        ("locale: sv", ["Systoliskt", "Systoliskt blodtryck", "Övertryck"], ["Diastoliskt", "Diastoliskt blodtryck", "Undertryck"]),
        ("locale: fi", ["Systolinen", "Yläpaine", "Systolinen verenpaine"], ["Diastolinen", "Alapaine", "Diastolinen verenpaine"]),
        ("locale: pl", ["Skurczowe", "Ciśnienie skurczowe"], ["Rozkurczowe", "Ciśnienie rozkurczowe"]),
        ("locale: pt-PT", ["Pressão sistólica"], ["Pressão diastólica"]),
        ("locale: el", ["Συστολική", "Συστολική πίεση"], ["Διαστολική", "Διαστολική πίεση"]),
        ("locale: he", ["סיסטולי", "לחץ סיסטולי"], ["דיאסטולי", "לחץ דיאסטולי"]),
        ("locale: ar", ["الانقباضي", "ضغط الدم الانقباضي"], ["الانبساطي", "ضغط الدم الانبساطي"]),
        ("locale: ka", ["სისტოლური", "სისტოლური წნევა"], ["დიასტოლური", "დიასტოლური წნევა"]),
    ]

    static let pulse: [CSVHeaderAlias] =
        a(.pulse, "OMRON connect e-mailed logbook (en, de, fr, it, nl, pl, sv, tr, pt)", "Pulse")
        + a(.pulse, "OMRON connect app CSV", "Pulse(bpm)")
        + a(.pulse, "OMRON connect report (en)", "Pulse (bpm)")
        + a(.pulse, "Withings bp.csv", "Heart rate")
        + a(.pulse, "omblepy", "bpm")
        + a(.pulse, "SilverCrest SBM69 tool", "Pulse Rate")
        + a(.pulse, "iHealth CSV", "Pulse(Beats/Min)")
        + a(.pulse, "OMRON connect e-mailed logbook (es); locale: es, pt-PT", "Pulso")
        + a(.pulse, "Beurer BM-58 tool (de); locale: da, nb, sv", "Puls")
        + a(.pulse, "OMRON connect e-mailed logbook (ja, zh, zh-Hans)", "脈拍（bpm）", "脈搏(bpm)", "脉搏")
        + a(.pulse, "OMRON connect e-mailed logbook (ko, vi)", "맥박 (bpm)", "Nhịp tim")
        + a(.pulse, "English variants", "HR", "PR", "Pul", "Heartbeat", "Pulse rate (bpm)", "PR(bpm)")
        + a(.pulse, "locale: de", "Pulsfrequenz", "Herzfrequenz")
        + a(.pulse, "locale: fr", "Pouls", "Fréquence cardiaque")
        + a(.pulse, "locale: es", "Frecuencia cardíaca")
        + a(.pulse, "locale: it", "Pulsazioni", "Polso", "Frequenza cardiaca")
        + a(.pulse, "locale: nl, nl-BE", "Hartslag", "Pols")
        + a(.pulse, "locale: da, nb, sv", "Hjertefrekvens", "Hjerterytme", "Hjärtfrekvens")
        + a(.pulse, "locale: fi", "Pulssi", "Syke")
        + a(.pulse, "locale: pl", "Tętno")
        + a(.pulse, "locale: pt-PT", "Frequência cardíaca")
        + a(.pulse, "locale: el", "Σφυγμός", "Παλμοί")
        + a(.pulse, "locale: he", "דופק")
        + a(.pulse, "locale: ar", "النبض")
        + a(.pulse, "locale: ka", "პულსი")

    static let map: [CSVHeaderAlias] =
        a(.meanArterialPressure, "HealthForYou (Sanitas/SilverCrest)", "MAP")
        + a(.meanArterialPressure, "SilverCrest SBM69 tool", "Mean Arterial Pressure")
        + a(.meanArterialPressure, "Samsung Health", "mean")
        + a(.meanArterialPressure, "Garmin FIT blood_pressure message", "mean_arterial_pressure")
        + a(.meanArterialPressure, "English variants", "Mean pressure", "Mean blood pressure")
        + a(.meanArterialPressure, "locale: de", "MAD", "Mitteldruck", "Mittlerer arterieller Druck")
        + a(.meanArterialPressure, "locale: fr, es, it", "PAM", "Pression artérielle moyenne", "Presión arterial media",
            "Pressione arteriosa media")
        + a(.meanArterialPressure, "locale: nl, nl-BE", "Gemiddelde arteriële druk")
        + a(.meanArterialPressure, "locale: da, nb, sv", "Middelblodtryk", "Middeltrykk", "Medelartärtryck")
        + a(.meanArterialPressure, "locale: fi", "Keskiverenpaine")
        + a(.meanArterialPressure, "locale: pl", "Średnie ciśnienie tętnicze")
        + a(.meanArterialPressure, "locale: pt-PT", "Pressão arterial média")
        + a(.meanArterialPressure, "locale: el", "Μέση αρτηριακή πίεση")
        + a(.meanArterialPressure, "locale: he", "לחץ עורקי ממוצע")
        + a(.meanArterialPressure, "locale: ar", "متوسط الضغط الشرياني")
        + a(.meanArterialPressure, "locale: ka", "საშუალო არტერიული წნევა")

    static let stamps: [CSVHeaderAlias] =
        a(.dateTime, "omblepy", "datetime")
        + a(.dateTime, "SilverCrest SBM69 tool", "Time Stamp")
        + a(.dateTime, "Health Auto Export (Apple Health)", "Date/Time")
        + a(.dateTime, "Samsung Health", "start_time")
        + a(.dateTime, "OMRON connect app and e-mailed CSV (en)", "Measurement Date")
        + a(.dateTime, "OMRON connect e-mailed logbook (de, fr, es, ja, zh)", "Messdatum", "Date de mesure", "Fecha de medición",
            "測定日", "測量日期")
        + a(.dateTime, "OMRON connect e-mailed logbook (zh-Hans, ko, it, nl, pl, sv, tr, pt, vi)", "测量日期", "측정일시",
            "Data misurazione", "Datum van meting", "Data pomiaru", "Mätdatum", "Ölçüm Tarihi", "Data da medição",
            "Ngày đo huyết áp")
        + a(.dateTime, "English variants", "timestamp", "measuredAt", "Measurement time", "Date and time", "recordedAt",
            "Measurement date time", "Local time")
        + a(.dateTime, "locale: de", "Datum/Uhrzeit", "Datum und Uhrzeit", "Zeitpunkt", "Messzeitpunkt")
        + a(.dateTime, "locale: fr, es, it", "Date et heure", "Fecha y hora", "Data e ora")
        + a(.dateTime, "locale: nl, nl-BE, da, nb, sv", "Datum en tijd", "Dato og tid", "Dato og klokkeslæt", "Datum och tid")
        + a(.dateTime, "locale: fi, pl, pt-PT", "Päivämäärä ja aika", "Data i godzina", "Data e hora")
        + a(.dateTime, "locale: el, he, ar, ka", "Ημερομηνία και ώρα", "תאריך ושעה", "التاريخ والوقت", "თარიღი და დრო")
        + a(.date, "OMRON connect report; Withings bp.csv; HealthForYou; bplog", "Date")
        + a(.date, "Beurer BM-58 tool (de); locale: de, nl, sv", "Datum")
        + a(.date, "locale: es", "Fecha")
        + a(.date, "locale: it, pl, pt-PT", "Data")
        + a(.date, "locale: da, nb", "Dato")
        + a(.date, "locale: fi", "Päivämäärä", "Pvm")
        + a(.date, "locale: el, he, ar, ka", "Ημερομηνία", "תאריך", "التاريخ", "თარიღი")
        + a(.time, "OMRON connect report; HealthForYou", "Time")
        + a(.time, "OMRON connect PDF (de); locale: de", "Zeit", "Uhrzeit")
        + a(.time, "English variants", "Time of day")
        + a(.time, "locale: fr", "Heure")
        + a(.time, "locale: es, pt-PT", "Hora")
        + a(.time, "locale: it", "Ora")
        + a(.time, "locale: nl, nl-BE", "Tijd", "Tijdstip")
        + a(.time, "locale: da, nb, sv", "Tid", "Klokkeslæt", "Klokkeslett", "Klockslag")
        + a(.time, "locale: fi", "Aika", "Kellonaika")
        + a(.time, "locale: pl", "Godzina", "Czas")
        + a(.time, "locale: el, he, ar, ka", "Ώρα", "שעה", "الوقت", "დრო")
        + a(.unixMilliseconds, "Blood Pressure Monitor app", "timestampUnixMs")
        + a(.unixMilliseconds, "English variants", "Unix ms", "Timestamp ms", "Timestamp (ms)", "Epoch ms",
            "Unix timestamp ms", "Unix time ms", "Time ms")

    static let zone: [CSVHeaderAlias] =
        a(.zone, "OMRON connect app CSV", "Timezone")
        + a(.zone, "OMRON connect e-mailed logbook (en, de, fr, es, ja, zh)", "Time Zone", "Zeitzone", "Fuseau horaire",
            "Zona horaria", "タイムゾーン", "時區")
        + a(.zone, "OMRON connect e-mailed logbook (zh-Hans, ko, tr, vi)", "时区", "시간 영역", "Saat Dilimi", "Múi giờ")
        + a(.zone, "Samsung Health", "time_offset")
        + a(.zone, "English variants", "tz", "UTC offset", "Zone")
        + a(.zone, "OMRON connect e-mailed logbook (it, pt); locale: it, pt-PT", "Fuso orario", "Fuso horário")
        + a(.zone, "OMRON connect e-mailed logbook (nl, sv); locale: nl, nl-BE, da, nb, sv", "Tijdzone", "Tidszone", "Tidssone", "Tidszon")
        + a(.zone, "OMRON connect e-mailed logbook (pl); locale: fi, pl", "Aikavyöhyke", "Strefa czasowa")
        + a(.zone, "locale: el, he, ar, ka", "Ζώνη ώρας", "אזור זמן", "المنطقة الزمنية", "სასაათო სარტყელი")

    static let user: [CSVHeaderAlias] =
        a(.userId, "SilverCrest SBM69 tool", "User ID")
        + a(.userId, "English variants", "userId", "User", "User number", "User no")
        + a(.userId, "locale: de, fr, es, it, nl", "Benutzer", "Nutzer", "Utilisateur", "Usuario", "Utente", "Gebruiker")
        + a(.userId, "locale: da, nb, sv, fi, pl, pt-PT", "Bruger", "Bruker", "Användare", "Käyttäjä", "Użytkownik", "Utilizador")
        + a(.userId, "locale: el, he, ar, ka", "Χρήστης", "משתמש", "المستخدم", "მომხმარებელი")

    /// The cuff's measurement-status columns (written as the reading's `status`).
    static let status: [CSVHeaderAlias] =
        a(.bodyMovement, "OMRON connect app CSV; SilverCrest SBM69 tool", "Body Movement")
        + a(.bodyMovement, "omblepy", "mov")
        + a(.irregularPulse, "OMRON connect app CSV", "Irregular heartbeat")
        + a(.irregularPulse, "omblepy", "ihb")
        + a(.irregularPulse, "SilverCrest SBM69 tool", "Irregular Pulse")
        + a(.cuffTooLoose, "SilverCrest SBM69 tool", "Cuff Too Loose")
        + a(.cuffTooLoose, "OMRON connect app CSV", "Cuff wrap guide")
        + a(.improperPosition, "SilverCrest SBM69 tool", "Improper Measurement Position")
        + a(.improperPosition, "OMRON connect app CSV", "Positioning Indicator")
        + a(.pulseRateRange, "SilverCrest SBM69 tool", "Pulse Rate Range")
}
