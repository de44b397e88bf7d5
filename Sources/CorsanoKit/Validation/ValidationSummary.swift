import Foundation

/// What decides a validation's status (`--criteria`).
public enum ValidationCriterion: String, CaseIterable, Sendable {
    /// ISO 81060-2 criterion 1 (mean and SD of the differences).
    case criterion1 = "1"
    /// ISO 81060-2 criterion 2 (SD of the per-subject mean differences).
    case criterion2 = "2"
    /// IEEE 1708 grade of the mean absolute difference, at most `maxGrade`.
    case ieee1708

    /// The default: ISO 81060-2's two criteria.
    public static let standard: [ValidationCriterion] = [.criterion1, .criterion2]
    /// `standard` as `--criteria` writes it: `1,2`.
    public static var standardList: String { standard.map(\.rawValue).joined(separator: ",") }
}

/// The sample size a validation must reach before its criteria can be assessed.
public struct ValidationMinimum: Equatable, Sendable {
    /// Subjects with at least one pair.
    public var subjects: Int
    /// Pairs, per variable.
    public var pairs: Int

    /// ISO 81060-2's: 85 subjects and 255 pairs (ISO 81060-2:2018, 5.1.1).
    public static let standard = ValidationMinimum(subjects: 85, pairs: 255)
    /// The standard's pairs per subject (3), used to derive a smaller panel's pair minimum.
    public static let pairsPerSubject = 3

    /// True for the standard's own minimum (false: a smaller panel, such as a CI gate).
    public var isStandard: Bool { self == .standard }

    /// A panel of `subjects` (`--min-subjects`), with three pairs each.
    public static func panel(subjects: Int) -> ValidationMinimum {
        ValidationMinimum(subjects: subjects, pairs: subjects * pairsPerSubject)
    }

    /// Creates a minimum.
    public init(subjects: Int, pairs: Int) {
        self.subjects = subjects
        self.pairs = pairs
    }
}

/// One subject's share of a validation.
public struct SubjectAgreement: Equatable, Sendable {
    /// The subject.
    public var subject: String
    /// Number of pairs.
    public var pairs: Int
    /// Mean systolic difference device − reference, mmHg; nil without pairs.
    public var systolicMeanDifference: Double?
    /// Mean diastolic difference, mmHg; nil without pairs.
    public var diastolicMeanDifference: Double?
}

/// The outcome that decides the status (docs/design.md "Validation").
public enum ValidationVerdict: Equatable, Sendable {
    /// Every chosen criterion is met.
    case pass
    /// Some chosen criterion fails: which, per variable (`systolic criterion 2`).
    case fail([String])
    /// The criteria cannot be assessed, each reason said (`85 subjects needed, 6 found`): fewer
    /// subjects or pairs than the minimum, a subject with fewer than 3 pairs, criterion 2 with
    /// fewer than 2 subjects, a population requirement unmet.
    case notAssessable([String])
}

/// Readings a validation left out of its statistics, by reason (docs/design.md "Validation").
public struct ValidationExclusions: Equatable, Sendable {
    /// Readings with an implausible value (`ReadingValidator.standard`, the range check `cuff
    /// ingest` applies); each is also named as a bad line (status 65).
    public var implausible = 0
    /// Pairs with a reading whose `status` flags it (body movement, cuff too loose, irregular
    /// pulse, pulse rate out of range, improper position): the protocols repeat such
    /// measurements, so they are counted and left out, not bad data.
    public var flaggedPairs = 0

    /// None excluded.
    public init() {}
}

/// A device-versus-reference validation: ISO 81060-2 criteria 1 and 2, Bland–Altman with the
/// repeated-measures SD, IEEE 1708's mean absolute difference grade, for systolic and diastolic.
///
/// Built from `ValidationPairs`; rendered as JSON (`summaryJSON`, `subjectLines`, `pairLines`) by
/// `validate` and by reports. Differences are device − reference, mmHg.
public struct ValidationSummary: Equatable, Sendable {
    /// The pairing rule used.
    public var pairing: ValidationPairing
    /// Systolic agreement; nil when there is no pair.
    public var systolic: VariableAgreement?
    /// Diastolic agreement; nil when there is no pair.
    public var diastolic: VariableAgreement?
    /// Per subject, in order of first appearance (subjects without pairs included).
    public var subjects: [SubjectAgreement]
    /// The pairs and what was left over.
    public var paired: ValidationPairs
    /// The minimum the criteria need.
    public var minimum: ValidationMinimum
    /// ISO 81060-2's population requirements: checked for a panel of the standard's size
    /// (`minimum.subjects` ≥ 85), else `.notChecked` (a smaller panel is not an ISO panel).
    public var population: PopulationCheck
    /// What was left out of the statistics (set by the caller that read the inputs).
    public var excluded = ValidationExclusions()

    /// Computes the statistics of `paired` against `minimum`; `subjects` is the subjects file
    /// (sex, age) for the population check.
    public init(paired: ValidationPairs, pairing: ValidationPairing, minimum: ValidationMinimum = .standard,
                subjects file: ValidationSubjects? = nil) {
        self.pairing = pairing
        // Pairs with a flagged reading (body movement, …) are left out and counted: a measurement
        // its own cuff flagged is one to repeat, not one to average (docs/design.md "Validation").
        var paired = paired
        let flagged = paired.pairs.filter(\.isFlagged).count
        if flagged > 0 { paired.pairs.removeAll(where: \.isFlagged) }
        self.paired = paired
        excluded.flaggedPairs = flagged
        self.minimum = minimum
        population = minimum.subjects >= PopulationCheck.subjects ? PopulationCheck(pairs: paired.pairs, subjects: file) : .notChecked
        var groups: [String: [ValidationPair]] = [:]
        for p in paired.pairs { groups[p.subject, default: []].append(p) }
        let ordered = paired.subjects.map { groups[$0] ?? [] }
        systolic = VariableAgreement(groups: ordered.map { $0.map(\.systolicDifference) })
        diastolic = VariableAgreement(groups: ordered.map { $0.map(\.diastolicDifference) })
        subjects = zip(paired.subjects, ordered).map { name, pairs in
            SubjectAgreement(
                subject: name, pairs: pairs.count,
                systolicMeanDifference: pairs.isEmpty ? nil : pairs.map(\.systolicDifference).reduce(0, +) / Double(pairs.count),
                diastolicMeanDifference: pairs.isEmpty ? nil : pairs.map(\.diastolicDifference).reduce(0, +) / Double(pairs.count))
        }
    }

    /// Number of pairs.
    public var pairCount: Int { paired.pairs.count }
    /// Number of subjects with at least one pair.
    public var pairedSubjectCount: Int { subjects.filter { $0.pairs > 0 }.count }

    /// Subjects with at least one pair but fewer than the standard's 3 (ISO 81060-2:2018, 5.1.1:
    /// three pairs per subject); each makes the panel not assessable, named.
    public var subjectsWithFewPairs: [SubjectAgreement] {
        subjects.filter { $0.pairs > 0 && $0.pairs < ValidationMinimum.pairsPerSubject }
    }

    /// `subject "P07" has 1 pair(s), 3 needed`.
    static func fewPairs(_ s: SubjectAgreement) -> String {
        "subject \(JSONString.quoted(s.subject)) has \(s.pairs) pair(s), \(ValidationMinimum.pairsPerSubject) needed"
    }

    /// Why `criteria` cannot be assessed on this panel; empty when they can.
    public func unassessable(criteria: [ValidationCriterion] = ValidationCriterion.standard) -> [String] {
        var why: [String] = []
        if pairedSubjectCount < minimum.subjects { why.append("\(pairedSubjectCount) subjects, at least \(minimum.subjects) needed") }
        if pairCount < minimum.pairs { why.append("\(pairCount) pairs, at least \(minimum.pairs) needed") }
        why += subjectsWithFewPairs.map(Self.fewPairs)
        // Criterion 2 is the spread of the subjects' means: one subject has none (not a failure).
        if criteria.contains(.criterion2), pairedSubjectCount < 2 { why.append("criterion 2 needs at least 2 subjects") }
        for u in population.unmet where u.requirement != "subjects" && u.requirement != "pairsPerSubject" {
            why.append("population \(u.requirement): \(u.rule): found \(u.found)")
        }
        if why.isEmpty, systolic == nil || diastolic == nil { why.append("no pairs") }
        return why
    }

    /// The verdict under `criteria`; `maxGrade` is the worst IEEE 1708 grade that passes.
    /// Criterion 2 outside its table (|x̄| > 5 mmHg) fails saying so.
    public func verdict(criteria: [ValidationCriterion] = ValidationCriterion.standard, maxGrade: IEEE1708Grade = .a) -> ValidationVerdict {
        let why = unassessable(criteria: criteria)
        guard why.isEmpty, let systolic, let diastolic else { return .notAssessable(why) }
        var failed: [String] = []
        for (name, v) in [("systolic", systolic), ("diastolic", diastolic)] {
            for c in criteria {
                let ok: Bool
                switch c {
                case .criterion1: ok = v.criterion1Pass
                case .criterion2: ok = v.criterion2Pass
                case .ieee1708: ok = v.ieee1708Grade <= maxGrade
                }
                guard !ok else { continue }
                switch c {
                case .ieee1708: failed.append("\(name) IEEE 1708 grade \(v.ieee1708Grade.rawValue)")
                case .criterion2 where !v.criterion2InTable: failed.append("\(name) criterion 2 (outside the criterion-2 table)")
                default: failed.append("\(name) criterion \(c.rawValue)")
                }
            }
        }
        return failed.isEmpty ? .pass : .fail(failed)
    }

    // MARK: JSON (docs/design.md "Validation")

    /// `122` or `121.5`: a reference pressure (a mean of two integers) as text.
    public static func mmHg(_ x: Double) -> String {
        x == x.rounded() ? String(Int(x)) : String(format: "%.1f", x)
    }

    /// Rounds to 0.001 mmHg for output (the standard reports to 0.1; more would be noise).
    static func number(_ x: Double?) -> JSONValue {
        guard let x, x.isFinite else { return .null }
        return .double((x * 1000).rounded() / 1000)
    }

    static func variableJSON(_ v: VariableAgreement?) -> JSONValue {
        guard let v else { return .null }
        let ba = v.blandAltman
        return [
            "pairs": .int(v.pairs), "subjects": .int(v.subjects),
            "meanDifference": number(v.meanDifference), "sdDifference": number(v.sdDifference),
            "criterion1": ["pass": .bool(v.criterion1Pass)],
            "criterion2": ["sdOfSubjectMeans": number(v.sdOfSubjectMeans), "limit": number(v.criterion2Limit),
                           "inTable": .bool(v.criterion2InTable), "pass": .bool(v.criterion2Pass)],
            "blandAltman": [
                "bias": number(ba.bias), "lower": number(ba.lower), "upper": number(ba.upper), "sd": number(ba.sd),
                "withinSubjectVariance": number(ba.withinSubjectVariance),
                "betweenSubjectVariance": number(ba.betweenSubjectVariance),
                "betweenSubjectVarianceClamped": .bool(ba.betweenSubjectVarianceClamped),
            ],
            "meanAbsoluteDifference": number(v.meanAbsoluteDifference),
            "ieee1708Grade": .string(v.ieee1708Grade.rawValue),
        ]
    }

    /// The summary line: `{"summary":{"systolic":{…},"diastolic":{…},…}}`.
    public func summaryJSON(criteria: [ValidationCriterion] = ValidationCriterion.standard, maxGrade: IEEE1708Grade = .a) -> JSONValue {
        let verdictValue: JSONValue
        switch verdict(criteria: criteria, maxGrade: maxGrade) {
        case .pass: verdictValue = ["pass": true]
        case .fail(let why): verdictValue = ["pass": false, "failed": .array(why.map { .string($0) })]
        case .notAssessable(let why): verdictValue = ["pass": .null, "assessable": false, "reasons": .array(why.map { .string($0) })]
        }
        let fewPairs = subjectsWithFewPairs.map { JSONValue.string(Self.fewPairs($0)) }
        var body: [(String, JSONValue)] = [
            ("systolic", Self.variableJSON(systolic)), ("diastolic", Self.variableJSON(diastolic)),
            ("pairing", .string(pairing.name)),
        ]
        if case .nearest(let window) = pairing { body.append(("window", Self.number(window))) }
        body += [
            ("pairs", .int(pairCount)), ("subjects", .int(pairedSubjectCount)),
            ("minimum", ["subjects": .int(minimum.subjects), "pairs": .int(minimum.pairs), "standard": .bool(minimum.isStandard)]),
            ("population", population.json),
            ("assessable", .bool(unassessable(criteria: criteria).isEmpty)),
            ("unpaired", ["reference": .int(paired.unpairedReference), "device": .int(paired.unpairedDevice)]),
            ("excluded", ["implausible": .int(excluded.implausible), "flaggedPairs": .int(excluded.flaggedPairs)]),
            ("withoutSubject", .int(paired.withoutSubject)),
            ("problems", .array(paired.problems.map { .string($0.description) } + fewPairs)),
            ("criteria", .array(criteria.map { .string($0.rawValue) })),
        ]
        if criteria.contains(.ieee1708) { body.append(("ieee1708MaxGrade", .string(maxGrade.rawValue))) }
        body.append(("verdict", verdictValue))
        return .object([("summary", .object(body))])
    }

    /// One line per subject: `{"subject":"…","systolic":{"pairs":…,"meanDifference":…},"diastolic":{…}}`.
    public var subjectLines: [JSONValue] {
        subjects.map { s in
            [
                "subject": .string(s.subject),
                "systolic": ["pairs": .int(s.pairs), "meanDifference": Self.number(s.systolicMeanDifference)],
                "diastolic": ["pairs": .int(s.pairs), "meanDifference": Self.number(s.diastolicMeanDifference)],
            ]
        }
    }

    /// One line per pair: `{"pair":{"subject":…,"reference":{…},"device":{…},"difference":{…}}}`.
    public var pairLines: [JSONValue] {
        paired.pairs.map { p in
            [
                "pair": [
                    "subject": .string(p.subject),
                    "reference": [
                        "systolic": Self.number(p.referenceSystolic), "diastolic": Self.number(p.referenceDiastolic),
                        "measuredAt": .array(p.references.map { .string(RFC3339.format($0.measuredAt)) }),
                    ],
                    "device": [
                        "systolic": .int(p.device.systolic), "diastolic": .int(p.device.diastolic),
                        "measuredAt": .string(RFC3339.format(p.device.measuredAt)),
                    ],
                    "difference": ["systolic": Self.number(p.systolicDifference), "diastolic": Self.number(p.diastolicDifference)],
                ],
            ]
        }
    }
}

extension ValidationCriterion {
    /// Parses `--criteria`'s list (`1,2,ieee1708`); nil names the first word that is not a criterion.
    /// - Returns: the criteria in the order given, each once, or the bad word.
    public static func parseList(_ text: String) -> Result<[ValidationCriterion], ValidationCriterionError> {
        var out: [ValidationCriterion] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            let w = word.trimmingCharacters(in: .whitespaces)
            guard let c = ValidationCriterion(rawValue: w.lowercased()) else { return .failure(ValidationCriterionError(word: w)) }
            if !out.contains(c) { out.append(c) }
        }
        return .success(out)
    }
}

/// A `--criteria` word that is none of `1`, `2`, `ieee1708`.
public struct ValidationCriterionError: Error, Equatable, Sendable {
    /// The word.
    public var word: String
}

extension ValidationSummary {
    /// The summary as a readable table (a terminal's output): one row per statistic, a column per
    /// variable, mmHg to one decimal as the standard reports, then the verdict.
    public func tableLines(criteria: [ValidationCriterion] = ValidationCriterion.standard, maxGrade: IEEE1708Grade = .a) -> [String] {
        func f(_ x: Double?) -> String { x.map { String(format: "%+.1f", $0) } ?? "-" }
        func u(_ x: Double?) -> String { x.map { String(format: "%.1f", $0) } ?? "-" }
        func pass(_ b: Bool?) -> String { b.map { $0 ? "pass" : "FAIL" } ?? "-" }
        let s = systolic, d = diastolic
        let rows: [(String, String, String)] = [
            ("pairs", s.map { "\($0.pairs)" } ?? "0", d.map { "\($0.pairs)" } ?? "0"),
            ("mean difference", f(s?.meanDifference), f(d?.meanDifference)),
            ("SD of differences", u(s?.sdDifference), u(d?.sdDifference)),
            ("criterion 1 (|mean| <= 5, SD <= 8)", pass(s?.criterion1Pass), pass(d?.criterion1Pass)),
            ("SD of subject means", u(s?.sdOfSubjectMeans), u(d?.sdOfSubjectMeans)),
            ("criterion 2 limit", String(format: "%.2f", s?.criterion2Limit ?? 0), String(format: "%.2f", d?.criterion2Limit ?? 0)),
            ("criterion 2", pass(s?.criterion2Pass), pass(d?.criterion2Pass)),
            ("Bland-Altman bias", f(s?.blandAltman.bias), f(d?.blandAltman.bias)),
            ("95% limits of agreement", limits(s), limits(d)),
            ("mean absolute difference", u(s?.meanAbsoluteDifference), u(d?.meanAbsoluteDifference)),
            ("IEEE 1708 grade", s?.ieee1708Grade.rawValue ?? "-", d?.ieee1708Grade.rawValue ?? "-"),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        func pad(_ t: String, _ n: Int, left: Bool = false) -> String {
            let fill = String(repeating: " ", count: max(0, n - t.count))
            return left ? t + fill : fill + t
        }
        var lines = [pad("mmHg", width, left: true) + "  " + pad("systolic", 16) + "  " + pad("diastolic", 16)]
        lines += rows.map { pad($0.0, width, left: true) + "  " + pad($0.1, 16) + "  " + pad($0.2, 16) }
        let clamped = [("systolic", s), ("diastolic", d)].filter { $0.1?.blandAltman.betweenSubjectVarianceClamped == true }.map(\.0)
        if !clamped.isEmpty {
            lines.append("between-subject variance estimated below zero, set to 0: " + clamped.joined(separator: ", "))
        }
        let panel = minimum.isStandard ? "ISO 81060-2's minimum" : "a smaller panel than ISO 81060-2's 85 subjects, 255 pairs"
        lines.append("\(pairedSubjectCount) subjects, \(pairCount) pairs (\(pairing.name) pairing); "
                     + "minimum \(minimum.subjects) subjects, \(minimum.pairs) pairs (\(panel))")
        if excluded.implausible + excluded.flaggedPairs > 0 {
            lines.append("excluded: \(excluded.implausible) implausible reading(s), \(excluded.flaggedPairs) flagged pair(s)")
        }
        if !population.checked {
            lines.append("population: not checked (a smaller panel): not an ISO 81060-2 panel")
        } else if population.iso81060_2 {
            lines.append("population: ISO 81060-2 requirements met")
        } else {
            lines += population.unmet.map { "population unmet: \($0.requirement): \($0.rule): found \($0.found)" }
        }
        let names = criteria.map { $0 == .ieee1708 ? "IEEE 1708 grade \(maxGrade.rawValue) or better" : "criterion \($0.rawValue)" }
        switch verdict(criteria: criteria, maxGrade: maxGrade) {
        case .pass: lines.append("result: pass (" + names.joined(separator: ", ") + ")")
        case .fail(let why): lines.append("result: FAIL: " + why.joined(separator: ", "))
        case .notAssessable(let why): lines.append("result: cannot be assessed: " + why.joined(separator: "; "))
        }
        return lines
    }

    private func limits(_ v: VariableAgreement?) -> String {
        guard let l = v?.blandAltman.lower, let u = v?.blandAltman.upper else { return "-" }
        return String(format: "%+.1f to %+.1f", l, u)
    }
}
