/// One population requirement of a validation, with what the panel has.
public struct PopulationRequirement: Equatable, Sendable {
    /// A stable name: `subjects`, `pairsPerSubject`, `female`, `male`, `age`, `systolic<=100`,
    /// `systolic>=160`, `systolic>=140`, `diastolic<=60`, `diastolic>=100`, `diastolic>=85`,
    /// `armCircumference`.
    public var requirement: String
    /// The rule in words, with its source.
    public var rule: String
    /// What the panel has (`25 of 85 subjects (29.4 %)`), or why the rule does not apply.
    public var found: String
}

/// ISO 81060-2's general-population requirements checked on a validation panel.
///
/// The requirements (ISO 81060-2:2018 + Amd 1:2020, 5.1; the same figures in the AAMI/ESH/ISO
/// Universal Standard, Stergiou et al., J Hypertens 2018;36:472–478, Table 1 "general population"):
/// - at least 85 subjects (5.1.1), each with 3 valid pairs (255 pairs in all);
/// - at least 30 % female and at least 30 % male subjects;
/// - every subject older than 12 years (the general population; children 3–12 are a
///   special population with requirements of their own);
/// - the reference pressures spread: systolic ≤ 100 mmHg in at least 5 % of the reference
///   determinations, ≥ 160 in at least 5 %, ≥ 140 in at least 20 %; diastolic ≤ 60 in at least
///   5 %, ≥ 100 in at least 5 %, ≥ 85 in at least 20 %. Counted over the pairs' reference
///   values (the mean of the two readings around a device value under `sequential`);
/// - limb sizes spread over the cuff's range (Amd 1:2020 and Amd 2:2024): not applicable
///   to a cuffless device, which has no cuff range (the reference cuff's size is the observer's).
///
/// The sex shares and the age bound are also tabulated for the Universal Standard in the
/// comparison of protocols of Front Cardiovasc Med 2022;9:1001878, Table 1.
///
/// Shares are compared exactly (count × 100 ≥ percent × total, in integers): a panel sitting on
/// a bound meets it. Sex and age come from the subjects file; without one they are unmet.
public struct PopulationCheck: Equatable, Sendable {
    /// False when no check was made (a panel smaller than the standard's, `--min-subjects`).
    public var checked: Bool
    /// The requirements not met, in the order above.
    public var unmet: [PopulationRequirement]
    /// The requirements that do not apply, each saying why.
    public var notApplicable: [PopulationRequirement]

    /// The subjects the standard asks for (ISO 81060-2:2018, 5.1.1).
    public static let subjects = 85
    /// Each sex's least share, percent (ISO 81060-2:2018, 5.1).
    public static let sexSharePercent = 30
    /// Subjects must be older than this, years (ISO 81060-2:2018, 5.1; Universal Standard Table 1).
    public static let minimumAgeExclusive = 12.0

    /// A reference-pressure bound (ISO 81060-2:2018, 5.1; Universal Standard Table 1).
    public struct PressureBound: Sendable {
        /// `systolic` or `diastolic`.
        public var variable: String
        /// True: at most `mmHg`; false: at least.
        public var atMost: Bool
        /// The bound, mmHg.
        public var mmHg: Int
        /// The least share of reference determinations on that side, percent.
        public var percent: Int

        /// `systolic<=100`.
        public var name: String { "\(variable)\(atMost ? "<=" : ">=")\(mmHg)" }
    }

    /// The six bounds of the reference-pressure distribution, in the standard's order.
    public static let pressureBounds: [PressureBound] = [
        PressureBound(variable: "systolic", atMost: true, mmHg: 100, percent: 5),
        PressureBound(variable: "systolic", atMost: false, mmHg: 160, percent: 5),
        PressureBound(variable: "systolic", atMost: false, mmHg: 140, percent: 20),
        PressureBound(variable: "diastolic", atMost: true, mmHg: 60, percent: 5),
        PressureBound(variable: "diastolic", atMost: false, mmHg: 100, percent: 5),
        PressureBound(variable: "diastolic", atMost: false, mmHg: 85, percent: 20),
    ]

    /// True when every requirement was checked and met.
    public var iso81060_2: Bool { checked && unmet.isEmpty }

    /// The check not made: a smaller panel than the standard's.
    public static let notChecked = PopulationCheck(checked: false, unmet: [], notApplicable: [])

    /// Creates a check from its parts.
    public init(checked: Bool, unmet: [PopulationRequirement], notApplicable: [PopulationRequirement]) {
        self.checked = checked
        self.unmet = unmet
        self.notApplicable = notApplicable
    }

    static func percent(_ count: Int, of total: Int) -> String {
        guard total > 0 else { return "0 %" }
        return String(format: "%.1f %%", Double(count) * 100 / Double(total))
    }

    /// Checks `pairs` (the subjects are those with a pair) against the requirements; `subjects`
    /// is the subjects file (nil: none given, so sex and age are unmet).
    public init(pairs: [ValidationPair], subjects: ValidationSubjects?) {
        var unmet: [PopulationRequirement] = []
        var order: [String] = []
        var perSubject: [String: Int] = [:]
        for p in pairs {
            if perSubject[p.subject] == nil { order.append(p.subject) }
            perSubject[p.subject, default: 0] += 1
        }
        let n = order.count
        func need(_ name: String, _ rule: String, _ met: Bool, _ found: @autoclosure () -> String) {
            if !met { unmet.append(PopulationRequirement(requirement: name, rule: rule, found: found())) }
        }
        need("subjects", "at least \(Self.subjects) subjects (ISO 81060-2:2018, 5.1.1)", n >= Self.subjects, "\(n) subjects")
        let few = order.filter { perSubject[$0]! < ValidationMinimum.pairsPerSubject }
        need("pairsPerSubject", "\(ValidationMinimum.pairsPerSubject) pairs per subject (ISO 81060-2:2018, 5.1.1)", few.isEmpty,
             "\(few.count) subject(s) with fewer: " + few.prefix(5).map { JSONString.quoted($0) }.joined(separator: ", "))
        // Sex and age: from the subjects file.
        let records = order.map { subjects?.records[$0] }
        let missing = zip(order, records).filter { $0.1 == nil }.map(\.0)
        let unknown = subjects == nil ? "no subjects file (--subjects)"
            : missing.isEmpty ? "" : "; \(missing.count) subject(s) not in the subjects file"
        for sex in [SubjectRecord.Sex.female, .male] {
            let count = records.filter { $0?.sex == sex }.count
            need(sex.rawValue, "at least \(Self.sexSharePercent) % \(sex.rawValue) subjects (ISO 81060-2:2018, 5.1)",
                 subjects != nil && count * 100 >= Self.sexSharePercent * n,
                 subjects == nil ? unknown : "\(count) of \(n) subjects (\(Self.percent(count, of: n)))" + unknown)
        }
        let young = zip(order, records).filter { ($0.1?.age).map { $0 <= Self.minimumAgeExclusive } ?? false }.map(\.0)
        let noAge = zip(order, records).filter { $0.1 != nil && $0.1?.age == nil }.map(\.0)
        need("age", "every subject older than 12 years (ISO 81060-2:2018, 5.1, general population)",
             subjects != nil && young.isEmpty && noAge.isEmpty && missing.isEmpty,
             subjects == nil ? unknown
                : [young.isEmpty ? nil : "\(young.count) aged 12 or under: " + young.prefix(5).map { JSONString.quoted($0) }.joined(separator: ", "),
                   noAge.isEmpty ? nil : "\(noAge.count) without an age",
                   missing.isEmpty ? nil : "\(missing.count) not in the subjects file"].compactMap { $0 }.joined(separator: "; "))
        // The reference-pressure distribution, over the pairs' reference values.
        for bound in Self.pressureBounds {
            let values = pairs.map { bound.variable == "systolic" ? $0.referenceSystolic : $0.referenceDiastolic }
            let count = values.filter { bound.atMost ? $0 <= Double(bound.mmHg) : $0 >= Double(bound.mmHg) }.count
            need(bound.name, "at least \(bound.percent) % of reference determinations with \(bound.variable) \(bound.atMost ? "≤" : "≥") \(bound.mmHg) mmHg "
                 + "(ISO 81060-2:2018, 5.1)", count * 100 >= bound.percent * values.count,
                 "\(count) of \(values.count) (\(Self.percent(count, of: values.count)))")
        }
        checked = true
        self.unmet = unmet
        notApplicable = [PopulationRequirement(
            requirement: "armCircumference",
            rule: "limb sizes spread over the device's cuff range (ISO 81060-2:2018 + Amd 1:2020 + Amd 2:2024, 5.1)",
            found: "a cuffless device has no cuff range")]
    }

    /// `{"iso81060_2":…,"checked":…,"unmet":[{"requirement":…,"rule":…,"found":…}],"notApplicable":[…]}`.
    public var json: JSONValue {
        func list(_ items: [PopulationRequirement]) -> JSONValue {
            .array(items.map { ["requirement": .string($0.requirement), "rule": .string($0.rule), "found": .string($0.found)] })
        }
        return ["iso81060_2": .bool(iso81060_2), "checked": .bool(checked), "unmet": list(unmet), "notApplicable": list(notApplicable)]
    }
}
