/// The validation report: `validate … --report FILE` as one self-contained HTML
/// document, made where the numbers are (validate stores nothing). It shows the summary table with
/// each criterion's verdict (ISO 81060-2:2018 criteria 1 and 2, 5.2.4.1.2; IEEE 1708-2014's mean
/// absolute difference grade), the sample size against the minimum (ISO 81060-2 5.1.1: 85
/// subjects, 255 pairs), a Bland–Altman plot per variable (differences against means, bias and
/// 95% limits of agreement with the repeated-measures SD; Bland & Altman 2007), a device-against-
/// reference scatter with the line of identity, and the per-subject table.
public struct ValidationReport: Sendable {
    public var summary: ValidationSummary
    public var criteria: [ValidationCriterion]
    /// The worst IEEE 1708 grade that passes (with `.ieee1708` in `criteria`).
    public var maxGrade: IEEE1708Grade
    public var paper: PaperSize
    /// When the report is made (the command's wall clock).
    public var issued: Instant
    public var version: String

    /// Creates the report of `summary` judged by `criteria`.
    public init(summary: ValidationSummary, criteria: [ValidationCriterion] = ValidationCriterion.standard, maxGrade: IEEE1708Grade = .a,
                paper: PaperSize = .default, issued: Instant, version: String) {
        self.summary = summary
        self.criteria = criteria
        self.maxGrade = maxGrade
        self.paper = paper
        self.issued = issued
        self.version = version
    }

    /// The document in `l`'s locale.
    public func html(_ l: Localizer) -> String {
        let f = ReportFormat(locale: l.locale)
        let s = summary
        func criterionName(_ c: ValidationCriterion) -> String {
            c == .ieee1708 ? l[.validationGradeOrBetter, maxGrade.rawValue] : l[.validationCriterion, c.rawValue]
        }
        let verdict: String
        switch s.verdict(criteria: criteria, maxGrade: maxGrade) {
        case .pass: verdict = l[.validationVerdictPass, criteria.map(criterionName).joined(separator: ", ")]
        case .fail:
            var failed: [String] = []
            for (name, v) in [(l[.fieldSystolic], s.systolic), (l[.fieldDiastolic], s.diastolic)] {
                guard let v else { continue }
                for c in criteria where !(c == .criterion1 ? v.criterion1Pass : c == .criterion2 ? v.criterion2Pass : v.ieee1708Grade <= maxGrade) {
                    failed.append(name + ": " + criterionName(c))
                }
            }
            verdict = l[.validationVerdictFail, failed.joined(separator: "; ")]
        case .notAssessable: verdict = l[.validationNotAssessable]
        }
        var body: [HTML] = [.element("h1", text: l[.validationReport])]
        let counts: [Int] = [s.pairedSubjectCount, s.pairCount, s.minimum.subjects, s.minimum.pairs]
        var sample = HTML.localized(l, .validationSampleValue, counts.map { HTML.value(f.integer($0)) })
        if !s.minimum.isStandard { sample = [sample, HTML.text(" " + l[.validationSmallerPanel])].joined }
        let pairing: HTML
        switch s.pairing {
        case .sequential: pairing = .text(l[.validationPairingSequential])
        case .nearest(let window): pairing = .localized(l, .validationPairingNearest, [.value(f.decimal(window))])
        }
        body.append(.fields([
            (l[.reportIssued], f.dateTimeHTML(issued)),
            (l[.validationPairing], pairing),
            (l[.validationSampleSize], sample),
            (l[.validationCriteria], .text(criteria.map(criterionName).joined(separator: ", "))),
            (l[.reportResult], .element("strong", text: verdict)),
        ]))
        body.append(.element("h2", text: l[.validationSummary]))
        func both(_ value: (VariableAgreement) -> String) -> [HTML] {
            [s.systolic, s.diastolic].map { (v: VariableAgreement?) -> HTML in v.map { HTML.value(value($0)) } ?? HTML.text("–") }
        }
        func pass(_ ok: Bool) -> String { ok ? l[.validationPass] : l[.validationFail] }
        var rows: [[HTML]] = [
            [.text(l[.validationPairs])] + both { f.integer($0.pairs) },
            [.text(l[.validationMeanDifference])] + both { f.decimal($0.meanDifference, signed: true) },
            [.text(l[.validationSDDifference])] + both { f.decimal($0.sdDifference) },
            [.text(l[.validationCriterion1])] + both { pass($0.criterion1Pass) },
            [.text(l[.validationSDSubjectMeans])] + both { f.decimal($0.sdOfSubjectMeans) },
            [.text(l[.validationCriterion2Limit])] + both { f.decimal($0.criterion2Limit) },
            [.text(l[.validationCriterion2])] + both { pass($0.criterion2Pass) },
            [.text(l[.validationBias])] + both { f.decimal($0.blandAltman.bias, signed: true) },
            [.text(l[.validationLimits])] + both { f.decimal($0.blandAltman.lower, signed: true) + " … " + f.decimal($0.blandAltman.upper, signed: true) },
            [.text(l[.validationMAD])] + both { f.decimal($0.meanAbsoluteDifference) },
            [.text(l[.validationGrade])] + both { $0.ieee1708Grade.rawValue + (criteria.contains(.ieee1708) ? " (" + pass($0.ieee1708Grade <= maxGrade) + ")" : "") },
        ]
        if s.systolic == nil && s.diastolic == nil { rows = [[.text(l[.validationPairs]), .value(f.integer(0)), .value(f.integer(0))]] }
        body.append(.table([l[.validationStatistic], l[.fieldSystolic], l[.fieldDiastolic]], rows, numeric: [1, 2]))
        // One Bland–Altman plot and one scatter per variable.
        let pairs = s.paired.pairs
        for (key, name, v, device, reference) in [
            ("systolic", l[.fieldSystolic], s.systolic, pairs.map { Double($0.device.systolic) }, pairs.map(\.referenceSystolic)),
            ("diastolic", l[.fieldDiastolic], s.diastolic, pairs.map { Double($0.device.diastolic) }, pairs.map(\.referenceDiastolic)),
        ] {
            guard let v else { continue }
            var lines = [AgreementPlot.Line(y: v.blandAltman.bias, label: l[.validationLineBias, f.decimal(v.blandAltman.bias, signed: true)], dashed: false)]
            if let lower = v.blandAltman.lower, let upper = v.blandAltman.upper {
                lines.append(AgreementPlot.Line(y: upper, label: l[.validationLineLimit, f.decimal(upper, signed: true)], dashed: true))
                lines.append(AgreementPlot.Line(y: lower, label: l[.validationLineLimit, f.decimal(lower, signed: true)], dashed: true))
            }
            body.append(.element("h2", text: name))
            body.append(AgreementPlot(title: l[.validationBlandAltmanTitle, name], xAxis: l[.validationAxisMean], yAxis: l[.validationAxisDifference],
                                      points: zip(device, reference).map { .init(x: ($0 + $1) / 2, y: $0 - $1) },
                                      lines: lines, identity: false, format: f).figure(id: "bland-altman-" + key))
            body.append(AgreementPlot(title: l[.validationScatterTitle, name], xAxis: l[.validationAxisReference], yAxis: l[.validationAxisDevice],
                                      points: zip(device, reference).map { .init(x: $1, y: $0) },
                                      lines: [], identity: true, format: f).figure(id: "scatter-" + key))
        }
        body.append(.element("h2", text: l[.validationSubjects]))
        body.append(.table([l[.validationColumnSubject], l[.validationPairs], l[.fieldSystolic], l[.fieldDiastolic]], s.subjects.map { subject -> [HTML] in
            let row: [HTML] = [HTML.value(subject.subject), HTML.value(f.integer(subject.pairs)),
                               HTML.value(f.decimal(subject.systolicMeanDifference, signed: true)),
                               HTML.value(f.decimal(subject.diastolicMeanDifference, signed: true))]
            return row
        }, numeric: [1, 2, 3]))
        body.append(.element("p", ["class": "note"], text: l[.validationSubjectsNote]))
        body.append(.element("footer", [.localized(l, .validationGenerated, [.value(version)])]))
        return ReportDocument(title: l[.validationReport], number: f.dateTime(issued), localizer: l, paper: paper, body: body).html
    }
}
