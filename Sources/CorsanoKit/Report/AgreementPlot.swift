/// A scatter of points with reference lines as inline SVG (issue 36's validation report): the
/// Bland–Altman plot (difference against mean, with the bias and the 95% limits of agreement as
/// horizontal lines; Bland & Altman, Lancet 1986) and the device-against-reference scatter (with
/// the line of identity). Same conventions as `TimelinePlot`: first child `<title>` (the accessible
/// name), `<desc>` with the numbers, viewBox scaling, axis labels, so it reads on a phone.
struct AgreementPlot {
    /// One point (mmHg).
    struct Point {
        var x: Double
        var y: Double
    }

    /// A horizontal line at `y` (mmHg), named by its label in the legend under the plot.
    struct Line {
        var y: Double
        var label: String
        var dashed: Bool
    }

    var title: String
    var xAxis: String
    var yAxis: String
    var points: [Point]
    var lines: [Line]
    /// Draws y = x (the scatter's line of identity) and gives both axes the same range.
    var identity: Bool
    var format: ReportFormat

    static let width = 720.0, height = 340.0
    static let box = (left: 64.0, top: 16.0, right: 700.0, bottom: 280.0)

    /// The plot in a `<figure>` whose caption is its title, with a legend of its lines under it
    /// (outside the plot: no label crosses a point, and it wraps on a phone).
    func figure(id: String) -> HTML {
        let legend: [HTML] = lines.isEmpty ? [] : [.element("ul", ["class": "legend"], lines.map { line in
            .element("li", [HTML.key(.element("line", ["class": line.dashed ? "limit key" : "bias key", "x1": "0", "y1": "6", "x2": "22", "y2": "6"]),
                                     width: 22), .text(line.label)])
        })]
        return .element("figure", [.element("figcaption", text: title), svg(id: id)] + legend)
    }

    /// The axis range: the data and lines with a margin, widened to whole steps of `step`.
    static func range(_ values: [Double], step: Double) -> (low: Double, high: Double) {
        guard let lo = values.min(), let hi = values.max() else { return (0, step) }
        let low = ((lo - step / 2) / step).rounded(.down) * step
        let high = ((hi + step / 2) / step).rounded(.up) * step
        return (low, max(high, low + step))
    }

    /// A step of 5, 10 or 20 mmHg giving at most about 10 grid lines.
    static func step(_ span: Double) -> Double { span <= 50 ? 5 : span <= 100 ? 10 : 20 }

    func svg(id: String) -> HTML {
        let box = Self.box
        var xs = points.map(\.x), ys = points.map(\.y) + lines.map(\.y)
        if identity { xs += ys; ys = xs }
        let xStep = Self.step((xs.max() ?? 0) - (xs.min() ?? 0)), yStep = Self.step((ys.max() ?? 0) - (ys.min() ?? 0))
        let xr = Self.range(xs, step: xStep), yr = Self.range(ys, step: yStep)
        func x(_ v: Double) -> Double { box.left + (v - xr.low) / (xr.high - xr.low) * (box.right - box.left) }
        func y(_ v: Double) -> Double { box.bottom - (v - yr.low) / (yr.high - yr.low) * (box.bottom - box.top) }
        var parts: [HTML] = [.element("title", text: title), .element("desc", text: description)]
        var t = xr.low
        while t <= xr.high + 1e-9 {
            parts.append(.element("line", ["class": "grid2", "x1": n(x(t)), "x2": n(x(t)), "y1": n(box.top), "y2": n(box.bottom)]))
            parts.append(.element("text", ["class": "tick", "x": n(x(t)), "y": n(box.bottom + 4), "dy": "1em", "text-anchor": "middle"],
                                  text: format.integer(Int(t))))
            t += xStep
        }
        t = yr.low
        while t <= yr.high + 1e-9 {
            parts.append(.element("line", ["class": "grid2", "x1": n(box.left), "x2": n(box.right), "y1": n(y(t)), "y2": n(y(t))]))
            parts.append(.element("text", ["class": "tick", "x": n(box.left - 6), "y": n(y(t)), "dy": ".35em", "text-anchor": "end"],
                                  text: format.integer(Int(t))))
            t += yStep
        }
        parts.append(.element("rect", ["class": "frame", "x": n(box.left), "y": n(box.top),
                                       "width": n(box.right - box.left), "height": n(box.bottom - box.top)]))
        if identity {
            let lo = max(xr.low, yr.low), hi = min(xr.high, yr.high)
            parts.append(.element("line", ["class": "identity", "x1": n(x(lo)), "y1": n(y(lo)), "x2": n(x(hi)), "y2": n(y(hi))]))
        }
        for line in lines {
            parts.append(.element("line", ["class": line.dashed ? "limit" : "bias", "x1": n(box.left), "x2": n(box.right),
                                           "y1": n(y(line.y)), "y2": n(y(line.y))]))
        }
        for p in points {
            parts.append(.element("circle", ["class": "point", "cx": n(x(p.x)), "cy": n(y(p.y)), "r": "4"]))
        }
        parts.append(.element("text", ["class": "axis", "x": n((box.left + box.right) / 2), "y": n(box.bottom + 4), "dy": "2.2em",
                                       "text-anchor": "middle"], text: xAxis))
        parts.append(.element("text", ["class": "axis", "x": "4", "y": n((box.top + box.bottom) / 2), "dy": ".8em", "text-anchor": "middle",
                                       "transform": "rotate(-90 4 \(n((box.top + box.bottom) / 2)))"], text: yAxis))
        return .element("svg", ["class": "plot", "id": id, "role": "img",
                                "viewBox": "0 0 \(n(Self.width)) \(n(Self.height))", "xmlns": "http://www.w3.org/2000/svg"], parts)
    }

    /// The lines and the points in words (the SVG `<desc>`).
    private var description: String {
        (lines.map(\.label) + points.map { format.decimal($0.x) + ", " + format.decimal($0.y) }).joined(separator: "; ")
    }

    private func n(_ value: Double) -> String {
        let tenths = Int((abs(value) * 10).rounded())
        return (value < 0 && tenths > 0 ? "-" : "") + (tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)")
    }
}
