/// A calibration certificate of one run, from the audit log (what it carries follows
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
    /// The multi-set calibration this run is a set of; nil: a single session.
    public var calibration: MultiSetCalibration? = nil
    /// The audit log's runs of the calibration's sets, by run id: a multi-set certificate shows
    /// every set's readings, grouped by set (`AuditLog.certificate` fills it in).
    public var setRuns: [String: AuditRun] = [:]

    /// The document in `l`'s locale. Every value run is its own isolate (`HTML.value`,
    /// `ReportFormat.dateTimeHTML`); every word is the catalogue's.
    public func html(_ l: Localizer) -> String {
        let f = ReportFormat(locale: l.locale)
        let readings = run.readings.map(ReportReading.init)
        let config = ReportReading.parse(run.configJSON) ?? .null
        let b = run.bracelet
        // A multi-set certificate shows every set's readings; a single session its own.
        var groups: [(set: CalibrationSetRecord?, readings: [ReportReading])] = [(nil, readings)]
        if let calibration {
            groups = calibration.sets.map { (set: CalibrationSetRecord) -> (set: CalibrationSetRecord?, readings: [ReportReading]) in
                let setRun: AuditRun? = set.run == run.run ? run : setRuns[set.run]
                return (set, (setRun?.readings ?? []).map(ReportReading.init))
            }
        }
        let all: [ReportReading] = groups.flatMap(\.readings)
        let notRecorded = HTML.text(l[.reportNotRecorded])
        var body: [HTML] = [.element("h1", text: l[.reportCertificate])]
        if let mark = verification.pageMark(l) { body.append(.element("p", ["class": "not-verified"], text: mark + ": " + verification.text(l))) }
        let item = HTML.localized(l, .reportBraceletLine, [HTML.value(b.model), HTML.value(b.serial, kind: "serial"), HTML.value(b.firmware)])
        var fields: [(String, HTML)] = [(l[.reportNumber], HTML.id(run.run)), (l[.reportIssued], f.dateTimeHTML(issued)), (l[.reportItem], item)]
        // The person the bracelet was calibrated on (the readings' `subject`, `--subject-id`), when the run has one.
        if let subjects = Self.distinct(all.compactMap(\.subject)) { fields.append((l[.reportSubject], subjects)) }
        let ended: HTML = run.endedAt.map(f.dateTimeHTML) ?? HTML.text(l[.historyNotFinished])
        let performed: [HTML] = [f.dateTimeHTML(run.startedAt), HTML.text(" – "), ended]
        let gateway: HTML = run.gateway.map { HTML.value($0, nowrap: false) } ?? notRecorded
        let operatorName: HTML = config["operator"]?.stringValue.map { HTML.value($0, nowrap: false) } ?? notRecorded
        let anchors: [HTML] = all.compactMap { (r: ReportReading) -> HTML? in
            guard let anchor = r.anchor else { return nil }
            return HTML.localized(l, .reportAnchorValue, [HTML.value(anchor.device), f.dateTimeHTML(anchor.phone)])
        }
        let protocolLine: [HTML] = [HTML.value(run.flow), HTML.text(", "), protocolText(l, f)]
        fields.append((l[.reportPerformed], performed.joined))
        fields.append((l[.reportGateway], gateway))
        fields.append((l[.reportOperator], operatorName))
        fields.append((l[.reportCuff], Self.distinct(all.compactMap(\.cuff)) ?? notRecorded))
        fields.append((l[.reportClockAnchor], Self.distinct(anchors) ?? notRecorded))
        fields.append((l[.reportProtocol], protocolLine.joined))
        body.append(.fields(fields))
        if let calibration { body.append(contentsOf: Self.setsSection(calibration, l, f)) }
        body.append(.element("h2", text: l[.reportReadings]))
        for group in groups {
            if let set = group.set, let calibration {
                let heading = HTML.localized(l, .reportSetOf, [HTML.value(f.integer(set.set)), HTML.value(f.integer(calibration.parameters.sets))])
                body.append(.element("h3", [heading]))
                body.append(.element("p", ["class": "means"], [Self.means(set, l, f)]))
            }
            body.append(ReportReading.table(group.readings, categories: categories, l, f))
        }
        if all.contains(where: { $0.mapDerived }) { body.append(.element("p", ["class": "note"], text: l[.reportMAPDerived])) }
        if !all.isEmpty {
            body.append(TimelinePlot(points: all.map(\.point), categories: categories, localizer: l, format: f).figure(id: "timeline"))
        }
        body.append(.element("h2", text: l[.reportResult]))
        body.append(.fields([(l[.reportResult], .text(resultText(l))), (l[.reportPlan], planText(l, f))]))
        body.append(.element("h2", text: l[.reportIntegrity]))
        body.append(.fields([(l[.reportVerification], .text(verification.text(l))),
                             (l[.reportChainHead], chainHead.map(HTML.code) ?? notRecorded),
                             (l[.reportRunHash], .code(AuditChain.runHash(run)))]))
        body.append(.element("h2", text: l[.reportSignatures]))
        body.append(Self.signatureTable(signatures, l, f))
        body.append(.element("footer", [.localized(l, .reportGenerated, [.value(version)])]))
        return ReportDocument(title: l[.reportCertificate], number: run.run, localizer: l, paper: paper, body: body,
                              mark: verification.pageMark(l)).html
    }

    private func resultText(_ l: Localizer) -> String {
        run.resultJSON.flatMap(ReportReading.parse).map { l.describe(result: $0) } ?? l[.historyNotFinished]
    }

    /// The bracelet's plan after the run: restored when it ended, left switched (the result's
    /// `planRestoreFailed`), or restored later by another command for a killed run.
    private func planText(_ l: Localizer, _ f: ReportFormat) -> HTML {
        if let result = run.resultJSON.flatMap(ReportReading.parse) {
            if let failed = result["planRestoreFailed"] {
                return .localized(l, .reportPlanNotRestored, [.value(failed["plan"]?.displayText ?? "?"), .value(failed["previousPlan"]?.displayText ?? "?"),
                                                              .value(failed["reason"]?.displayText ?? "?", nowrap: false)])
            }
            return .text(l[.reportPlanRestored])
        }
        if let planRestored { return .localized(l, .historyKilledPlanRestored, [.value(planRestored.previousPlan), f.dateTimeHTML(planRestored.at)]) }
        return .text(l[.historyNotFinished])
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
        return .table(headers, signatures.map { (s: SignatureRecord) -> [HTML] in
            var who: [HTML] = [HTML.value(s.name, nowrap: false), HTML.text(" ("), HTML.value(s.osUser)]
            if !s.gateway.isEmpty { who += [HTML.text(", "), HTML.value(s.gateway)] }
            who.append(HTML.text(")"))
            let row: [HTML] = [who.joined, f.dateTimeHTML(s.at), HTML.text(meaning(s.meaning, l)), HTML.code(AuditChain.shortHead(s.runHash))]
            return row
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

    /// The values joined when there are any, each once (by markup), in order, each its own isolate.
    static func distinct(_ values: [String]) -> HTML? { distinct(values.map { HTML.value($0) }) }

    static func distinct(_ values: [HTML]) -> HTML? {
        var seen = Set<String>()
        let unique = values.filter { seen.insert($0.markup).inserted }
        guard !unique.isEmpty else { return nil }
        var parts: [HTML] = []
        for v in unique {
            if !parts.isEmpty { parts.append(HTML.text("; ")) }
            parts.append(v)
        }
        return parts.joined
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
    /// The person the reading was taken on (`subject`, `--subject-id`).
    var subject: String?

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
        subject = json[CuffReading.subjectField]?.stringValue
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
        return .table(headers, readings.map { (r: ReportReading) -> [HTML] in
            let category = r.systolic.flatMap { s in r.diastolic.map { categories.category(systolic: s, diastolic: $0) } }
            let dash = HTML.text("–")
            let place = f.integer(r.attempt) + "." + f.integer(r.index)
            let measured: HTML = r.measuredAt.map(f.dateTimeHTML) ?? dash
            let cuffClock: HTML = r.deviceTime.map { HTML.value($0) } ?? dash
            let pressure = number(r.systolic) + "/" + number(r.diastolic)
            let map = number(r.map) + (r.mapDerived ? " †" : "")
            let categoryName = category.map { categories.name($0, l) } ?? "–"
            let verdict = l[r.accepted ? .verdictAccepted : .verdictRejected]
            let row: [HTML] = [HTML.value(place), measured, cuffClock, HTML.text(r.manual ? "✓" : "–"), HTML.value(pressure),
                               HTML.value(number(r.pulse)), HTML.value(map), HTML.text(categoryName), HTML.text(verdict)]
            return row
        }, numeric: [4, 5, 6])
    }
}

extension CalibrationCertificate {
    /// "single session", or which set of how many of a multi-set calibration.
    func protocolText(_ l: Localizer, _ f: ReportFormat) -> HTML {
        guard let calibration, let set = calibration.sets.first(where: { $0.run == run.run }) else { return .text(l[.reportSingleSession]) }
        return .localized(l, .reportMultiSet, [.value(calibration.parameters.kind.rawValue), .value(f.integer(set.set)),
                                               .value(f.integer(calibration.parameters.sets)), .id(calibration.id)])
    }

    /// A set's means: of all its readings (AHA) and of readings 2 and 3 (ESH), mmHg.
    static func means(_ set: CalibrationSetRecord, _ l: Localizer, _ f: ReportFormat) -> HTML {
        let all = l[.reportColumnMeanAll] + ": ", last2 = "; " + l[.reportColumnMeanLast2] + ": "
        let parts: [HTML] = [HTML.text(all), HTML.value(mean(set.meanAll, f)), HTML.text(last2), HTML.value(mean(set.meanLast2, f))]
        return parts.joined
    }

    static func mean(_ m: BloodPressureMean?, _ f: ReportFormat) -> String {
        m.map { f.decimal($0.systolic) + "/" + f.decimal($0.diastolic) } ?? "–"
    }

    /// The sets recorded so far with their means: of all readings (AHA) and of readings 2 and 3
    /// (ESH, the first discarded); docs/design.md "Multi-set calibration".
    static func setsSection(_ calibration: MultiSetCalibration, _ l: Localizer, _ f: ReportFormat) -> [HTML] {
        return [
            .element("h2", text: l[.reportSets]),
            .table([l[.reportColumnSet], l[.reportColumnEnded], l[.reportReadings], l[.reportColumnMeanAll], l[.reportColumnMeanLast2], l[.reportNumber]],
                   calibration.sets.map { set in
                       [.value(f.integer(set.set)), f.dateTimeHTML(set.endedAt), .value(f.integer(set.readings.count)),
                        .value(mean(set.meanAll, f)), .value(mean(set.meanLast2, f)), .id(set.run)]
                   }, numeric: [0, 2, 3, 4]),
        ]
    }
}
