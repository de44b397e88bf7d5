import CorsanoKit
import Foundation
import Testing

/// `corsano validate` run as the built binary over reading-line files. The panel is
/// examples/validation: six subjects, each R T R T R T R, the device values within a few mmHg of
/// the cuff (device-good) or the same plus 12 mmHg (device-high, a badly calibrated bracelet).
@Suite struct ValidateEndToEndTests {
    static let dir = Corsano.packageRoot.appendingPathComponent("examples/validation").path
    static let reference = dir + "/reference.jsonl"
    static let good = dir + "/device-good.jsonl"
    static let high = dir + "/device-high.jsonl"

    static func summary(_ outcome: Corsano.Outcome) throws -> JSONValue {
        try JSONValue.parse(Array(try #require(outcome.lines.first).utf8))
    }

    static func temporary(_ name: String, _ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("validate-\(UUID().uuidString)-\(name)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aWellCalibratedDevicePassesCriteria1And2() throws {
        let r = try Corsano.run(["validate", "--min-subjects", "6", Self.reference, Self.good])
        #expect(r.status == 0, "\(r.stderr)")
        let s = try #require(try Self.summary(r)["summary"])
        for variable in ["systolic", "diastolic"] {
            #expect(s[variable]?["pairs"] == 18 && s[variable]?["subjects"] == 6)
            #expect(s[variable]?["criterion1"]?["pass"] == true)
            #expect(s[variable]?["criterion2"]?["pass"] == true)
        }
        #expect(s["verdict"]?["pass"] == true)
        #expect(r.lines[0].contains(#""minimum":{"subjects":6,"pairs":18,"standard":false}"#))
        // One line per subject after the summary.
        #expect(r.lines.count == 7)
        #expect(r.lines[1].hasPrefix(#"{"subject":"P01","systolic":{"pairs":3,"#))
        #expect(r.stderr.contains("not ISO 81060-2's 85 and 255"))
    }

    @Test func aBadlyCalibratedDeviceFailsWithStatus1() throws {
        let r = try Corsano.run(["validate", "--min-subjects", "6", Self.reference, Self.high])
        #expect(r.status == 1, "\(r.stderr)")
        let s = try #require(try Self.summary(r)["summary"])
        #expect(s["systolic"]?["criterion1"]?["pass"] == false)
        #expect(s["diastolic"]?["criterion1"]?["pass"] == false)
        #expect(s["verdict"]?["pass"] == false)
        #expect(r.stderr.contains("fails systolic criterion 1"))
    }

    @Test func theStandardsMinimumCannotBeAssessedWithSixSubjects() throws {
        let r = try Corsano.run(["validate", Self.reference, Self.good])
        #expect(r.status == 2)
        #expect(try Self.summary(r)["summary"]?["assessable"] == false)
        #expect(r.stderr.contains("cannot be assessed: 6 subjects, at least 85 needed; 18 pairs, at least 255 needed"))
        // Too few subjects outranks a failing criterion.
        #expect(try Corsano.run(["validate", Self.reference, Self.high]).status == 2)
    }

    @Test func theDeviceFromStandardInputWithPairLines() throws {
        let device = try String(contentsOfFile: Self.good, encoding: .utf8)
        let r = try Corsano.run(["validate", "--pairs", "--min-subjects", "6", Self.reference, "-"], stdin: device)
        #expect(r.status == 0)
        let pairs = r.lines.filter { $0.hasPrefix(#"{"pair":"#) }
        #expect(pairs.count == 18)
        // examples/validation/*.jsonl line 1-2 of P01: reference 132/81 and 127/79 around device 134/83:
        // 134 − 129.5 = 4.5, 83 − 80 = 3 (by hand).
        #expect(pairs[0].contains(#""difference":{"systolic":4.5,"diastolic":3}"#))
    }

    @Test func ieee1708DecidesWhenAskedAndItsGradeCanBeRelaxed() throws {
        let high = try Corsano.run(["validate", "--min-subjects", "6", "--criteria", "ieee1708", "--ieee1708-grade", "C",
                                    Self.reference, Self.high])
        #expect(high.status == 1)
        #expect(try Self.summary(high)["summary"]?["systolic"]?["ieee1708Grade"] == "D")
        let good = try Corsano.run(["validate", "--min-subjects", "6", "--criteria", "1,2,ieee1708", Self.reference, Self.good])
        #expect(good.status == 0, "\(good.stdout)")
    }

    @Test func aDeviceValueWithoutANeighbourIsBadDataAndTheSummaryIsStillWritten() throws {
        // The good panel plus a device value after P06's last reference reading.
        let extra = #"{"systolic":130,"diastolic":80,"measuredAt":"2026-11-06T10:00:00Z","subject":"P06"}"#
        let device = try Self.temporary("device.jsonl", try String(contentsOfFile: Self.good, encoding: .utf8) + extra + "\n")
        let r = try Corsano.run(["validate", "--min-subjects", "6", Self.reference, device])
        #expect(r.status == 65)
        #expect(r.stderr.contains(#"device.jsonl:19: device value of subject "P06" has no reference reading after it"#))
        #expect(try Self.summary(r)["summary"]?["systolic"]?["pairs"] == 18)
    }

    @Test func aMalformedLineAndASubjectWithoutPairsAreNamed() throws {
        let reference = try Self.temporary("ref.jsonl", try String(contentsOfFile: Self.reference, encoding: .utf8)
            + #"{"systolic":"high","diastolic":80,"measuredAt":"2026-11-07T09:00:00Z"}"# + "\n"
            + #"{"systolic":120,"diastolic":80,"measuredAt":"2026-11-07T09:00:00Z","subject":"P07"}"# + "\n")
        let r = try Corsano.run(["validate", "--min-subjects", "6", reference, Self.good])
        #expect(r.status == 65)
        #expect(r.stderr.contains(#"ref.jsonl:25: field "systolic": not an integer"#))
        #expect(r.stderr.contains(#"subject "P07" has no pair"#))
    }

    @Test func statusOrderUsageThenMissingInputThenBadData() throws {
        let missing = "/nonexistent/device.jsonl"
        let malformed = try Self.temporary("bad.jsonl", "not json\n")
        // 64 before 66: a rule between options is checked before any file is opened.
        #expect(try Corsano.run(["validate", "--window", "60", malformed, missing]).status == 64)
        #expect(try Corsano.run(["validate", "--criteria", "1,3", malformed, missing]).status == 64)
        #expect(try Corsano.run(["validate", "--ieee1708-grade", "B", Self.reference, Self.good]).status == 64)
        // --paper shapes the report only; --lang also speaks the live run's prompts.
        let paper = try Corsano.run(["validate", "--paper", "letter", Self.reference, Self.good])
        #expect(paper.status == 64 && paper.stderr.contains("--paper needs --report"), "\(paper.stderr)")
        #expect(try Corsano.run(["validate", "-", "-"]).status == 64)
        #expect(try Corsano.run(["validate", Self.reference]).status == 64)
        // 66 before 65.
        let r = try Corsano.run(["validate", malformed, missing])
        #expect(r.status == 66)
        #expect(r.stderr.contains(missing))
        #expect(try Corsano.run(["validate", malformed, Self.good]).status == 65)
    }

    @Test func nearestPairingWithAWindow() throws {
        // Each reference reading's nearest device value is 2 min away: a 1-minute window pairs none (65: no subject has a pair).
        let narrow = try Corsano.run(["validate", "--pairing", "nearest", "--window", "60", "--min-subjects", "6", Self.reference, Self.good])
        #expect(narrow.status == 65)
        let wide = try Corsano.run(["validate", "--pairing", "nearest", "--min-subjects", "6", Self.reference, Self.good])
        #expect(wide.status == 0, "\(wide.stderr)")
        #expect(try Self.summary(wide)["summary"]?["pairing"] == "nearest")
        #expect(wide.lines[0].contains(#""pairing":"nearest","window":300,"#))
        // 24 reference readings, 18 device values: 18 pairs, 6 reference readings unpaired.
        #expect(wide.stderr.contains("unpaired: 6 reference, 0 device reading(s)"))
    }

    @Test func aTableOnRequest() throws {
        let r = try Corsano.run(["validate", "--text", "--min-subjects", "6", Self.reference, Self.high])
        #expect(r.status == 1)
        #expect(r.stdout.contains("criterion 1 (|mean| <= 5, SD <= 8)"))
        #expect(r.stdout.contains("result: FAIL: systolic criterion 1"))
        #expect(r.stdout.contains("6 subjects, 18 pairs (sequential pairing); minimum 6 subjects, 18 pairs"))
    }

    /// `--state`: a calibration recorded by a real bp-init run on the simulator, then device values
    /// 0.5, 3 and 20 days after it that drift from +1/+3 to +10/+12 mmHg.
    @Test func driftBySinceTheLastCalibrationFromTheAuditLog() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("validate-drift-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let store = dir + "/state.sqlite3"
        let cuff = Corsano.packageRoot.appendingPathComponent("examples/lab/cuff-01.jsonl").path
        #expect(try Corsano.run(["bp-init", "--state", store, "--no-preparation", "--cuff", cuff]).status == 0)
        let history = try Corsano.run(["history", "--state", store, "--json"])
        let run = try JSONValue.parse(Array(try #require(history.lines.first).utf8))
        let serial = try #require(run["bracelet"]?["serial"]?.stringValue)
        let ended = try #require(run["endedAt"]?.stringValue.flatMap(RFC3339.parseInstant))
        var reference = "", device = ""
        for (subject, offset) in [("A", 0), ("B", 2)] {
            for (days, drift) in [(0.5, 1), (3.0, 1), (20.0, 10)] {
                let at = ended.adding(interval: days * 86_400)
                reference += #"{"systolic":120,"diastolic":80,"measuredAt":"\#(RFC3339.format(at))","subject":"\#(subject)"}"# + "\n"
                device += #"{"systolic":\#(120 + drift + offset),"diastolic":\#(80 + drift),"measuredAt":"\#(RFC3339.format(at.adding(interval: 60)))","#
                    + #""subject":"\#(subject)","source":"bracelet","bracelet":"\#(serial)"}"# + "\n"
            }
        }
        let r = try Corsano.run(["validate", "--pairing", "nearest", "--min-subjects", "2", "--state", store,
                                 try Self.temporary("ref.jsonl", reference), try Self.temporary("dev.jsonl", device)])
        let line = try #require(r.lines.first { $0.hasPrefix(#"{"drift":"#) })
        let drift = try #require(try JSONValue.parse(Array(line.utf8))["drift"])
        // Spans 0-1 d (+1/+3: mean 2), 1-7 d (same), 14-28 d (+10/+12: mean 11, criterion 1 fails): 7 days supported.
        guard case .array(let spans)? = drift["spans"] else { Issue.record("no spans: \(line)"); return }
        #expect(spans.count == 3)
        #expect(spans.first?["systolic"]?["meanDifference"] == 2)
        #expect(spans.last?["criterion1"]?["pass"] == false)
        #expect(drift["supportedIntervalDays"] == 7)
        #expect(drift["unmatched"] == 0)
        // Without a store at that path: 66, naming it.
        let missing = try Corsano.run(["validate", "--state", dir + "/none.sqlite3", Self.reference, Self.good])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("none.sqlite3"))
    }
}
