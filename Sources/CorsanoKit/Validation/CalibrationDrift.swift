import Foundation

/// Differences by time since each bracelet's last successful calibration (`validate
/// --state`): how a cuff-calibrated device drifts, and the recalibration interval the data support.
///
/// A pair counts when its device reading names its bracelet (`bracelet`, the serial `nibp read`
/// writes) and the audit log holds a successful `bp-init` of that bracelet that ended before the
/// device value was measured; the most recent such one is the calibration it is measured from.
public struct CalibrationDrift: Equatable, Sendable {
    /// One span of time since calibration.
    public struct Span: Equatable, Sendable {
        /// Start of the span, days since calibration (inclusive).
        public var fromDays: Double
        /// End of the span, days (exclusive); nil for the last, open span.
        public var toDays: Double?
        /// Systolic agreement of the pairs in the span; nil when none.
        public var systolic: VariableAgreement?
        /// Diastolic agreement; nil when none.
        public var diastolic: VariableAgreement?
        /// Number of pairs.
        public var pairs: Int { systolic?.pairs ?? 0 }
        /// Criterion 1 (|mean| ≤ 5, SD ≤ 8 mmHg) met for both variables within the span.
        public var criterion1Pass: Bool { (systolic?.criterion1Pass ?? false) && (diastolic?.criterion1Pass ?? false) }
    }

    /// The span edges, days since calibration (Corsano's 28-day interval at the end).
    public static let defaultEdgesDays: [Double] = [1, 7, 14, 28]

    /// The spans with pairs, in order.
    public var spans: [Span]
    /// Least-squares slope of the systolic difference on days since calibration, mmHg/day; nil
    /// with fewer than two distinct times.
    public var systolicSlopePerDay: Double?
    /// The same for diastolic, mmHg/day.
    public var diastolicSlopePerDay: Double?
    /// Pairs without a bracelet serial or without a successful calibration before them.
    public var unmatched: Int
    /// The end (days) of the longest run of spans from calibration on in which criterion 1 holds
    /// for both variables: the recalibration interval the data support; nil when the first span
    /// fails or has no pairs. `.infinity` when every span holds up to the open last one.
    public var supportedIntervalDays: Double?

    /// Groups `pairs` by days since the calibration before each (`calibrations`: serial → end
    /// instants of successful calibrations, any order), spans cut at `edgesDays`.
    public init(pairs: [ValidationPair], calibrations: [String: [Instant]], edgesDays: [Double] = defaultEdgesDays) {
        let edges = edgesDays.sorted()
        var timed: [(days: Double, pair: ValidationPair)] = []
        var unmatched = 0
        for pair in pairs {
            guard let serial = pair.device.bracelet,
                  let last = calibrations[serial]?.filter({ $0 <= pair.device.measuredAt }).max() else {
                unmatched += 1
                continue
            }
            timed.append((pair.device.measuredAt.seconds(since: last) / 86_400, pair))
        }
        self.unmatched = unmatched
        var spans: [Span] = []
        let bounds = zip([0.0] + edges, edges.map { Optional($0) } + [nil])
        for (from, to) in bounds {
            let inSpan = timed.filter { entry in entry.days >= from && (to.map { entry.days < $0 } ?? true) }
            guard !inSpan.isEmpty else { continue }
            var groups: [String: [ValidationPair]] = [:]
            var order: [String] = []
            for (_, p) in inSpan {
                if groups[p.subject] == nil { order.append(p.subject) }
                groups[p.subject, default: []].append(p)
            }
            let grouped = order.map { groups[$0]! }
            spans.append(Span(fromDays: from, toDays: to,
                              systolic: VariableAgreement(groups: grouped.map { $0.map(\.systolicDifference) }),
                              diastolic: VariableAgreement(groups: grouped.map { $0.map(\.diastolicDifference) })))
        }
        self.spans = spans
        systolicSlopePerDay = Self.slope(timed.map { ($0.days, $0.pair.systolicDifference) })
        diastolicSlopePerDay = Self.slope(timed.map { ($0.days, $0.pair.diastolicDifference) })
        var supported: Double?
        var expected = 0.0
        for span in spans {
            guard span.fromDays == expected, span.criterion1Pass else { break }
            supported = span.toDays ?? .infinity
            expected = span.toDays ?? .infinity
        }
        supportedIntervalDays = supported
    }

    /// Ordinary least-squares slope of y on x; nil when x does not vary.
    static func slope(_ points: [(Double, Double)]) -> Double? {
        guard points.count >= 2 else { return nil }
        let n = Double(points.count)
        let mx = points.reduce(0) { $0 + $1.0 } / n, my = points.reduce(0) { $0 + $1.1 } / n
        let sxx = points.reduce(0) { $0 + ($1.0 - mx) * ($1.0 - mx) }
        guard sxx > 0 else { return nil }
        return points.reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) } / sxx
    }

    /// The successful `bp-init` calibrations in `runs`, serial → end instants (a run's end is its
    /// `endedAt`, else its start, as `CalibrationDue` reads them).
    public static func calibrations(in runs: [AuditRun]) -> [String: [Instant]] {
        var out: [String: [Instant]] = [:]
        for run in runs where run.flow == FlowName.bpInit.rawValue && run.resultKind == "success" {
            if let end = RFC3339.parseInstant(run.endedAt ?? run.startedAt) { out[run.bracelet.serial, default: []].append(end) }
        }
        return out
    }

    /// The drift line: `{"drift":{"spans":[…],"slopePerDay":{…},"unmatched":…,"supportedIntervalDays":…}}`.
    public var json: JSONValue {
        let n = ValidationSummary.number
        let spanValues: [JSONValue] = spans.map { s in
            [
                "fromDays": n(s.fromDays), "toDays": n(s.toDays), "pairs": .int(s.pairs),
                "systolic": ["meanDifference": n(s.systolic?.meanDifference), "sdDifference": n(s.systolic?.sdDifference)],
                "diastolic": ["meanDifference": n(s.diastolic?.meanDifference), "sdDifference": n(s.diastolic?.sdDifference)],
                "criterion1": ["pass": .bool(s.criterion1Pass)],
            ]
        }
        let supported: JSONValue = supportedIntervalDays.map { $0.isInfinite ? .string("open") : n($0) } ?? .null
        return ["drift": [
            "spans": .array(spanValues),
            "slopePerDay": ["systolic": n(systolicSlopePerDay), "diastolic": n(diastolicSlopePerDay)],
            "unmatched": .int(unmatched),
            "supportedIntervalDays": supported,
        ]]
    }
}

extension CalibrationDrift {
    /// The drift as text: one row per span (days since calibration, pairs, mean and SD per variable).
    public var tableLines: [String] {
        func days(_ s: Span) -> String {
            let from = String(format: "%g", s.fromDays)
            return s.toDays.map { from + "-" + String(format: "%g", $0) + " d" } ?? ">= " + from + " d"
        }
        func v(_ a: VariableAgreement?) -> String {
            guard let a else { return "-" }
            return String(format: "%+.1f", a.meanDifference) + " SD " + (a.sdDifference.map { String(format: "%.1f", $0) } ?? "-")
        }
        var lines = ["days since calibration  pairs  systolic          diastolic         criterion 1"]
        for s in spans {
            lines.append(days(s).padding(toLength: 23, withPad: " ", startingAt: 0) + "  " + String(s.pairs).padding(toLength: 5, withPad: " ", startingAt: 0)
                         + "  " + v(s.systolic).padding(toLength: 16, withPad: " ", startingAt: 0) + "  "
                         + v(s.diastolic).padding(toLength: 16, withPad: " ", startingAt: 0) + "  " + (s.criterion1Pass ? "pass" : "FAIL"))
        }
        let slope = [systolicSlopePerDay, diastolicSlopePerDay].map { $0.map { String(format: "%+.2f", $0) } ?? "-" }
        lines.append("drift: systolic \(slope[0]), diastolic \(slope[1]) mmHg/day")
        switch supportedIntervalDays {
        case nil: lines.append("recalibration interval supported: none (criterion 1 fails from the start)")
        case let d? where d.isInfinite: lines.append("recalibration interval supported: every span observed")
        case let d?: lines.append("recalibration interval supported: \(String(format: "%g", d)) days")
        }
        return lines
    }
}
