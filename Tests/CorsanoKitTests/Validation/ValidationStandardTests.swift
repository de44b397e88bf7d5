@testable import CorsanoKit
import Testing

/// Decisions only where the standard defines them (ISO 81060-2:2018, 5.1 and 5.2.4.1): criterion 2
/// within its table, three pairs per subject, criterion 2 with two subjects or more, and the
/// general-population requirements, each on a panel sitting exactly on its bound and moved across it.
@Suite struct ValidationStandardTests {
    static let t0 = RFC3339.parseInstant("2026-12-01T09:00:00Z")!

    static func reading(_ subject: String, _ sys: Int, _ dia: Int, minute: Int) -> ValidationReading {
        ValidationReading(subject: subject, systolic: sys, diastolic: dia, measuredAt: t0.adding(interval: Double(minute * 60)), origin: "x")
    }

    /// A pair whose reference is one reading `sys/dia` and whose device agrees within 1 mmHg.
    static func pair(_ subject: String, _ sys: Int, _ dia: Int, _ k: Int) -> ValidationPair {
        ValidationPair(subject: subject, references: [reading(subject, sys, dia, minute: 2 * k)],
                       device: reading(subject, sys + (k % 2), dia, minute: 2 * k + 1))
    }

    // MARK: Criterion 2's table and its subjects

    @Test(arguments: [(5.0, true), (-5.0, true), (5.001, false), (7.0, false), (-7.0, false)])
    func criterion2IsDefinedForMeansWithinFiveMmHg(mean: Double, inTable: Bool) throws {
        // Every subject's mean equal: the SD of subject means is 0, far below any limit.
        let v = try #require(VariableAgreement(groups: [[mean, mean], [mean, mean], [mean, mean]]))
        #expect(v.criterion2InTable == inTable)
        #expect(v.criterion2Pass == inTable)
    }

    /// `subjects` subjects, each R T R T R T R; device = reference mean + `offset` (+1 on odd subjects).
    static func panel(subjects: Int, offset: Int, pairsOf: (Int) -> Int = { _ in 3 }) -> ValidationPairs {
        var ref: [ValidationReading] = [], dev: [ValidationReading] = []
        for s in 0..<subjects {
            let name = "P\(s)"
            let n = pairsOf(s)
            for k in 0...n { ref.append(reading(name, 120, 80, minute: 2 * k)) }
            for k in 0..<n { dev.append(reading(name, 120 + offset + s % 2, 80 + offset + s % 2, minute: 2 * k + 1)) }
        }
        return ValidationPairs(reference: ref, device: dev, rule: .sequential)
    }

    @Test func criterion2AtSevenMmHgFailsOutsideItsTableAloneToo() {
        let s = ValidationSummary(paired: Self.panel(subjects: 6, offset: 7), pairing: .sequential, minimum: .panel(subjects: 6))
        #expect(s.verdict(criteria: [.criterion2]) == .fail(["systolic criterion 2 (outside the criterion-2 table)",
                                                              "diastolic criterion 2 (outside the criterion-2 table)"]))
        #expect(s.summaryJSON(criteria: [.criterion2])["summary"]?["systolic"]?["criterion2"]?["inTable"] == false)
    }

    @Test func criterion2WithOneSubjectCannotBeAssessedNeverFails() {
        let one = ValidationSummary(paired: Self.panel(subjects: 1, offset: 1), pairing: .sequential, minimum: .panel(subjects: 1))
        #expect(one.verdict() == .notAssessable(["criterion 2 needs at least 2 subjects"]))
        #expect(one.verdict(criteria: [.criterion2]) == .notAssessable(["criterion 2 needs at least 2 subjects"]))
        // Criterion 1 alone is defined on one subject.
        #expect(one.verdict(criteria: [.criterion1]) == .pass)
    }

    @Test func aSubjectWithFewerThanThreePairsIsNamedAndThePanelNotAssessable() throws {
        // 86 subjects, 256 pairs: P85 has a single pair.
        let s = ValidationSummary(paired: Self.panel(subjects: 86, offset: 1, pairsOf: { $0 == 85 ? 1 : 3 }), pairing: .sequential,
                                  minimum: .standard)
        #expect(s.pairCount == 256 && s.pairedSubjectCount == 86)
        guard case .notAssessable(let why) = s.verdict() else { Issue.record("assessed with a one-pair subject"); return }
        #expect(why.first == #"subject "P85" has 1 pair(s), 3 needed"#)
        let problems = try #require(s.summaryJSON()["summary"]?["problems"]?.arrayValue)
        #expect(problems.contains(.string(#"subject "P85" has 1 pair(s), 3 needed"#)))
        // A smaller panel needs three pairs each too (--min-subjects: "and three pairs each").
        let small = ValidationSummary(paired: Self.panel(subjects: 3, offset: 1, pairsOf: { $0 == 0 ? 2 : 3 }), pairing: .sequential,
                                      minimum: .panel(subjects: 2))
        #expect(small.verdict() == .notAssessable([#"subject "P0" has 2 pair(s), 3 needed"#]))
    }

    // MARK: The population, on its bounds

    /// 100 subjects, 300 pairs, sitting exactly on every bound: 30 % of one sex (`females` of
    /// 100), every age 13 (> 12), and of the 300 reference values exactly 15 (5 %) at systolic
    /// 100 and 15 at 160, 45 more at 140 (60 = 20 % at ≥ 140); diastolic 15 at 60, 15 at 100, 45 at 85.
    struct BoundPanel {
        var systolic: [Int]
        var diastolic: [Int]
        var sex: [SubjectRecord.Sex]
        var age: [Double]

        init(females: Int = 30) {
            systolic = Array(repeating: 100, count: 15) + Array(repeating: 160, count: 15) + Array(repeating: 140, count: 45)
                + Array(repeating: 120, count: 225)
            diastolic = Array(repeating: 60, count: 15) + Array(repeating: 100, count: 15) + Array(repeating: 85, count: 45)
                + Array(repeating: 75, count: 225)
            sex = (0..<100).map { $0 < females ? .female : .male }
            age = Array(repeating: 13, count: 100)
        }

        /// Reference value i goes to subject i / 3.
        var pairs: [ValidationPair] {
            (0..<300).map { ValidationStandardTests.pair("S\($0 / 3)", systolic[$0], diastolic[$0], $0 % 3) }
        }

        var subjects: ValidationSubjects {
            var s = ValidationSubjects()
            for i in 0..<100 { s.records["S\(i)"] = SubjectRecord(id: "S\(i)", sex: sex[i], age: age[i], armCircumference: 30, cuff: "M") }
            return s
        }

        var check: PopulationCheck { PopulationCheck(pairs: pairs, subjects: subjects) }
    }

    @Test func aPanelSittingOnEveryBoundIsAnISOPanel() {
        for females in [30, 70] {
            let check = BoundPanel(females: females).check
            #expect(check.iso81060_2, "\(check.unmet)")
            #expect(check.notApplicable.map(\.requirement) == ["armCircumference"])
        }
    }

    /// Each case moves one subject or one reference value across one bound.
    static let moves: [(String, @Sendable (inout BoundPanel) -> Void)] = [
        ("female", { $0.sex[0] = .male }),
        ("age", { $0.age[42] = 12 }),
        ("systolic<=100", { $0.systolic[0] = 101 }),
        ("systolic>=160", { $0.systolic[15] = 159 }),
        ("systolic>=140", { $0.systolic[30] = 139 }),
        ("diastolic<=60", { $0.diastolic[0] = 61 }),
        ("diastolic>=100", { $0.diastolic[15] = 99 }),
        ("diastolic>=85", { $0.diastolic[30] = 84 }),
    ]

    @Test(arguments: 0..<8)
    func movingOneAcrossABoundNamesThatRequirement(move: Int) {
        var panel = BoundPanel()
        let (name, change) = Self.moves[move]
        change(&panel)
        let check = panel.check
        #expect(!check.iso81060_2)
        #expect(check.unmet.map(\.requirement) == [name], "\(check.unmet)")
    }

    @Test func maleShareOnItsBound() {
        var panel = BoundPanel(females: 70)
        panel.sex[99] = .female
        #expect(panel.check.unmet.map(\.requirement) == ["male"])
    }

    @Test func subjectsAndPairsPerSubjectOnTheirBounds() {
        // 85 subjects with 3 pairs each meet both; 84, or one subject with 2, do not.
        func pairs(subjects: Int, last: Int = 3) -> [ValidationPair] {
            (0..<subjects).flatMap { s in (0..<(s == subjects - 1 ? last : 3)).map { Self.pair("S\(s)", 120, 80, $0) } }
        }
        func unmet(_ p: [ValidationPair]) -> [String] {
            PopulationCheck(pairs: p, subjects: ValidationSubjects()).unmet.map(\.requirement).filter { $0 == "subjects" || $0 == "pairsPerSubject" }
        }
        #expect(unmet(pairs(subjects: 85)) == [])
        #expect(unmet(pairs(subjects: 84)) == ["subjects"])
        #expect(unmet(pairs(subjects: 85, last: 2)) == ["pairsPerSubject"])
    }

    @Test func withoutASubjectsFileSexAndAgeAreUnmetAndASmallerPanelIsNotChecked() {
        let p = Self.panel(subjects: 85, offset: 1)
        let s = ValidationSummary(paired: p, pairing: .sequential)
        // Every reference 120/80: sex, age and every pressure bound unmet; arm circumference not applicable.
        #expect(s.population.unmet.map(\.requirement) == ["female", "male", "age", "systolic<=100", "systolic>=160", "systolic>=140",
                                                          "diastolic<=60", "diastolic>=100", "diastolic>=85"])
        #expect(s.population.unmet.first?.found == "no subjects file (--subjects)")
        guard case .notAssessable(let why) = s.verdict() else { Issue.record("assessed"); return }
        #expect(why.count == 9 && why[0].hasPrefix("population female: at least 30 % female subjects"))
        let small = ValidationSummary(paired: p, pairing: .sequential, minimum: .panel(subjects: 84))
        #expect(!small.population.checked && !small.population.iso81060_2)
        #expect(small.summaryJSON()["summary"]?["population"]?.serialized == #"{"iso81060_2":false,"checked":false,"unmet":[],"notApplicable":[]}"#)
    }

    // MARK: The subjects file

    static func read(_ text: String) throws -> ValidationSubjects {
        var s = ValidationSubjects()
        let source = MemoryByteSource(Array(text.utf8))
        try s.read(LineReader(source: source), name: "subjects.csv")
        return s
    }

    @Test func subjectsFileAsCSVOrJSONLinesAndItsBadLinesNamed() throws {
        let csv = try Self.read("Subject ID;Sex;Age;Arm circumference;Cuff\nP01;F;34;28,5;M\nP02;male;;31;L\n")
        #expect(csv.rejected == [])
        #expect(csv.records["P01"] == SubjectRecord(id: "P01", sex: .female, age: 34, armCircumference: 28.5, cuff: "M"))
        #expect(csv.records["P02"] == SubjectRecord(id: "P02", sex: .male, age: nil, armCircumference: 31, cuff: "L"))
        let json = try Self.read(#"{"subject":"P01","sex":"female","age":34}"# + "\n" + #"{"subject":"P02","sex":"x"}"# + "\n"
                                 + #"{"subject":"P01","sex":"m"}"# + "\n" + #"{"subject":"P03","age":340}"# + "\n")
        #expect(json.records.keys.sorted() == ["P01"])
        #expect(json.rejected == [#"subjects.csv:2: sex: "x" is neither female (f) nor male (m)"#,
                                  #"subjects.csv:3: id: subject "P01" listed twice"#,
                                  "subjects.csv:4: age: 340 years outside 0-130"])
        #expect(try Self.read("name,sex\nP01,f\n").rejected == ["subjects.csv:1: header: no id column (expected id,sex,age,armCircumference,cuff)"])
    }

    // MARK: A reading's own quality

    @Test func flaggedPairsAreLeftOutAndCounted() throws {
        func cuff(_ status: String?) -> CuffReading {
            CuffReading(systolic: 120, diastolic: 80, pulse: nil, measuredAt: Self.t0,
                        provenance: status.map { [ProvenanceField(name: "status", rawJSON: $0)] } ?? [])
        }
        #expect(try ReadingQuality(cuff(nil)) == .unknown)
        #expect(try ReadingQuality(cuff(MeasurementStatus(raw: 0).json)) == .clean)
        #expect(try ReadingQuality(cuff(MeasurementStatus(raw: 0x0001 | 0x0010).json)) == .flagged(["bodyMovement", "pulseRateRange"]))
        #expect(throws: ReadingLineError.invalidField("status", "bodyMovement: not true or false")) {
            try ReadingQuality(cuff(#"{"bodyMovement":"yes"}"#))
        }
        var p = Self.panel(subjects: 2, offset: 1)
        p.pairs[0].device.quality = .flagged(["bodyMovement"])
        p.pairs[4].references[1].quality = .flagged(["cuffTooLoose"])
        let s = ValidationSummary(paired: p, pairing: .sequential, minimum: .panel(subjects: 2))
        #expect(s.excluded.flaggedPairs == 2 && s.pairCount == 4)
        #expect(s.summaryJSON()["summary"]?["excluded"]?.serialized == #"{"implausible":0,"flaggedPairs":2}"#)
    }
}
