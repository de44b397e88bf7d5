import Foundation

/// Numbers and instants written for a report's locale (CLDR data through Foundation): dates and
/// times in UTC, said so, so that a document reads the same wherever it is opened.
struct ReportFormat {
    let locale: AppLocale
    private let dateTimeFormatter: DateFormatter
    private let dateFormatter: DateFormatter
    private let timeFormatter: DateFormatter
    private let secondsFormatter: DateFormatter
    private let numberFormatter: NumberFormatter
    private let decimalFormatter: NumberFormatter

    init(locale: AppLocale) {
        self.locale = locale
        let foundation = Locale(identifier: locale.tag.replacingOccurrences(of: "-", with: "_"))
        let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)!
        func formatter(date: DateFormatter.Style, time: DateFormatter.Style) -> DateFormatter {
            let f = DateFormatter()
            f.locale = foundation
            f.timeZone = utc
            f.calendar = Calendar(identifier: .gregorian)
            f.dateStyle = date
            f.timeStyle = time
            return f
        }
        dateTimeFormatter = formatter(date: .medium, time: .medium)
        dateFormatter = formatter(date: .medium, time: .none)
        timeFormatter = formatter(date: .none, time: .short)
        secondsFormatter = formatter(date: .none, time: .medium)
        numberFormatter = NumberFormatter()
        numberFormatter.locale = foundation
        numberFormatter.numberStyle = .decimal
        decimalFormatter = NumberFormatter()
        decimalFormatter.locale = foundation
        decimalFormatter.numberStyle = .decimal
        decimalFormatter.minimumFractionDigits = 1
        decimalFormatter.maximumFractionDigits = 1
    }

    private func date(_ instant: Instant) -> Date {
        Date(timeIntervalSince1970: Double(instant.secondsSinceEpoch))
    }

    /// Date and time to the second, with "UTC".
    func dateTime(_ instant: Instant) -> String { dateTimeFormatter.string(from: date(instant)) + " UTC" }

    /// A stored RFC 3339 stamp as `dateTime`; as stored when it does not parse.
    func dateTime(_ stamp: String) -> String { RFC3339.parseInstant(stamp).map(dateTime) ?? stamp }

    /// Date and time to the second with "UTC", for a document's body: the date, the time and the
    /// zone each in its own isolate (`HTML.value`), joined as the locale joins a date and a time
    /// (its CLDR date-time pattern, read from the formatted whole), so in Arabic or Hebrew the
    /// three read right to left as whole runs and never interleave (UAX #9; docs/design.md "Export").
    func dateTimeHTML(_ instant: Instant) -> HTML {
        let d = date(instant)
        let day = dateFormatter.string(from: d), time = secondsFormatter.string(from: d), whole = dateTimeFormatter.string(from: d)
        let dayRun = HTML.value(day, kind: "date"), timeRun = HTML.value(time, kind: "time")
        var parts = [dayRun, HTML.text(" "), timeRun]
        if let a = whole.range(of: day), let b = whole.range(of: time) {
            if a.upperBound <= b.lowerBound {
                parts = [dayRun, .text(String(whole[a.upperBound..<b.lowerBound])), timeRun]
            } else if b.upperBound <= a.lowerBound {
                parts = [timeRun, .text(String(whole[b.upperBound..<a.lowerBound])), dayRun]
            }
        }
        return HTML.element("span", ["class": "dt"], parts + [.text(" "), .value("UTC", kind: "zone")])
    }

    /// A stored RFC 3339 stamp as `dateTimeHTML`; as stored (one isolate) when it does not parse.
    func dateTimeHTML(_ stamp: String) -> HTML { RFC3339.parseInstant(stamp).map(dateTimeHTML) ?? .value(stamp) }

    /// The day alone.
    func day(_ instant: Instant) -> String { dateFormatter.string(from: date(instant)) }

    /// Hours and minutes (a plot's tick).
    func time(_ instant: Instant) -> String { timeFormatter.string(from: date(instant)) }

    /// An integer in the locale's digits and grouping.
    func integer(_ value: Int) -> String { numberFormatter.string(from: NSNumber(value: value)) ?? String(value) }

    /// A pressure (mmHg) to one decimal, as ISO 81060-2 reports, in the locale's digits; with
    /// `signed`, a leading + for a positive value (a difference). Nil or not finite: "–".
    func decimal(_ value: Double?, signed: Bool = false) -> String {
        guard let value, value.isFinite else { return "–" }
        let rounded = (value * 10).rounded() / 10
        let text = decimalFormatter.string(from: NSNumber(value: rounded == 0 ? 0 : rounded)) ?? String(format: "%.1f", rounded)
        return signed && rounded > 0 ? "+" + text : text
    }
}
