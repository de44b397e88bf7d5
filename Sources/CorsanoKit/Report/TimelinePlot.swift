/// The readings of one or more runs against time as an inline SVG: systolic and
/// diastolic of each reading joined by a bar, behind each reading a band coloured by its
/// blood-pressure category (the higher of its systolic and diastolic category, as the guidelines
/// and the readings table classify it: 118/86 is stage 1 in both), axes with labels, and a
/// `<title>`/`<desc>` that screen readers announce (SVG 2 §5.9, WAI-ARIA `role="img"`). Every
/// word but the axes' stands outside the plot: the categories and the marks are a legend in HTML
/// under it, so no label crosses a reading and the legend wraps on a phone. It scales to its
/// container's width (viewBox); on a narrow screen the style sheet enlarges its text so it stays
/// at least 9 px (`ReportDocument.style`).
struct TimelinePlot {
    /// One point: when (nil: the cuff gave no real time; placed by order), systolic, diastolic (mmHg).
    struct Point {
        var at: Instant?
        var systolic: Int
        var diastolic: Int
        var accepted: Bool
    }

    var points: [Point]
    var categories: BPCategories
    var localizer: Localizer
    var format: ReportFormat

    /// The drawing's size in user units, and the plot box inside it.
    static let width = 720.0, height = 340.0
    static let box = (left: 64.0, top: 16.0, right: 700.0, bottom: 280.0)
    /// The pressure axis (mmHg): wide enough for every category's lower bound and typical readings.
    static let pressureRange = (low: 40.0, high: 200.0)

    /// The plot in a `<figure>` whose caption is the plot's title (also its SVG `<title>`), with its legend.
    func figure(id: String) -> HTML {
        .element("figure", [.element("figcaption", text: localizer[.reportPlotTitle, categories.title]), svg(id: id), legend])
    }

    /// The legend: each category's colour and name, then the systolic and diastolic marks.
    var legend: HTML {
        let l = localizer
        var items: [HTML] = categories.categories.map { category in
            let swatch = HTML.element("rect", ["class": "band\(category.level) edge", "x": "1", "y": "1", "width": "10", "height": "10"])
            return .element("li", [HTML.key(swatch), .text(categories.name(category, l))])
        }
        items.append(.element("li", [HTML.key(.element("circle", ["class": "sys key", "cx": "6", "cy": "6", "r": "5"])), .text(l[.fieldSystolic])]))
        items.append(.element("li", [HTML.key(.element("rect", ["class": "dia key", "x": "1.5", "y": "1.5", "width": "9", "height": "9"])),
                                     .text(l[.fieldDiastolic])]))
        return .element("ul", ["class": "legend"], items)
    }

    /// The SVG element.
    func svg(id: String) -> HTML {
        let l = localizer
        let title = l[.reportPlotTitle, categories.title]
        let box = Self.box
        let (low, high) = (min(Self.pressureRange.low, Double(points.map(\.diastolic).min() ?? 40) - 10),
                           max(Self.pressureRange.high, Double(points.map(\.systolic).max() ?? 200) + 10))
        func y(_ mmHg: Double) -> Double { box.bottom - (mmHg - low) / (high - low) * (box.bottom - box.top) }
        let times = points.compactMap(\.at)
        let useTime = times.count == points.count && !points.isEmpty
        let first = times.min(), last = times.max()
        let span = useTime ? max(Double(last!.secondsSinceEpoch - first!.secondsSinceEpoch), 60) : Double(max(points.count - 1, 1))
        func x(_ i: Int) -> Double {
            let offset = useTime ? Double(points[i].at!.secondsSinceEpoch - first!.secondsSinceEpoch) : Double(i)
            let inner = (box.right - box.left) * 0.06
            return box.left + inner + offset / span * (box.right - box.left - 2 * inner)
        }
        // The first `<title>` child is the SVG's accessible name, `<desc>` its description (SVG-AAM 1.0 §8.1).
        var parts: [HTML] = [.element("title", text: title), .element("desc", text: description)]
        // Behind each reading its category's band, from halfway to the reading before to halfway to the one after.
        let xs = points.indices.map(x)
        let order = points.indices.sorted { xs[$0] < xs[$1] }
        for (k, i) in order.enumerated() {
            let p = points[i]
            let from = k == 0 ? box.left : (xs[order[k - 1]] + xs[i]) / 2
            let to = k + 1 == order.count ? box.right : (xs[i] + xs[order[k + 1]]) / 2
            guard to > from else { continue }
            let category = categories.category(systolic: p.systolic, diastolic: p.diastolic)
            parts.append(.element("rect", ["class": "band band\(category.level)", "x": n(from), "y": n(box.top),
                                           "width": n(to - from), "height": n(box.bottom - box.top)],
                                  [.element("title", text: categories.name(category, l))]))
        }
        // Pressure grid and ticks every 20 mmHg (`dy` in em: the text keeps its place when the style enlarges it).
        var tick = (low / 20).rounded(.up) * 20
        while tick <= high {
            parts.append(.element("line", ["class": "grid", "x1": n(box.left), "x2": n(box.right), "y1": n(y(tick)), "y2": n(y(tick))]))
            parts.append(.element("text", ["class": "tick", "x": n(box.left - 6), "y": n(y(tick)), "dy": ".35em", "text-anchor": "end"],
                                  text: format.integer(Int(tick))))
            tick += 20
        }
        // Time ticks: the first and last reading, in the locale.
        if useTime, let first, let last {
            let labels = first.secondsSinceEpoch / 86_400 == last.secondsSinceEpoch / 86_400
                ? [(first, format.time(first)), (last, format.time(last))]
                : [(first, format.day(first)), (last, format.day(last))]
            for (k, (instant, label)) in labels.enumerated() where k == 0 || instant != first {
                // One label when every reading has the same instant; the first starts at its reading, the last ends at its.
                let i = points.firstIndex { $0.at == instant } ?? 0
                parts.append(.element("text", ["class": "tick", "x": n(x(i)), "y": n(box.bottom + 4), "dy": "1em",
                                               "text-anchor": labels.count == 1 ? "middle" : k == 0 ? "start" : "end"], text: label))
            }
        }
        parts.append(.element("rect", ["class": "frame", "x": n(box.left), "y": n(box.top),
                                       "width": n(box.right - box.left), "height": n(box.bottom - box.top)]))
        for (i, p) in points.enumerated() {
            let cx = n(x(i))
            parts.append(.element("line", ["class": "pair", "x1": cx, "x2": cx, "y1": n(y(Double(p.systolic))), "y2": n(y(Double(p.diastolic)))]))
            parts.append(.element("circle", ["class": p.accepted ? "sys" : "sys rejected", "cx": cx, "cy": n(y(Double(p.systolic))), "r": "6"],
                                  [.element("title", text: "\(p.systolic)/\(p.diastolic) mmHg")]))
            parts.append(.element("rect", ["class": p.accepted ? "dia" : "dia rejected", "x": n(x(i) - 5), "y": n(y(Double(p.diastolic)) - 5),
                                           "width": "10", "height": "10"]))
        }
        parts.append(.element("text", ["class": "axis", "x": n((box.left + box.right) / 2), "y": n(box.bottom + 4), "dy": "2.2em",
                                       "text-anchor": "middle"], text: l[.reportAxisTime]))
        parts.append(.element("text", ["class": "axis", "x": "4", "y": n((box.top + box.bottom) / 2), "dy": ".8em", "text-anchor": "middle",
                                       "transform": "rotate(-90 4 \(n((box.top + box.bottom) / 2)))"], text: l[.reportAxisPressure]))
        return .element("svg", ["class": "plot", "id": id, "role": "img",
                                "viewBox": "0 0 \(n(Self.width)) \(n(Self.height))", "xmlns": "http://www.w3.org/2000/svg"], parts)
    }

    /// What the plot shows, in words (the SVG `<desc>`): every reading's pressure.
    private var description: String {
        points.map { "\(format.integer($0.systolic))/\(format.integer($0.diastolic))" }.joined(separator: ", ") + " mmHg"
    }

    /// A coordinate to one decimal (stable text, no exponent).
    private func n(_ value: Double) -> String {
        let tenths = Int((abs(value) * 10).rounded())
        return (value < 0 && tenths > 0 ? "-" : "") + (tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)")
    }
}
