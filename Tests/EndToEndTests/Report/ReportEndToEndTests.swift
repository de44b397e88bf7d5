import CorsanoKit
import Foundation
import Testing

/// `corsano report` as people see it: a certificate (en and ar) and a history made by
/// the built binary from a real SQLite store (a bp-init run with cuff and anchor fields, a
/// signature whose name holds markup), rendered in real headless Chromium to PNG at a desktop's
/// and a phone's width and to PDF: `tidy` finds no error or warning, `pdftotext` has the fields,
/// the readings, the signature and "Page 1 of N" from the page header, and each PNG has the
/// plot's frame with systolic marks drawn inside it (the colours `ReportDocument.style` gives them).
@Suite(.serialized) struct ReportEndToEndTests {
    typealias E = BPInitE2E

    /// Three readings of one cuff converted through one anchor (`cuff ingest`'s fields).
    static let readings = """
        {"systolic":133,"diastolic":86,"pulse":71,"measuredAt":"2026-11-29T10:00:55Z","deviceTime":"2025-01-01T00:04:00","isManualEntry":false,"cuff":"A4:C1:38:0B:7E:21","anchor":{"device":"2025-01-01T00:00:00","phone":"2026-11-29T09:56:55Z"}}
        {"systolic":141,"diastolic":84,"pulse":69,"measuredAt":"2026-11-29T10:02:55Z","deviceTime":"2025-01-01T00:06:00","isManualEntry":false,"cuff":"A4:C1:38:0B:7E:21","anchor":{"device":"2025-01-01T00:00:00","phone":"2026-11-29T09:56:55Z"}}

        """
    static let signer = #"Dr. <b>Ann</b> "O'Neil" & co"#
    static let operatorName = "J. <i>Jansen</i>"

    /// The plot's frame and systolic mark colours (`ReportDocument.style`).
    static let frame: UInt32 = 0x203A8F, systolic: UInt32 = 0xC8102E

    /// A store with one signed bp-init run; returns (state, run id, serial, key file).
    static func store(subject: String? = nil) throws -> (state: String, run: String, serial: String, key: String) {
        let dir = try E.directory().path
        let key = dir + "/audit.key"
        FileManager.default.createFile(atPath: key, contents: Data("report-test-key-0123456789abcdef0123456789\n".utf8),
                                       attributes: [.posixPermissions: 0o600])
        let state = dir + "/state.sqlite3"
        let run = try Corsano.run(["bp-init", "--json", "--state", state, "--audit-key", key, "--operator", operatorName] + E.now
                                  + (subject.map { ["--subject-id", $0] } ?? []),
                                  stdin: readings)
        #expect(run.status == 0, "\(run.stderr)")
        let history = try Corsano.run(["history", "--json", "--state", state]).stdout
        let first = try #require(try JSONSerialization.jsonObject(with: Data(history.split(separator: "\n")[0].utf8)) as? [String: Any])
        let id = try #require(first["run"] as? String)
        let serial = try #require((first["bracelet"] as? [String: Any])?["serial"] as? String)
        let sign = try Corsano.run(["history", "sign", "--run", id, "--name", signer, "--meaning", "approval", "--state", state, "--audit-key", key])
        #expect(sign.status == 0, "\(sign.stderr)")
        return (state, id, serial, key)
    }

    /// Writes the report `args` asks for into a file and returns its path, checked by tidy.
    static func report(_ args: [String], state: String) throws -> String {
        let path = try E.directory().appendingPathComponent("report.html").path
        let r = try Corsano.run(["report", "--state", state, "--output", path] + args)
        #expect(r.status == 0, "\(r.stderr)")
        let tidy = try Shell.run("tidy", ["-q", "-e", path])
        #expect(tidy.status == 0, "tidy: \(tidy.stderr)")
        return path
    }

    /// The PDF's text in content order (`pdftotext -raw`: a table cell's lines stay together),
    /// each run of white space one space, after Chromium printed `html`.
    static func pdfText(_ html: String) throws -> String {
        let pdf = html + ".pdf"
        let r = try Chromium.render(html, pdf: pdf)
        #expect(r.status == 0, "chromium: \(r.stderr)")
        let text = try Shell.run("pdftotext", ["-raw", pdf, "-"])
        #expect(text.status == 0, "pdftotext: \(text.stderr)")
        return text.stdout.replacing(/\s+/, with: " ")
    }

    /// A screenshot at `width` × `height`: the plot's frame is there, inside the image, with
    /// systolic marks drawn inside it. Returns the frame's box.
    @discardableResult
    static func screenshot(_ html: String, width: Int, height: Int = 2400) throws -> (left: Int, top: Int, right: Int, bottom: Int) {
        let png = html + "-\(width).png"
        let r = try Chromium.render(html, screenshot: png, width: width, height: height)
        #expect(r.status == 0, "chromium: \(r.stderr)")
        let image = try PNGImage(Array(try Data(contentsOf: URL(fileURLWithPath: png))))
        #expect(image.width == width)
        let box = try #require(image.box(of: frame), "no plot frame in the \(width) px screenshot")
        #expect(box.right - box.left > width / 3, "the plot is \(box.right - box.left) px wide of \(width)")
        #expect(box.right < width)
        #expect(image.count(systolic, inside: box) > 20, "no systolic marks drawn inside the plot")
        return box
    }

    @Test(arguments: ["en", "ar"])
    func aCertificateRendersInChromiumWithItsFieldsReadingsAndSignature(lang: String) throws {
        let (state, run, serial, _) = try Self.store()
        let html = try Self.report(["--run", run, "--lang", lang], state: state)
        let source = try String(contentsOfFile: html, encoding: .utf8)
        #expect(!source.contains("<b>Ann"), "the signer's name became markup")
        #expect(source.contains("Dr. &lt;b&gt;Ann&lt;/b&gt; &quot;O&#39;Neil&quot; &amp; co"))
        #expect(!source.contains("<script") && !source.contains("src=") && !source.contains("href="))
        #expect(source.contains(lang == "ar" ? #"<html lang="ar" dir="rtl">"# : #"<html lang="en" dir="ltr">"#))
        let text = try Self.pdfText(html)
        let head = try #require(Corsano.run(["history", "--verify", "--json", "--state", state]).stdout
            .firstMatch(of: /"head":"([0-9a-f]+)"/)).output.1
        #expect(!source.contains("<i>Jansen"), "the operator's name became markup")
        for field in [run, serial, "287-2", "A4:C1:38:0B:7E:21", "133/86", "141/84", Self.operatorName, String(head)] {
            #expect(text.contains(field), "PDF text lacks \(field)")
        }
        // The signer's name may wrap in its cell (it is the one value allowed to): in a
        // right-to-left page the text of its second line comes out after the rest of that line.
        for word in Self.signer.split(separator: " ") {
            #expect(text.contains(word), "PDF text lacks \(word) of the signer's name")
        }
        if lang == "en" { #expect(text.contains(Self.signer), "PDF text lacks \(Self.signer)") }
        if lang == "en" {
            for field in ["Calibration certificate", "Page 1 of 2", "Stage 1 hypertension", "Stage 2 hypertension", "approval",
                          "cuff clock 2025-01-01T00:00:00", "calibrated, measurements: 2", "Audit chain head"] {
                #expect(text.contains(field), "PDF text lacks \(field)")
            }
        } else {
            #expect(text.contains("1") && text.contains("2"))
        }
        try Self.screenshot(html, width: 1000)
        try Self.screenshot(html, width: 390)
    }

    @Test func aHistoryRendersInChromiumWithTheRunsAndTheDueDate() throws {
        let (state, run, serial, key) = try Self.store()
        // A second calibration a day later, so the history holds two.
        let later = try Corsano.run(["bp-init", "--json", "--state", state, "--audit-key", key, "--now", "2026-11-30T10:00:30Z"],  // operator: the OS user
                                    stdin: Self.readings.replacingOccurrences(of: "2026-11-29T10:0", with: "2026-11-30T10:0"))
        #expect(later.status == 0, "\(later.stderr)")
        let html = try Self.report(["--kind", "history", "--bracelet", serial, "--due", "28", "--categories", "esh2023"], state: state)
        let text = try Self.pdfText(html)
        for field in ["Calibration history", serial, run, "Page 1 of", "Next calibration due", "Last successful calibration",
                      "calibrated, measurements: 2", "Ann", "ESH 2023"] {
            #expect(text.contains(field), "PDF text lacks \(field)")
        }
        try Self.screenshot(html, width: 1000)
        try Self.screenshot(html, width: 390)
    }

    /// `validate … --report FILE`: the summary's numbers, the criteria verdicts, n
    /// against the minimum and every subject are in the PDF's text; the Bland–Altman plot (the
    /// first plot) has its points drawn inside its frame, at a desktop's and a phone's width.
    @Test func aValidationReportRendersInChromiumWithTheSummaryPlotsAndSubjects() throws {
        let path = try E.directory().appendingPathComponent("validation.html").path
        let r = try Corsano.run(["validate", "--json", "--min-subjects", "6", "--report", path, "--lang", "en",
                                 ValidateEndToEndTests.reference, ValidateEndToEndTests.good])
        #expect(r.status == 0, "\(r.stderr)")
        let tidy = try Shell.run("tidy", ["-q", "-e", path])
        #expect(tidy.status == 0, "tidy: \(tidy.stderr)")
        let source = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!source.contains("<script") && !source.contains("src=") && !source.contains("href="))
        #expect(source.contains(#"<svg class="plot" id="bland-altman-systolic" role="img""#) && source.contains(#"id="scatter-diastolic""#))
        // The numbers the summary line gives, to one decimal as the standard reports them.
        let line = try #require(r.lines.first)
        let summary = try #require(try JSONValue.parse(Array(line.utf8))["summary"])
        var numbers: [String] = []
        for variable in ["systolic", "diastolic"] {
            for field in [["meanDifference"], ["sdDifference"], ["blandAltman", "lower"], ["blandAltman", "upper"], ["meanAbsoluteDifference"]] {
                var value: JSONValue? = summary[variable]
                for key in field { value = value?[key] }
                let x = try #require(value?.doubleValue, "\(variable) \(field)")
                let rounded = (x * 10).rounded() / 10
                numbers.append((rounded > 0 && field != ["sdDifference"] && field != ["meanAbsoluteDifference"] ? "+" : "") + String(format: "%.1f", rounded))
            }
        }
        let text = try Self.pdfText(path)
        for field in ["Validation report", "Page 1 of", "6 subjects, 18 pairs; the minimum is 6 subjects, 18 pairs",
                      "Pass (ISO 81060-2 criterion 1, ISO 81060-2 criterion 2)", "Criterion 1", "Criterion 2 limit",
                      "95% limits of agreement", "IEEE 1708 grade", "P01", "P06"] + numbers {
            #expect(text.contains(field), "PDF text lacks \(field)")
        }
        try Self.screenshot(path, width: 1000)
        try Self.screenshot(path, width: 390)
    }

    /// HTML is a document, not terminal text: at a terminal without --output, 64 and what to do;
    /// into a pipe it is written as before (every other test here reads it from one or a file).
    @Test func aReportToATerminalWithoutOutputIs64() throws {
        let (state, run, _, _) = try Self.store()
        let term = try Tmux(["report", "--run", run, "--state", state])
        let screen = try term.waitFor("[exited 64]")
        #expect(screen.contains("report writes HTML; use --output FILE or a pipe"), "\(screen)")
        #expect(!screen.contains("<!DOCTYPE"))
        let piped = try Corsano.run(["report", "--run", run, "--state", state])
        #expect(piped.status == 0 && piped.stdout.hasPrefix("<!DOCTYPE html>"), "\(piped.stderr)")
    }

    @Test func anUnknownRunOrBraceletIs66() throws {
        let (state, _, _, _) = try Self.store()
        let run = try Corsano.run(["report", "--run", "nope", "--state", state])
        #expect(run.status == 66)
        #expect(run.stderr.contains("no run nope"))
        let bracelet = try Corsano.run(["report", "--kind", "history", "--bracelet", "SIM-NONE", "--state", state])
        #expect(bracelet.status == 66)
        #expect(bracelet.stdout.isEmpty)
        let noStore = try Corsano.run(["report", "--run", "x", "--state", try E.directory().path + "/absent.sqlite3"])
        #expect(noStore.status == 66)
        let usage = try Corsano.run(["report", "--kind", "history", "--state", state])
        #expect(usage.status == 64)
    }
}
