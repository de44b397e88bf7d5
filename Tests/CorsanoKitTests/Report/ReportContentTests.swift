@testable import CorsanoKit
import Foundation
import Testing

/// What a report says and how its values are marked up (docs/design.md "Export"): every value run
/// in its own isolate, the plot's bands classifying each reading as its table row does, a subject
/// line, a multi-set certificate with every set's readings and means, times to the second, and
/// no English in a report of another locale. The rendered layout is ReportLayoutTests' (Chromium).
@Suite struct ReportContentTests {
    static let bracelet = BraceletIdentity(model: "287-2", firmware: "7.4", serial: "SIM-287-0001")

    /// A reading line as the audit log stores it.
    static func reading(_ systolic: Int, _ diastolic: Int, at stamp: String, subject: String? = nil) -> String {
        #"{"systolic":\#(systolic),"diastolic":\#(diastolic),"pulse":70,"measuredAt":"\#(stamp)","cuff":"A4:C1:38:0B:7E:21""#
            + (subject.map { #","subject":"\#($0)""# } ?? "") + "}"
    }

    /// A finished bp-init run fed `readings` (systolic, diastolic) a minute apart from `start` (RFC 3339, minutes 00–50).
    static func run(_ id: String, hour: Int = 10, _ readings: [(Int, Int)], subject: String? = nil) -> AuditRun {
        let stamp = { (minute: Int) in String(format: "2026-11-29T%02d:%02d:30Z", hour, minute) }
        return AuditRun(run: id, flow: "bp-init", bracelet: bracelet, startedAt: stamp(0), endedAt: stamp(readings.count + 1),
                        configJSON: #"{"operator":"J. Jansen"}"#, resultJSON: #"{"kind":"success","measurementCount":\#(readings.count)}"#,
                        readings: readings.enumerated().map { i, r in
                            AuditReading(attempt: 1, index: i + 1, accepted: true, manual: false,
                                         readingJSON: reading(r.0, r.1, at: stamp(i + 1), subject: subject), mapReported: false)
                        }, gateway: "lab-gw-2")
    }

    static func certificate(_ run: AuditRun, calibration: MultiSetCalibration? = nil, setRuns: [AuditRun] = []) -> CalibrationCertificate {
        var c = CalibrationCertificate(run: run, signatures: [], planRestored: nil, chainHead: "ab12", issued: Instant(secondsSinceEpoch: 1_795_000_000),
                                       version: "1.0")
        c.calibration = calibration
        for r in setRuns { c.setRuns[r.run] = r }
        return c
    }

    /// Three sets of three readings an hour apart; the certificate of set 3.
    static func threeSets() -> CalibrationCertificate {
        let values = [[(121, 81), (122, 82), (123, 83)], [(131, 91), (132, 92), (133, 93)], [(126, 86), (127, 87), (128, 88)]]
        let runs = values.enumerated().map { i, v in run("set\(i + 1)", hour: 10 + i, v) }
        let sets = runs.enumerated().map { i, r in
            CalibrationSetRecord(set: i + 1, run: r.run, endedAt: RFC3339.parseInstant(r.endedAt!)!, cuff: nil,
                                 readings: values[i].map { CalibrationSetReading(systolic: $0.0, diastolic: $0.1, accepted: true) })
        }
        let calibration = MultiSetCalibration(id: "set1", serial: bracelet.serial, parameters: MultiSetProtocol(kind: .corsano, sets: 3),
                                              status: .completed, startedAt: RFC3339.parseInstant(runs[0].startedAt)!, sets: sets)
        return certificate(runs[2], calibration: calibration, setRuns: runs)
    }

    /// The text of every match of `pattern`'s first group in `html`.
    static func all(_ pattern: String, in html: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { String(html[Range($0.range(at: 1), in: html)!]) }
    }

    @Test(arguments: [AppLocale.ar, .he, .en])
    func everyValueRunIsItsOwnIsolate(locale: AppLocale) throws {
        let html = Self.certificate(Self.run("r1", [(133, 86)], subject: "P-017")).html(Localizer(locale: locale))
        // A date-time: the date, the time (to the second) and the zone, each an isolate that does not break.
        #expect(Self.all(#"<span class="dt"><bdi class="v nw date">[^<]+</bdi>[^<]*<bdi class="v nw time">[^<]+</bdi> (<bdi class="v nw zone">UTC</bdi>)</span>"#,
                         in: html).count >= 4, "issued, performed (2), the reading's time")
        let times = Self.all(#"<bdi class="v nw time">([^<]+)</bdi>"#, in: html)
        #expect(times.count >= 4 && times.allSatisfy { $0.filter(\.isNumber).count >= 6 }, "to the second: \(times)")
        // Performed: two date-times and a dash, nothing else.
        #expect(html.contains(#"</span> – <span class="dt">"#))
        // The item: model, serial and firmware each an isolate; the serial one run.
        #expect(html.contains(#"<bdi class="v nw">287-2</bdi>"#) && html.contains(#"<bdi class="v nw serial">SIM-287-0001</bdi>"#)
                && html.contains(#"<bdi class="v nw">7.4</bdi>"#))
        // No paragraph takes its direction from its content any more: the document's is the locale's.
        #expect(!html.contains("plaintext"))
        #expect(html.contains(#"<bdi class="v nw">P-017</bdi>"#))
    }

    @Test func timesAreToTheSecond() {
        let html = Self.certificate(Self.run("r1", [(133, 86)])).html(Localizer(locale: .en))
        #expect(html.contains(#"<bdi class="v nw time">10:01:30"#), "\(html)")
    }

    /// The band behind each reading is the category its table row names: the higher of its
    /// systolic and diastolic category (118/86 is stage 1 by its diastolic in ACC/AHA 2017;
    /// ESH 2023 grade 1 by 90).
    @Test(arguments: [BPCategories.accAha2017, .esh2023])
    func eachReadingsBandIsItsTableCategory(categories: BPCategories) {
        var c = Self.certificate(Self.run("r1", [(118, 86), (125, 70), (110, 70), (118, 92), (150, 70)]))
        c.categories = categories
        let html = c.html(Localizer(locale: .en))
        let bands = Self.all(#"<rect class="band band\d"[^>]*><title>([^<]+)</title>"#, in: html)
        let table = Self.all(#"<td data-label="Category"><span>([^<]+)</span>"#, in: html)
        #expect(bands.count == 5)
        #expect(bands == table)
        if categories == .accAha2017 {
            #expect(table == ["Stage 1 hypertension", "Elevated", "Normal", "Stage 2 hypertension", "Stage 2 hypertension"])
        } else {
            #expect(table == ["High normal", "Normal", "Optimal", "Grade 1 hypertension", "Grade 1 hypertension"])
        }
        // The category names are the legend's, outside the drawing.
        let svg = Self.all(#"(<svg.*</svg>)"#, in: html).joined()
        #expect(!svg.contains("<text class=\"bandlabel\""))
        #expect(html.contains(#"<ul class="legend">"#))
    }

    @Test func aRunWithASubjectHasASubjectLine() {
        let with = Self.certificate(Self.run("r1", [(133, 86)], subject: "P-017")).html(Localizer(locale: .en))
        #expect(with.contains(#"<dt>Subject</dt><dd><bdi class="v nw">P-017</bdi></dd>"#))
        let without = Self.certificate(Self.run("r1", [(133, 86)])).html(Localizer(locale: .en))
        #expect(!without.contains("<dt>Subject</dt>"))
    }

    /// A set's certificate shows all nine readings of three sets, grouped under "Set N of 3", each
    /// group with its set's means; the plot has all nine.
    @Test func aThreeSetCertificateShowsEverySetsReadings() {
        let html = Self.threeSets().html(Localizer(locale: .en))
        #expect(Self.all(#"<h3>(Set <bdi class="v nw">\d</bdi> of <bdi class="v nw">3</bdi>)</h3>"#, in: html).count == 3)
        let pressures = Self.all(#"<td data-label="SYS/DIA \(mmHg\)" class="num"><span><bdi class="v nw">(\d+/\d+)</bdi>"#, in: html)
        #expect(pressures == ["121/81", "122/82", "123/83", "131/91", "132/92", "133/93", "126/86", "127/87", "128/88"])
        for mean in ["122.0/82.0", "122.5/82.5", "132.0/92.0", "132.5/92.5", "127.0/87.0", "127.5/87.5"] {
            #expect(html.contains(#"<bdi class="v nw">\#(mean)</bdi>"#), "lacks \(mean)")
        }
        #expect(Self.all(#"(<circle class="sys")"#, in: html).count == 9)
    }

    /// Every word of a report in another locale comes from that locale's catalogue: text outside
    /// the value isolates that is the same as the English report's is allowed only where the
    /// locale's own catalogue says it (a translator's choice: "Gateway", "Corsano CardioWatch").
    @Test(arguments: AppLocale.allCases.filter { $0 != .en })
    func aReportInAnotherLocaleHoldsNoEnglishOfItsOwn(locale: AppLocale) throws {
        var certificate = Self.threeSets()
        certificate.signatures = [SignatureRecord(record: "s", signedRun: "set3", name: "A. de Vries", osUser: "avries", gateway: "lab-gw-2",
                                                  at: "2026-11-29T13:00:00Z", meaning: "approval", runHash: String(repeating: "a", count: 64))]
        let history = BraceletHistoryReport(runs: [Self.run("r1", [(118, 86)])], dueDays: 28, categories: .default, paper: .a4,
                                            issued: Instant(secondsSinceEpoch: 1_795_000_000), version: "1.0")
        let validation = ValidationReport(summary: try Self.validationSummary(), issued: Instant(secondsSinceEpoch: 1_795_000_000), version: "1.0")
        let reports: [(String, (Localizer) -> String)] = [("certificate", certificate.html), ("history", history.html), ("validation", validation.html)]
        for (name, render) in reports {
            let english = Set(Self.words(render(Localizer(locale: .en))))
            let leaked = Self.words(render(Localizer(locale: locale))).filter { segment in
                english.contains(segment) && !Self.catalogue(locale).contains { $0.contains(segment) }
            }
            #expect(leaked.isEmpty, "\(name) in \(locale.rawValue): English text not from its catalogue: \(leaked)")
        }
    }

    /// The check above finds what it is for: the English pairing name the German validation
    /// report used to show ("sequential", not from the catalogue) is a leak; a value isolate and
    /// German words are not.
    @Test func theEnglishCheckFindsAnEnglishWordOutsideTheCatalogue() {
        let english = Set(Self.words("<body><dd>sequential</dd><dd>Gateway</dd></body>"))
        let german = Self.words(#"<body><dd>sequential</dd><dd><bdi class="v">lab gateway</bdi></dd><dd>Gateway</dd><dd>Paarbildung</dd></body>"#)
        let leaked = german.filter { segment in english.contains(segment) && !Self.catalogue(.de).contains { $0.contains(segment) } }
        #expect(leaked == ["sequential"])
    }

    /// The validation summary of a small panel (sequential pairing; ValidationPairingTests' panel).
    static func validationSummary() throws -> ValidationSummary {
        ValidationSummary(paired: ValidationPairingTests.panel(subjects: 6, offset: 0, skew: { $0 % 2 == 0 ? -3 : 3 }),
                          pairing: .sequential, minimum: .panel(subjects: 6))
    }

    /// The text segments of a report outside values (`<bdi>`, ids, hashes), the head and the style,
    /// that hold a word of three or more Latin letters other than the units and the zone (mmHg,
    /// bpm, UTC: the same in every locale).
    static func words(_ html: String) -> [String] {
        var body = String(html[html.range(of: "<body>")!.upperBound...])
        for pattern in [#"<bdi[^>]*>[^<]*</bdi>"#, #"<span class="(id|hash)">[^<]*</span>"#, #"<[^>]*>"#] {
            body = body.replacingOccurrences(of: pattern, with: "\u{1}", options: .regularExpression)
        }
        return body.split(separator: "\u{1}").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { segment in
            let letters = segment.replacingOccurrences(of: #"\b(mmHg|bpm|UTC)\b"#, with: "", options: .regularExpression)
            return letters.range(of: "[A-Za-z]{3,}", options: .regularExpression) != nil
        }
    }

    /// Every text `locale`'s own catalogue (and its fallbacks but English) holds, with `{n}` as separators.
    static func catalogue(_ locale: AppLocale) -> [String] {
        var out: [String] = []
        var current: AppLocale? = locale
        while let l = current, l != .en {
            for key in L10nKey.allCases { out += (StringTables.own(key, in: l)?.forms ?? []).flatMap { $0.split(separator: /\{\d\}/).map(String.init) } }
            current = l.fallback
        }
        return out
    }
}
