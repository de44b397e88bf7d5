/// Paper sizes a report prints on (CSS Paged Media 3 §7.1 `size` keywords).
public enum PaperSize: String, CaseIterable, Sendable {
    case a4, letter

    /// What `report --paper` uses when not given.
    public static let `default` = PaperSize.a4
}

/// One self-contained HTML document: inline CSS, inline SVG, no script, nothing
/// fetched (no font, image or style sheet), so it opens the same offline and years later.
///
/// Print styles make Chromium's "Print to PDF" a clean document: `@page` size and margins, and a
/// header on every page in the page-margin boxes (CSS Paged Media 3 §5; Chromium draws
/// `@top-left`/`@top-right` with `counter(page)` and `counter(pages)` since version 131 when its own
/// header and footer are off), saying the document's title and number and "page x of y". On a
/// screen narrower than 40em the tables turn into one card per row, each cell labelled.
struct ReportDocument {
    var title: String
    /// The document's number (certificate number, bracelet serial), in the page header.
    var number: String
    var localizer: Localizer
    var paper: PaperSize
    var body: [HTML]
    /// Printed in every page's header when set ("NOT VERIFIED": the document shows records that do
    /// not verify against the audit chain; docs/design.md "Audit chain").
    var mark: String? = nil

    var html: String {
        let l = localizer
        let lang = l.locale.tag, dir = l.locale.isRightToLeft ? "rtl" : "ltr"
        // "Page {1} of {2}" split around its placeholders, so the counters land where the locale puts them.
        // The isolates the localizer puts round each value are left out: split at the counters they
        // would be unbalanced pieces, and a page number needs none.
        let pageOf = l.string(.reportPageOf, ["\u{E001}", "\u{E002}"]).filter { $0 != "\u{2068}" && $0 != "\u{2069}" }
        var content: [String] = []
        var rest = Substring(pageOf)
        while let i = rest.firstIndex(where: { $0 == "\u{E001}" || $0 == "\u{E002}" }) {
            if i > rest.startIndex { content.append(HTML.cssString(String(rest[..<i]))) }
            content.append(rest[i] == "\u{E001}" ? "counter(page)" : "counter(pages)")
            rest = rest[rest.index(after: i)...]
        }
        if !rest.isEmpty { content.append(HTML.cssString(String(rest))) }
        let header = HTML.cssString(title + " " + number)
        // MARK first: the values filled in after it may hold that word.
        let style = Self.style
            .replacingOccurrences(of: "MARK", with: mark.map(HTML.cssString) ?? "none")
            .replacingOccurrences(of: "PAPER", with: paper == .a4 ? "A4" : "letter")
            .replacingOccurrences(of: "HEADER", with: header)
            .replacingOccurrences(of: "PAGEOF", with: content.joined(separator: " "))
        return "<!DOCTYPE html>\n<html lang=\"\(HTML.escape(lang))\" dir=\"\(dir)\">\n<head>\n<meta charset=\"utf-8\">\n"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            + "<title>\(HTML.escape(title + " " + number))</title>\n<style>\n\(style)</style>\n</head>\n<body>\n"
            + body.map { $0.markup + "\n" }.joined() + "</body>\n</html>\n"
    }

    /// The style sheet; MARK, PAPER, HEADER and PAGEOF are filled in by `html`. Colours are distinct
    /// per mark (the plot's frame, systolic and diastolic marks) so a test can find them in a
    /// rendered image; band colours are light enough to print.
    static let style = """
    @page { size: PAPER; margin: 20mm 15mm 16mm 15mm;
      @top-left { content: HEADER; font: 9pt sans-serif; color: #444; }
      @top-center { content: MARK; font: bold 11pt sans-serif; color: #c8102e; }
      @top-right { content: PAGEOF; font: 9pt sans-serif; color: #444; } }
    html { font: 11pt/1.45 "DejaVu Sans", "Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew", sans-serif; color: #111; }
    body { margin: 0 auto; padding: 1.2em; max-width: 60em; }
    h1 { font-size: 1.5em; margin: 0 0 .3em; }
    h2 { font-size: 1.15em; margin: 1.4em 0 .4em; border-bottom: 1px solid #999; break-after: avoid; }
    h3 { font-size: 1em; margin: 1.1em 0 .2em; break-after: avoid; }
    p.means { margin: 0 0 .4em; font-size: .92em; }
    dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: .2em 1.2em; margin: 0; }
    dl.fields dt { font-weight: bold; }
    dl.fields dd { margin: 0; overflow-wrap: anywhere; }
    /* Text runs in the document's direction; each value run is its own isolate (bdi: direction
       from its own first strong character, UAX #9 X5c), so a date, a time, a serial or a Latin
       name keeps its order inside Arabic or Hebrew, and runs never interleave. A short run
       (nw) never breaks inside. */
    bdi.nw { white-space: nowrap; }
    table { border-collapse: collapse; width: 100%; font-size: .92em; }
    th, td { border: 1px solid #bbb; padding: .25em .45em; text-align: start; vertical-align: top; }
    th { background: #eee; }
    tr { break-inside: avoid; }
    thead { display: table-header-group; }
    td.num { font-variant-numeric: tabular-nums; }
    .hash { font-family: "DejaVu Sans Mono", monospace; font-size: .85em; overflow-wrap: anywhere; unicode-bidi: isolate; direction: ltr; }
    .id { font-family: "DejaVu Sans Mono", monospace; font-size: .85em; white-space: nowrap; unicode-bidi: isolate; direction: ltr; }
    .note { font-size: .85em; color: #333; }
    .not-verified { font-weight: bold; color: #c8102e; border: 2px solid #c8102e; padding: .4em .6em; }
    figcaption { font-size: .9em; font-weight: bold; }
    figure { margin: 1em 0; break-inside: avoid; }
    svg.plot { display: block; width: 100%; height: auto; max-width: 48em; direction: ltr; font: 12px sans-serif; }
    .band0 { fill: #e3f4e3; } .band1 { fill: #f3f6d8; } .band2 { fill: #fbf1d2; }
    .band3 { fill: #fde4cc; } .band4 { fill: #fbd5c8; } .band5 { fill: #f7c6c6; }
    svg.plot .grid { stroke: #ffffff; stroke-width: 1; }
    svg.plot .frame { fill: none; stroke: #203a8f; stroke-width: 2; shape-rendering: crispEdges; }
    svg.plot .pair { stroke: #555; stroke-width: 2; }
    svg.plot .sys { fill: #c8102e; }
    svg.plot .dia { fill: #0a6e5c; }
    svg.plot .rejected { fill-opacity: .35; }
    svg.plot .grid2 { stroke: #e4e4e4; stroke-width: 1; }
    svg.plot .point { fill: #c8102e; }
    svg.plot .bias { stroke: #0a6e5c; stroke-width: 2; }
    svg.plot .limit { stroke: #0a6e5c; stroke-width: 1.5; stroke-dasharray: 6 4; }
    svg.plot .identity { stroke: #555; stroke-width: 1.5; stroke-dasharray: 2 3; }
    svg.plot .tick { fill: #222; } svg.plot .axis { fill: #111; font-weight: bold; }
    /* A plot's legend, in HTML under it: the categories' colours, the marks, the lines. */
    ul.legend { list-style: none; display: flex; flex-wrap: wrap; gap: .2em 1.2em; margin: .4em 0 0; padding: 0; font-size: .85em; }
    ul.legend li { display: flex; align-items: center; gap: .4em; }
    ul.legend svg.key { height: 1.1em; width: auto; flex: none; }
    svg.key .edge { stroke: #999; stroke-width: 1; } svg.key .sys { fill: #c8102e; } svg.key .dia { fill: #0a6e5c; }
    svg.key .bias { stroke: #0a6e5c; stroke-width: 2; } svg.key .limit { stroke: #0a6e5c; stroke-width: 1.5; stroke-dasharray: 6 4; }
    .signature-blank td { height: 2.4em; }
    footer { margin-top: 2em; font-size: .8em; color: #555; }
    @media print { body { padding: 0; max-width: none; } }
    @media (max-width: 40em) {
      body { padding: .6em; }
      /* The plot's 720-unit drawing is about 370 px wide here: its text in user units this size stays at least 9 px. */
      svg.plot { font-size: 18px; }
      dl.fields { grid-template-columns: 1fr; }
      dl.fields dd { margin-bottom: .4em; }
      table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; width: auto; }
      table.cards thead { display: none; }
      table.cards tr { border: 1px solid #bbb; margin-bottom: .6em; }
      table.cards td { border: none; border-bottom: 1px solid #eee; display: flex; justify-content: space-between; gap: 1em; }
      table.cards td::before { content: attr(data-label); font-weight: bold; }
    }

    """
}

extension HTML {
    /// A `<dl>` of label–value pairs.
    static func fields(_ pairs: [(String, HTML)]) -> HTML {
        .element("dl", ["class": "fields"], pairs.flatMap { [.element("dt", text: $0.0), .element("dd", [$0.1])] })
    }

    /// A table whose rows become labelled cards on a narrow screen. `numeric` marks columns of numbers.
    static func table(_ headers: [String], _ rows: [[HTML]], numeric: Set<Int> = [], class extra: String = "") -> HTML {
        .element("table", ["class": String(("cards " + extra).trimmingSpaces)], [
            .element("thead", [.element("tr", headers.map { .element("th", ["scope": "col"], text: $0) })]),
            .element("tbody", rows.map { row in
                .element("tr", row.enumerated().map { i, cell in
                    // One span per cell: a labelled card lays out the label and the whole value as two flex items.
                    .element("td", ["data-label": i < headers.count ? headers[i] : "", "class": numeric.contains(i) ? "num" : ""],
                             [.element("span", [cell])])
                })
            }),
        ])
    }

    /// A hash shown left-to-right in a monospace font, broken anywhere when it must.
    static func code(_ text: String) -> HTML { .element("span", ["class": "hash"], text: text) }

    /// A legend's key: `mark` drawn in a small SVG of `width` × 12 units (the plot's classes
    /// colour it), hidden from screen readers (the legend's text says it).
    static func key(_ mark: HTML, width: Int = 12) -> HTML {
        .element("svg", ["class": "key", "viewBox": "0 0 \(width) 12", "aria-hidden": "true", "xmlns": "http://www.w3.org/2000/svg"], [mark])
    }

    /// A run's id (16 hex digits) shown left-to-right in a monospace font, never broken.
    static func id(_ text: String) -> HTML { .element("span", ["class": "id"], text: text) }
}
