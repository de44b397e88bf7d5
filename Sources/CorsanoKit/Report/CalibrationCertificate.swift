/// A calibration certificate of one run, from the audit log (issue 36; what it carries follows
/// ISO/IEC 17025:2017 §7.8.2 and §7.8.4: a unique number, page x of y, the item and its serial,
/// method and dates, results with units, the reference used and its traceability, the signatory):
/// the bracelet (model, serial, firmware), gateway and operator, the reference cuff and the clock
/// anchor its readings came with, the protocol, every reading fed (time, cuff clock, typed in,
/// SYS/DIA, pulse, MAP, category, the firmware's verdict), the result, the measurement plan after
/// the run, a timeline plot, the audit chain head and the run's content hash, and the signatures
/// (21 CFR 11.50: printed name, date and time, meaning) or a blank signature block.
public struct CalibrationCertificate: Sendable {
    /// The run as the audit log holds it (a flow's run, not a signature or plan-restore record).
    public var run: AuditRun
    /// Its signatures, oldest first (`[AuditRun].signatures`).
    public var signatures: [SignatureRecord]
    /// The record that a killed run's plan was restored later (`[AuditRun].planRestores`).
    public var planRestored: PlanRestoreRecord?
    /// The store's newest audit-chain record as `--expect` takes it (`AuditChain.keptHead`: record
    /// number and hash); nil when it has no chain.
    public var chainHead: String?
    /// Whether the run and its signatures verify against the audit chain (set by the command
    /// after `StateStore.auditVerify`); a certificate that does not is marked on every page.
    public var verification: ReportVerification = .hashesOnly
    public var categories: BPCategories = .default
    public var paper: PaperSize = .default
    /// When the certificate is made (the command's wall clock).
    public var issued: Instant
    /// corsano's version, in the document's foot.
    public var version: String
    /// The multi-set calibration (issue 32) this run is a set of; nil: a single session.
    public var calibration: MultiSetCalibration? = nil

    /// The document in `l`'s locale.
    public func html(_ l: Localizer) -> String {
        let f = ReportFormat(locale: l.locale)
        let readings = run.readings.map(ReportReading.init)
        let config = ReportReading.parse(run.configJSON) ?? .null
        let b = run.bracelet
        var body: [HTML] = [.element("h1", text: l[.reportCertificate])]
        if let mark = verification.pageMark(l) { body.append(.element("p", ["class": "not-verified"], text: mark + ": " + verification.text(l))) }
        body.append(.fields([
            (l[.reportNumber], .id(run.run)),
            (l[.reportIssued], .text(f.dateTime(issued))),
            (l[.reportItem], .text(l[.reportBraceletLine, b.model, b.serial, b.firmware])),
            (l[.reportPerformed], .text(f.dateTime(run.startedAt) + " – " + (run.endedAt.map(f.dateTime) ?? l[.historyNotFinished]))),
            (l[.reportGateway], .text(run.gateway ?? l[.reportNotRecorded])),
            (l[.reportOperator], .text(config["operator"]?.stringValue ?? l[.reportNotRecorded])),
            (l[.reportCuff], .text(distinct(readings.compactMap(\.cuff)) ?? l[.reportNotRecorded])),
            (l[.reportClockAnchor], .text(distinct(readings.compactMap { r in
                r.anchor.map { l[.reportAnchorValue, $0.device, f.dateTime($0.phone)] } }) ?? l[.reportNotRecorded])),
            (l[.reportProtocol], .text(run.flow + ", " + protocolText(l))),
        ]))
        if let calibration { body.append(contentsOf: Self.setsSection(calibration, l, f)) }
        body.append(.element("h2", text: l[.reportReadings]))
        body.append(ReportReading.table(readings, categories: categories, l, f))
        if readings.contains(where: { $0.mapDerived }) { body.append(.element("p", ["class": "note"], text: l[.reportMAPDerived])) }
        if !readings.isEmpty {
            body.append(TimelinePlot(points: readings.map(\.point), categories: categories, localizer: l, format: f).figure(id: "timeline"))
        }
        body.append(.element("h2", text: l[.reportResult]))
        body.append(.fields([(l[.reportResult], .text(resultText(l))), (l[.reportPlan], .text(planText(l, f)))]))
        body.append(.element("h2", text: l[.reportIntegrity]))
        body.append(.fields([(l[.reportVerification], .text(verification.text(l))),
                             (l[.reportChainHead], .code(chainHead ?? l[.reportNotRecorded])),
                             (l[.reportRunHash], .code(AuditChain.runHash(run)))]))
        body.append(.element("h2", text: l[.reportSignatures]))
        body.append(Self.signatureTable(signatures, l, f))
        body.append(.element("footer", text: l[.reportGenerated, version]))
        return ReportDocument(title: l[.reportCertificate], number: run.run, localizer: l, paper: paper, body: body,
                              mark: verification.pageMark(l)).html
    }

    private func resultText(_ l: Localizer) -> String {
        run.resultJSON.flatMap(ReportReading.parse).map { l.describe(result: $0) } ?? l[.historyNotFinished]
    }

    /// The bracelet's plan after the run: restored when it ended, left switched (the result's
    /// `planRestoreFailed`), or restored later by another command for a killed run.
    private func planText(_ l: Localizer, _ f: ReportFormat) -> String {
        if let result = run.resultJSON.flatMap(ReportReading.parse) {
            if let failed = result["planRestoreFailed"] {
                return l[.reportPlanNotRestored, failed["plan"]?.displayText ?? "?", failed["previousPlan"]?.displayText ?? "?",
                         failed["reason"]?.displayText ?? "?"]
            }
            return l[.reportPlanRestored]
        }
        if let planRestored { return l[.historyKilledPlanRestored, planRestored.previousPlan, f.dateTime(planRestored.at)] }
        return l[.historyNotFinished]
    }

    /// The signatures (name, date and time, meaning, OS user and gateway), or a blank row to sign by hand.
    static func signatureTable(_ signatures: [SignatureRecord], _ l: Localizer, _ f: ReportFormat) -> HTML {
        let headers = [l[.reportSignatureName], l[.reportSignatureTime], l[.reportSignatureMeaning], l[.reportRunHash]]
        guard !signatures.isEmpty else {
            let blank: [HTML] = [.element("p", text: l[.reportNotSigned]),
                    .element("table", ["class": "signature-blank"], [
                        .element("thead", [.element("tr", headers.prefix(3).map { .element("th", ["scope": "col"], text: $0) })]),
                        .element("tbody", [.element("tr", [.element("td", text: ""), .element("td", text: ""), .element("td", text: "")])]),
                    ])]
            return blank.joined
        }
        return .table(headers, signatures.map { s in
            [.text(s.name + " (" + s.osUser + (s.gateway.isEmpty ? "" : ", " + s.gateway) + ")"), .text(f.dateTime(s.at)),
             .text(meaning(s.meaning, l)), .code(AuditChain.shortHead(s.runHash))]
        })
    }

    /// A signature's meaning in the locale (`SignatureMeaning`); as recorded when unknown.
    static func meaning(_ raw: String, _ l: Localizer) -> String {
        switch SignatureMeaning(rawValue: raw) {
        case .review: return l[.reportMeaningReview]
        case .approval: return l[.reportMeaningApproval]
        case .responsibility: return l[.reportMeaningResponsibility]
        case nil: return raw
        }
    }

    /// The values joined when there are any, each once, in order.
    private func distinct(_ values: [String]) -> String? {
        var seen = Set<String>()
        let unique = values.filter { seen.insert($0).inserted }
        return unique.isEmpty ? nil : unique.joined(separator: "; ")
    }
}

/// One reading fed, as a report shows it (`AuditReading` with its stored reading parsed).
struct ReportReading {
    var attempt: Int, index: Int
    var accepted: Bool, manual: Bool
    var systolic: Int?, diastolic: Int?, pulse: Int?, map: Int?
    var mapDerived: Bool
    var measuredAt: Instant?
    var deviceTime: String?
    /// The cuff's MAC or serial (the reading's `cuff`), and the clock anchor it was converted through (`anchor`).
    var cuff: String?
    var anchor: (device: String, phone: String)?

    init(_ r: AuditReading) {
        let json = Self.parse(r.readingJSON) ?? .null
        attempt = r.attempt
        index = r.index
        accepted = r.accepted
        manual = r.manual
        systolic = json["systolic"]?.intValue
        diastolic = json["diastolic"]?.intValue
        pulse = json["pulse"]?.intValue
        map = json["meanArterialPressure"]?.intValue
        mapDerived = r.mapReported == false
        measuredAt = json["measuredAt"]?.stringValue.flatMap { RFC3339.parseInstant($0) }
        deviceTime = json["deviceTime"]?.stringValue
        cuff = json["cuff"]?.stringValue
        if let anchor = json["anchor"], let device = anchor["device"]?.stringValue, let phone = anchor["phone"]?.stringValue {
            self.anchor = (device, phone)
        }
    }

    var point: TimelinePlot.Point {
        TimelinePlot.Point(at: measuredAt, systolic: systolic ?? 0, diastolic: diastolic ?? 0, accepted: accepted)
    }

    static func parse(_ text: String) -> JSONValue? { try? JSONValue.parse(Array(text.utf8)) }

    /// The readings table: attempt.index, measured, cuff clock, typed in, SYS/DIA, pulse, MAP, category, verdict.
    static func table(_ readings: [ReportReading], categories: BPCategories, _ l: Localizer, _ f: ReportFormat) -> HTML {
        let headers = ["#", l[.reportColumnMeasured], l[.reportColumnCuffClock], l[.reportColumnTypedIn], l[.reportColumnPressure],
                       l[.reportColumnPulse], l[.reportColumnMAP], l[.reportColumnCategory], l[.reportColumnVerdict]]
        let number = { (v: Int?) in v.map(f.integer) ?? "–" }
        return .table(headers, readings.map { r in
            let category = r.systolic.flatMap { s in r.diastolic.map { categories.category(systolic: s, diastolic: $0) } }
            return [.text("\(f.integer(r.attempt)).\(f.integer(r.index))"), .text(r.measuredAt.map(f.dateTime) ?? "–"),
                    .text(r.deviceTime ?? "–"), .text(r.manual ? "✓" : "–"),
                    .text(number(r.systolic) + "/" + number(r.diastolic)), .text(number(r.pulse)),
                    .text(number(r.map) + (r.mapDerived ? " †" : "")), .text(category.map { categories.name($0, l) } ?? "–"),
                    .text(l[r.accepted ? .verdictAccepted : .verdictRejected])]
        }, numeric: [4, 5, 6])
    }
}

extension CalibrationCertificate {
    /// "single session", or which set of how many of a multi-set calibration (issue 32).
    func protocolText(_ l: Localizer) -> String {
        guard let calibration, let set = calibration.sets.first(where: { $0.run == run.run }) else { return l[.reportSingleSession] }
        return l[.reportMultiSet, calibration.parameters.kind.rawValue, String(set.set), String(calibration.parameters.sets), calibration.id]
    }

    /// The sets recorded so far with their means: of all readings (AHA) and of readings 2 and 3
    /// (ESH, the first discarded); docs/design.md "Multi-set calibration".
    static func setsSection(_ calibration: MultiSetCalibration, _ l: Localizer, _ f: ReportFormat) -> [HTML] {
        func mean(_ m: BloodPressureMean?) -> String {
            m.map { f.decimal($0.systolic) + "/" + f.decimal($0.diastolic) } ?? "–"
        }
        return [
            .element("h2", text: l[.reportSets]),
            .table([l[.reportColumnSet], l[.reportColumnEnded], l[.reportReadings], l[.reportColumnMeanAll], l[.reportColumnMeanLast2], l[.reportNumber]],
                   calibration.sets.map { set in
                       [.text(f.integer(set.set)), .text(f.dateTime(set.endedAt)), .text(f.integer(set.readings.count)),
                        .text(mean(set.meanAll)), .text(mean(set.meanLast2)), .id(set.run)]
                   }, numeric: [0, 2, 3, 4]),
        ]
    }
}
