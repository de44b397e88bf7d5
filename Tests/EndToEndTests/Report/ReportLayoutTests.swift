import CorsanoKit
import Foundation
import Testing

/// A certificate as Chromium lays it out, read back from the rendered page (docs/design.md
/// "Export"): at a desktop's (1280 px) and a phone's (390 px) width, in Arabic and Hebrew (and
/// English, the left-to-right control), a script added to a copy of the built binary's document
/// reads the positions of every value run with `Range.getClientRects` and writes them into the
/// page, which `--dump-dom` returns. Each date, time and zone is one unbroken run on one line;
/// the runs of one field follow each other in the locale's reading order (right to left in ar and
/// he); the serial is on one line; no text of a plot covers a plotted point or line; at 390 px no
/// text is drawn under 9 px.
@Suite(.serialized) struct ReportLayoutTests {
    typealias E = BPInitE2E

    struct Box: Decodable { var l, t, r, b: Double }
    /// One value run (`bdi.v`): its kind (its last class) and its line boxes.
    struct Run: Decodable { var kind: String; var text: String; var rects: [Box] }
    /// What the script measured.
    struct Measure: Decodable {
        /// Per field (`dd`) and table cell (`td`): its value runs in document (logical) order.
        var fields: [[Run]]
        var overlaps: [String]
        var smallest: Double
        var smallestText: String
        /// The page's width in CSS px (the frame's).
        var viewport: Double
    }

    /// Measures the page and writes the result as JSON into `pre#corsano-measure`.
    static let script = """
        <script>
        (function () {
          function boxes(node) {
            var range = document.createRange();
            range.selectNodeContents(node);
            return Array.prototype.filter.call(range.getClientRects(), function (r) { return r.width > 0 && r.height > 0; })
              .map(function (r) { return {l: r.left, t: r.top, r: r.right, b: r.bottom}; });
          }
          var out = {fields: [], overlaps: [], smallest: 1e9, smallestText: ""};
          document.querySelectorAll("dd, td").forEach(function (cell) {
            var runs = Array.prototype.map.call(cell.querySelectorAll("bdi.v"), function (b) {
              return {kind: b.classList[b.classList.length - 1], text: b.textContent, rects: boxes(b)};
            });
            if (runs.length) out.fields.push(runs);
          });
          document.querySelectorAll("svg.plot").forEach(function (svg) {
            var marks = svg.querySelectorAll("circle, rect.dia, line.pair, line.bias, line.limit, line.identity");
            svg.querySelectorAll("text").forEach(function (t) {
              var a = t.getBoundingClientRect();
              marks.forEach(function (m) {
                var b = m.getBoundingClientRect();
                if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
                  out.overlaps.push(svg.id + ": '" + t.textContent + "' covers a " + m.getAttribute("class"));
              });
            });
          });
          var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (var n = walker.nextNode(); n; n = walker.nextNode()) {
            var el = n.parentElement;
            if (!n.textContent.trim() || el.closest("title, desc, script, pre#corsano-measure")) continue;
            // The size drawn: the font size, times the drawing's scale inside an SVG.
            var size = parseFloat(getComputedStyle(el).fontSize);
            var svg = el.closest("svg");
            if (svg) size *= svg.getScreenCTM().a;
            if (size < out.smallest) { out.smallest = size; out.smallestText = n.textContent.trim().slice(0, 40); }
          }
          out.viewport = innerWidth;
          var pre = document.createElement("pre");
          pre.id = "corsano-measure";
          pre.textContent = JSON.stringify(out);
          document.body.appendChild(pre);
        })();
        </script>
        """

    /// The page `html` (a report file) measured by Chromium at `width` px: in a frame that wide
    /// (`srcdoc`, so the page's script may be read from outside), since headless Chromium makes
    /// no window narrower than 500 px; the frame's own media queries and layout are a phone's.
    static func measure(_ html: String, width: Int) throws -> Measure {
        let copy = html + "-measure-\(width).html"
        let source = try String(contentsOfFile: html, encoding: .utf8).replacingOccurrences(of: "</body>", with: script + "\n</body>")
        let frame = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><style>body { margin: 0; } iframe { border: 0; display: block; }</style></head><body>
            <iframe id="page" style="width: \(width)px; height: 4000px" srcdoc="\(source.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;"))"></iframe>
            <script>
            window.addEventListener("load", function () {
              var found = document.getElementById("page").contentDocument.getElementById("corsano-measure");
              var pre = document.createElement("pre");
              pre.id = "corsano-measure";
              pre.textContent = found ? found.textContent : "";
              document.body.appendChild(pre);
            });
            </script>
            </body></html>
            """
        try frame.write(toFile: copy, atomically: true, encoding: .utf8)
        let r = try Chromium.dom(copy, width: max(width, 1280), height: 2400)
        #expect(r.status == 0, "chromium: \(r.stderr)")
        let json = try #require(r.stdout.firstMatch(of: /<pre id="corsano-measure">([^<]*)<\/pre>/), "no measurement in the page").output.1
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(Measure.self, from: Data(json.utf8))
    }

    /// One signed bp-init run whose readings name a subject; its certificate in `lang`.
    static func certificate(lang: String) throws -> String {
        let (state, run, _, _) = try ReportEndToEndTests.store(subject: "P-017")
        return try ReportEndToEndTests.report(["--run", run, "--lang", lang], state: state)
    }

    @Test(arguments: ["ar", "he", "en"], [1280, 390])
    func valueRunsStayWholeAndInTheLocalesOrder(lang: String, width: Int) throws {
        let m = try Self.measure(try Self.certificate(lang: lang), width: width)
        #expect(m.viewport == Double(width))
        let rightToLeft = lang != "en"
        let runs = m.fields.flatMap { $0 }
        #expect(runs.filter { $0.kind == "date" }.count >= 4 && runs.contains { $0.kind == "serial" }, "\(runs.map(\.text))")
        for run in runs {
            // One run, one line: every box of it on the same line, side by side without a gap.
            let tops = Set(run.rects.map { Int($0.t.rounded()) })
            #expect(!run.rects.isEmpty && tops.count == 1, "\(lang) \(width) px: '\(run.text)' (\(run.kind)) broken over lines: \(run.rects)")
            let drawn = run.rects.map { $0.r - $0.l }.reduce(0, +)
            let span = (run.rects.map(\.r).max() ?? 0) - (run.rects.map(\.l).min() ?? 0)
            #expect(abs(span - drawn) < 1.5, "\(lang): '\(run.text)' drawn in pieces apart: \(run.rects)")
        }
        // Within a field, runs on one line read in the locale's order; a later run never comes back on an earlier line.
        for field in m.fields {
            for (a, b) in zip(field, field.dropFirst()) {
                guard let ra = a.rects.first, let rb = b.rects.first else { continue }
                if abs(ra.t - rb.t) < 1 {
                    let al = a.rects.map(\.l).min()!, ar = a.rects.map(\.r).max()!
                    let bl = b.rects.map(\.l).min()!, br = b.rects.map(\.r).max()!
                    if rightToLeft {
                        #expect(br <= al + 0.5, "\(lang) \(width) px: '\(b.text)' is not left of '\(a.text)'")
                    } else {
                        #expect(bl >= ar - 0.5, "\(lang) \(width) px: '\(b.text)' is not right of '\(a.text)'")
                    }
                } else {
                    #expect(rb.t > ra.t, "\(lang) \(width) px: '\(b.text)' is on a line above '\(a.text)'")
                }
            }
        }
        #expect(m.overlaps.isEmpty, "\(m.overlaps)")
        if width == 390 { #expect(m.smallest >= 9, "'\(m.smallestText)' is drawn at \(m.smallest) px") }
    }

    /// The validation report's plots: no label on a point or a line, text at least 9 px on a phone.
    @Test func aValidationReportsPlotsKeepTheirTextClearAndReadable() throws {
        let path = try E.directory().appendingPathComponent("validation.html").path
        let r = try Corsano.run(["validate", "--json", "--min-subjects", "6", "--report", path, "--lang", "ar",
                                 ValidateEndToEndTests.reference, ValidateEndToEndTests.good])
        #expect(r.status == 0, "\(r.stderr)")
        for width in [1280, 390] {
            let m = try Self.measure(path, width: width)
            #expect(m.viewport == Double(width))
            #expect(m.overlaps.isEmpty, "\(width) px: \(m.overlaps)")
            if width == 390 { #expect(m.smallest >= 9, "'\(m.smallestText)' is drawn at \(m.smallest) px") }
        }
    }
}
