@testable import CorsanoKit
import Testing

/// The report builder escapes every value from outside: markup, quotes, ampersands and
/// controls in a serial, firmware, gateway, operator, cuff or signer's name are shown as written,
/// in element content, attributes and the page header's CSS string alike.
@Suite struct ReportHTMLTests {
    static let hostile = #"</style><script>alert("x")</script>&'"# + "\u{1B}[2J"

    @Test func textAndAttributesAreEscaped() {
        #expect(HTML.text(#"<a href="x">&'"#).markup == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
        #expect(HTML.element("td", ["data-label": #"a"b"#], text: "<b>").markup == #"<td data-label="a&quot;b">&lt;b&gt;</td>"#)
        #expect(HTML.text("\u{1B}[2J").markup == "\\e[2J")
    }

    @Test func aCSSStringCannotEndTheStringOrTheStyleElement() {
        let css = HTML.cssString(Self.hostile)
        #expect(css.hasPrefix("\"") && css.hasSuffix("\""))
        #expect(!css.dropFirst().dropLast().contains("\""))
        #expect(!css.contains("<") && !css.contains(">"))
        #expect(HTML.cssString("Page 1") == #""Page 1""#)
        #expect(HTML.cssString("a\"b") == #""a\22 b""#)
    }

    @Test(arguments: [AppLocale.en, .ar, .he, .de])
    func aCertificateWithHostileValuesHoldsNoMarkupOfThem(locale: AppLocale) {
        let reading = #"{"systolic":133,"diastolic":86,"pulse":71,"measuredAt":"2026-11-29T10:00:55Z","cuff":"\#(Self.json(Self.hostile))","#
            + #""anchor":{"device":"2025-01-01T00:00:00","phone":"2026-11-29T09:56:55Z"}}"#
        let run = AuditRun(run: "r1", flow: "bp-init", bracelet: BraceletIdentity(model: Self.hostile, firmware: Self.hostile, serial: Self.hostile),
                           startedAt: "2026-11-29T10:00:30Z", endedAt: "2026-11-29T10:03:00Z",
                           configJSON: #"{"operator":"\#(Self.json(Self.hostile))"}"#, resultJSON: #"{"kind":"success","measurementCount":1}"#,
                           readings: [AuditReading(attempt: 1, index: 1, accepted: true, manual: false, readingJSON: reading, mapReported: false)],
                           gateway: Self.hostile)
        let signature = SignatureRecord(record: "r1.signature.1", signedRun: "r1", name: Self.hostile, osUser: Self.hostile, gateway: Self.hostile,
                                        at: "2026-11-29T11:00:00Z", meaning: "approval", runHash: String(repeating: "a", count: 64))
        let html = CalibrationCertificate(run: run, signatures: [signature], planRestored: nil, chainHead: "b", issued: Instant(secondsSinceEpoch: 0),
                                          version: "t").html(Localizer(locale: locale))
        #expect(!html.contains("<script"))
        #expect(!html.contains("\u{1B}"))
        #expect(html.components(separatedBy: "</style>").count == 2, "only the style element's own end tag")
        #expect(html.contains("&lt;/style&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"))
        #expect(html.contains(locale.isRightToLeft ? #"dir="rtl""# : #"dir="ltr""#))
    }

    @Test func categoriesFollowTheGuidelinesBounds() {
        let aha = BPCategories.accAha2017, esh = BPCategories.esh2023
        let name = { (c: BPCategories, s: Int, d: Int) in c.name(c.category(systolic: s, diastolic: d), Localizer(locale: .en)) }
        #expect(name(aha, 119, 79) == "Normal")
        #expect(name(aha, 125, 79) == "Elevated")
        #expect(name(aha, 125, 80) == "Stage 1 hypertension")
        #expect(name(aha, 139, 95) == "Stage 2 hypertension")
        #expect(name(esh, 119, 79) == "Optimal")
        #expect(name(esh, 119, 84) == "Normal")
        #expect(name(esh, 135, 70) == "High normal")
        #expect(name(esh, 150, 70) == "Grade 1 hypertension")
        #expect(name(esh, 120, 105) == "Grade 2 hypertension")
        #expect(name(esh, 181, 60) == "Grade 3 hypertension")
    }

    /// `text` as the inside of a JSON string.
    static func json(_ text: String) -> String {
        JSONValue.string(text).serialized.dropFirst().dropLast().description
    }
}
