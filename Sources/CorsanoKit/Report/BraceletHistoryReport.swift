/// A bracelet's calibration history from the audit log: every run on it over time
/// (start, flow, gateway, operator, result, readings, signatures), the last successful
/// calibration and, given the lab's interval, when the next is due (`CalibrationDue`'s rule), and
/// a plot of every reading fed against time with the blood-pressure categories.
public struct BraceletHistoryReport: Sendable {
    /// The bracelet's rows in the audit log, oldest first (runs, signatures, plan restores); at least one.
    public var runs: [AuditRun]
    /// The recalibration interval (days); nil: no due date is computed.
    public var dueDays: Int?
    public var categories: BPCategories
    public var paper: PaperSize
    /// When the report is made (the command's wall clock; also the "now" of the due date).
    public var issued: Instant
    public var version: String
    /// Whether every row shown verifies against the audit chain (set by the command); marked on every page when not.
    public var verification: ReportVerification = .hashesOnly

    /// The document in `l`'s locale.
    public func html(_ l: Localizer) -> String {
        let f = ReportFormat(locale: l.locale)
        let signatures = runs.signatures, restores = runs.planRestores
        let flows = runs.filter { $0.signature == nil && $0.planRestore == nil }
        let bracelet = (flows.last ?? runs.last)?.bracelet ?? BraceletIdentity(model: "?", firmware: "?", serial: "?")
        let due = CalibrationDue.check(runs, days: dueDays ?? 0, now: issued).first
        let never = HTML.localized(l, .historyNeverCalibrated, [.value(bracelet.serial, kind: "serial")])
        var nextDue = HTML.text(l[.reportDueNotSet])
        if let dueDays {
            if let last = due?.lastCalibratedAt, let at = last.adding(seconds: Int64(dueDays) * 86_400) {
                nextDue = f.dateTimeHTML(at)
            } else {
                nextDue = never
            }
        }
        var body: [HTML] = [.element("h1", text: l[.reportHistory])]
        if let mark = verification.pageMark(l) { body.append(.element("p", ["class": "not-verified"], text: mark + ": " + verification.text(l))) }
        body.append(.fields([
            (l[.reportVerification], .text(verification.text(l))),
            (l[.reportItem], .localized(l, .reportBraceletLine, [.value(bracelet.model), .value(bracelet.serial, kind: "serial"), .value(bracelet.firmware)])),
            (l[.reportIssued], f.dateTimeHTML(issued)),
            (l[.reportLastCalibrated], due?.lastCalibratedAt.map(f.dateTimeHTML) ?? never),
            (l[.reportNextDue], nextDue),
        ]))
        body.append(.element("h2", text: l[.reportCalibrations]))
        let headers = [l[.reportColumnStarted], l[.reportColumnFlow], l[.reportGateway], l[.reportOperator], l[.reportResult],
                       l[.reportReadings], l[.reportSignatures], l[.reportNumber]]
        body.append(.table(headers, flows.map { run in
            let config = ReportReading.parse(run.configJSON) ?? .null
            var result = HTML.text(run.resultJSON.flatMap(ReportReading.parse).map { l.describe(result: $0) } ?? l[.historyNotFinished])
            if run.resultJSON == nil, let restored = restores[run.run] {
                result = .localized(l, .historyKilledPlanRestored, [.value(restored.previousPlan), f.dateTimeHTML(restored.at)])
            }
            let signed: [HTML] = (signatures[run.run] ?? []).map { (s: SignatureRecord) -> HTML in
                let meaning = " (" + CalibrationCertificate.meaning(s.meaning, l) + ")"
                return [HTML.value(s.name, nowrap: false), HTML.text(meaning)].joined
            }
            let dash = HTML.text("–")
            let gateway: HTML = run.gateway.map { HTML.value($0, nowrap: false) } ?? dash
            let operatorName: HTML = config["operator"]?.stringValue.map { HTML.value($0, nowrap: false) } ?? dash
            let row: [HTML] = [f.dateTimeHTML(run.startedAt), HTML.value(run.flow), gateway, operatorName, result,
                               HTML.value(f.integer(run.readings.count)), CalibrationCertificate.distinct(signed) ?? dash, HTML.id(run.run)]
            return row
        }, numeric: [5]))
        let points = flows.filter { $0.flow == FlowName.bpInit.rawValue }.flatMap { $0.readings.map { ReportReading($0).point } }
        if !points.isEmpty {
            body.append(TimelinePlot(points: points, categories: categories, localizer: l, format: f).figure(id: "history"))
        }
        body.append(.element("footer", [.localized(l, .reportGenerated, [.value(version)])]))
        return ReportDocument(title: l[.reportHistory], number: bracelet.serial, localizer: l, paper: paper, body: body,
                              mark: verification.pageMark(l)).html
    }
}
