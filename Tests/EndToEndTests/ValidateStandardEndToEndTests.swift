import CorsanoKit
import Foundation
import Testing

/// `corsano validate` deciding only what ISO 81060-2 defines, run as the built binary: the
/// population (`--subjects`), criterion 2's table, three pairs per subject, implausible values
/// and flagged readings left out and counted.
@Suite struct ValidateStandardEndToEndTests {
    static let t0 = RFC3339.parseInstant("2026-12-01T08:00:00Z")!

    /// Subjects at reference levels (`count` subjects at `sys/dia`), each R T R T R T R (or R T R
    /// for `onePair`), the device 1 mmHg above or below the cuff by subject plus `offset`;
    /// `females` of them female, every age 40. Returns the reference, device and subjects files.
    static func panel(_ levels: [(count: Int, sys: Int, dia: Int)], females: Int, offset: Int = 0,
                      onePair: (sys: Int, dia: Int, sex: String)? = nil) throws -> (ref: String, dev: String, subjects: String) {
        var ref = "", dev = "", subjects = "id,sex,age,armCircumference,cuff\n"
        var index = 0
        func subject(_ name: String, _ sys: Int, _ dia: Int, pairs: Int, sex: String) {
            let start = t0.adding(interval: Double(index) * 3600)
            for k in 0...pairs {
                let at = RFC3339.format(start.adding(interval: Double(k * 120)))
                ref += #"{"systolic":\#(sys),"diastolic":\#(dia),"measuredAt":"\#(at)","subject":"\#(name)"}"# + "\n"
            }
            let skew = index % 2 == 0 ? 1 : -1
            for k in 0..<pairs {
                let at = RFC3339.format(start.adding(interval: Double(k * 120 + 60)))
                dev += #"{"systolic":\#(sys + skew + offset),"diastolic":\#(dia + skew + offset),"measuredAt":"\#(at)","subject":"\#(name)"}"# + "\n"
            }
            subjects += "\(name),\(sex),40,30,M\n"
            index += 1
        }
        for level in levels {
            for _ in 0..<level.count { subject(String(format: "S%03d", index), level.sys, level.dia, pairs: 3, sex: index < females ? "f" : "m") }
        }
        if let one = onePair { subject("X1", one.sys, one.dia, pairs: 1, sex: one.sex) }
        return (try ValidateEndToEndTests.temporary("ref.jsonl", ref), try ValidateEndToEndTests.temporary("dev.jsonl", dev),
                try ValidateEndToEndTests.temporary("subjects.csv", subjects))
    }

    static func summary(_ r: Corsano.Outcome) throws -> JSONValue {
        try #require(try ValidateEndToEndTests.summary(r)["summary"])
    }

    /// 100 subjects on every bound: 5 % of pairs at systolic 100 and at 160, 20 % at ≥ 140;
    /// diastolic 5 % at 60 and at 100, 20 % at ≥ 85; 30 % female.
    static let onTheBounds: [(count: Int, sys: Int, dia: Int)] = [(5, 100, 60), (5, 160, 100), (15, 140, 85), (75, 120, 75)]

    @Test func aPanelOnEveryBoundIsAnISOPanelAndPasses() throws {
        let p = try Self.panel(Self.onTheBounds, females: 30)
        let r = try Corsano.run(["validate", "--subjects", p.subjects, p.ref, p.dev])
        #expect(r.status == 0, "\(r.stderr)")
        let s = try Self.summary(r)
        #expect(s["population"]?["iso81060_2"] == true)
        #expect(s["population"]?["notApplicable"]?.arrayValue?.first?["requirement"] == "armCircumference")
        #expect(s["minimum"]?["standard"] == true)
    }

    @Test func aMissingSubjectsFileIs66AndABadLineIs65Named() throws {
        let p = try Self.panel(Self.onTheBounds, females: 30)
        let missing = try Corsano.run(["validate", "--subjects", "/nonexistent/subjects.csv", p.ref, p.dev])
        #expect(missing.status == 66 && missing.stderr.contains("/nonexistent/subjects.csv"), "\(missing.stderr)")
        let bad = try ValidateEndToEndTests.temporary("subjects.csv", try String(contentsOfFile: p.subjects, encoding: .utf8) + "S100,x,40,30,M\n")
        let r = try Corsano.run(["validate", "--subjects", bad, p.ref, p.dev])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains(#"subjects.csv:102: sex: "x" is neither female (f) nor male (m)"#), "\(r.stderr)")
        // The summary is still written, the population judged on the good lines.
        #expect(try Self.summary(r)["population"]?["iso81060_2"] == true)
        #expect(try Corsano.run(["validate", "--subjects", "-", "-", p.dev]).status == 64)
    }

    @Test func theSameReadingsWithoutASubjectsFileAreNotAnISOPanel() throws {
        let p = try Self.panel(Self.onTheBounds, females: 30)
        let r = try Corsano.run(["validate", p.ref, p.dev])
        #expect(r.status == 2, "\(r.stderr)")
        let unmet = try Self.summary(r)["population"]?["unmet"]?.arrayValue?.compactMap { $0["requirement"]?.stringValue }
        #expect(unmet == ["female", "male", "age"])
    }

    /// 85 subjects at 130/80, no sex recorded: every requirement the readings cannot meet, named.
    @Test func the130Over80PanelNamesEachUnmetRequirement() throws {
        let p = try Self.panel([(85, 130, 80)], females: 0)
        let r = try Corsano.run(["validate", p.ref, p.dev])
        #expect(r.status == 2, "\(r.stderr)")
        let s = try Self.summary(r)
        #expect(s["assessable"] == false && s["population"]?["iso81060_2"] == false)
        #expect(s["minimum"]?["standard"] == true)
        let names = ["female", "male", "age", "systolic<=100", "systolic>=160", "systolic>=140", "diastolic<=60", "diastolic>=100", "diastolic>=85"]
        #expect(s["population"]?["unmet"]?.arrayValue?.compactMap { $0["requirement"]?.stringValue } == names)
        for name in names { #expect(r.stderr.contains("population \(name): "), "\(name): \(r.stderr)") }
        #expect(r.stderr.contains("population systolic<=100: at least 5 % of reference determinations with systolic ≤ 100 mmHg "
                                  + "(ISO 81060-2:2018, 5.1): found 0 of 255 (0.0 %)"))
    }

    @Test func movingOneSubjectAcrossTheSystolicBoundNamesIt() throws {
        // One subject (3 of 300 pairs) from 100 to 101: 12 of 300 at ≤ 100, under 5 %.
        let p = try Self.panel([(4, 100, 60), (1, 101, 60), (5, 160, 100), (15, 140, 85), (75, 120, 75)], females: 30)
        let r = try Corsano.run(["validate", "--subjects", p.subjects, p.ref, p.dev])
        #expect(r.status == 2)
        #expect(try Self.summary(r)["population"]?["unmet"]?.arrayValue?.compactMap { $0["requirement"]?.stringValue } == ["systolic<=100"])
    }

    @Test func an86SubjectPanelWithAOnePairSubjectCannotBeAssessedNamingIt() throws {
        let p = try Self.panel([(5, 100, 60), (5, 160, 100), (14, 140, 85), (61, 120, 75)], females: 26, onePair: (120, 75, "f"))
        let r = try Corsano.run(["validate", "--subjects", p.subjects, p.ref, p.dev])
        #expect(r.status == 2, "\(r.stderr)")
        let s = try Self.summary(r)
        #expect(s["subjects"] == 86 && s["pairs"] == 256)
        #expect(r.stderr.contains(#"subject "X1" has 1 pair(s), 3 needed"#))
        #expect(s["problems"]?.arrayValue?.contains(.string(#"subject "X1" has 1 pair(s), 3 needed"#)) == true)
        #expect(s["population"]?["unmet"]?.arrayValue?.compactMap { $0["requirement"]?.stringValue } == ["pairsPerSubject"])
    }

    @Test func criterion2AtSevenMmHgFailsAndWithOneSubjectCannotBeAssessed() throws {
        let p = try Self.panel([(6, 130, 80)], females: 3, offset: 7)
        let seven = try Corsano.run(["validate", "--criteria", "2", "--min-subjects", "6", p.ref, p.dev])
        #expect(seven.status == 1, "\(seven.stderr)")
        #expect(seven.stderr.contains("fails systolic criterion 2 (outside the criterion-2 table)"))
        #expect(try Self.summary(seven)["systolic"]?["criterion2"]?["inTable"] == false)
        let one = try Self.panel([(1, 130, 80)], females: 1)
        for criteria in ["1,2", "2"] {
            let r = try Corsano.run(["validate", "--criteria", criteria, "--min-subjects", "1", one.ref, one.dev])
            #expect(r.status == 2, "\(criteria): \(r.stderr)")
            #expect(r.stderr.contains("cannot be assessed: criterion 2 needs at least 2 subjects"))
        }
        #expect(try Corsano.run(["validate", "--criteria", "1", "--min-subjects", "1", one.ref, one.dev]).status == 0)
    }

    @Test func implausibleValuesAreRefusedNamedCountedAndTheSummaryStillWritten() throws {
        let lines = [#"{"systolic":-134,"diastolic":80,"measuredAt":"2026-11-07T09:00:00Z","subject":"P01"}"#,
                     #"{"systolic":0,"diastolic":80,"measuredAt":"2026-11-07T09:02:00Z","subject":"P01"}"#,
                     #"{"systolic":2000000000,"diastolic":80,"measuredAt":"2026-11-07T09:04:00Z","subject":"P01"}"#,
                     #"{"systolic":120,"diastolic":130,"measuredAt":"2026-11-07T09:06:00Z","subject":"P01"}"#]
        let reference = try ValidateEndToEndTests.temporary("ref.jsonl", try String(contentsOfFile: ValidateEndToEndTests.reference, encoding: .utf8)
            + lines.joined(separator: "\n") + "\n")
        let r = try Corsano.run(["validate", "--min-subjects", "6", reference, ValidateEndToEndTests.good])
        #expect(r.status == 65, "\(r.stderr)")
        for (line, reason) in [(25, "systolic: -134 mmHg outside 50-300"), (26, "systolic: 0 mmHg outside 50-300"),
                               (27, "systolic: 2000000000 mmHg outside 50-300"), (28, "systolic: 120 mmHg not above diastolic 130 mmHg")] {
            #expect(r.stderr.contains("ref.jsonl:\(line): \(reason)"), "\(line): \(r.stderr)")
        }
        let s = try Self.summary(r)
        #expect(s["excluded"]?["implausible"] == 4)
        // The statistics are those of the good panel alone.
        #expect(s["systolic"]?["pairs"] == 18 && s["verdict"]?["pass"] == true)
    }

    @Test func aFlaggedReadingsPairIsLeftOutAndCounted() throws {
        // P01's first device value taken while moving (0x2A35 bit 0, as cuff ingest --from ble writes it).
        var device = try String(contentsOfFile: ValidateEndToEndTests.good, encoding: .utf8).split(separator: "\n").map(String.init)
        device[0] = String(device[0].dropLast()) + #","status":{"bodyMovement":true,"cuffTooLoose":false,"irregularPulse":false,"#
            + #""pulseRateRange":"withinRange","improperPosition":false}}"#
        let path = try ValidateEndToEndTests.temporary("dev.jsonl", device.joined(separator: "\n") + "\n")
        let r = try Corsano.run(["validate", "--min-subjects", "6", ValidateEndToEndTests.reference, path])
        let s = try Self.summary(r)
        #expect(s["excluded"]?["flaggedPairs"] == 1 && s["pairs"] == 17)
        #expect(r.stderr.contains("excluded: 0 implausible reading(s), 1 pair(s) with a flagged reading (status)"))
        // P01 is left with 2 pairs: the measurement must be repeated before the panel can be assessed.
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains(#"subject "P01" has 2 pair(s), 3 needed"#))
    }
}
