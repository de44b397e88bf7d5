/// A bracelet's calibration history from the audit log (issue 36): every run on it over time
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
        var nextDue = l[.reportDueNotSet]
        if let dueDays {
            if let last = due?.lastCalibratedAt, let at = last.adding(seconds: Int64(dueDays) * 86_400) {
                nextDue = f.dateTime(at)
            } else {
                nextDue = l[.historyNeverCalibrated, bracelet.serial]
            }
        }
        var body: [HTML] = [.element("h1", text: l[.reportHistory])]
        if let mark = verification.pageMark(l) { body.append(.element("p", ["class": "not-verified"], text: mark + ": " + verification.text(l))) }
        body.append(.fields([
            (l[.reportVerification], .text(verification.text(l))),
            (l[.reportItem], .text(l[.reportBraceletLine, bracelet.model, bracelet.serial, bracelet.firmware])),
            (l[.reportIssued], .text(f.dateTime(issued))),
            (l[.reportLastCalibrated], .text(due?.lastCalibratedAt.map(f.dateTime) ?? l[.historyNeverCalibrated, bracelet.serial])),
            (l[.reportNextDue], .text(nextDue)),
        ]))
        body.append(.element("h2", text: l[.reportCalibrations]))
        let headers = [l[.reportColumnStarted], l[.reportColumnFlow], l[.reportGateway], l[.reportOperator], l[.reportResult],
                       l[.reportReadings], l[.reportSignatures], l[.reportNumber]]
        body.append(.table(headers, flows.map { run in
            let config = ReportReading.parse(run.configJSON) ?? .null
            var result = run.resultJSON.flatMap(ReportReading.parse).map { l.describe(result: $0) } ?? l[.historyNotFinished]
            if run.resultJSON == nil, let restored = restores[run.run] {
                result = l[.historyKilledPlanRestored, restored.previousPlan, f.dateTime(restored.at)]
            }
            let signed = (signatures[run.run] ?? []).map { $0.name + " (" + CalibrationCertificate.meaning($0.meaning, l) + ")" }
            return [.text(f.dateTime(run.startedAt)), .text(run.flow), .text(run.gateway ?? "–"),
                    .text(config["operator"]?.stringValue ?? "–"), .text(result), .text(f.integer(run.readings.count)),
                    .text(signed.isEmpty ? "–" : signed.joined(separator: "; ")), .id(run.run)]
        }, numeric: [5]))
        let points = flows.filter { $0.flow == FlowName.bpInit.rawValue }.flatMap { $0.readings.map { ReportReading($0).point } }
        if !points.isEmpty {
            body.append(TimelinePlot(points: points, categories: categories, localizer: l, format: f).figure(id: "history"))
        }
        body.append(.element("footer", text: l[.reportGenerated, version]))
        return ReportDocument(title: l[.reportHistory], number: bracelet.serial, localizer: l, paper: paper, body: body,
                              mark: verification.pageMark(l)).html
    }
}
