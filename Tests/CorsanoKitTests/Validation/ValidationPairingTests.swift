@testable import CorsanoKit
import Testing

/// Pairing device values with reference readings: ISO 81060-2 same-arm sequential and
/// nearest-in-time, and the summary's verdict and JSON.
@Suite struct ValidationPairingTests {
    static let t0 = RFC3339.parseInstant("2026-12-01T09:00:00Z")!

    static func reading(_ subject: String?, _ sys: Int, _ dia: Int, minute: Int, origin: String = "x") -> ValidationReading {
        ValidationReading(subject: subject, systolic: sys, diastolic: dia, measuredAt: t0.adding(interval: Double(minute * 60)), origin: origin)
    }

    @Test func sequentialComparesEachDeviceValueWithTheMeanOfItsTwoNeighbours() {
        // R1 120/80 (0) T1 125/82 (2) R2 124/78 (4) T2 121/80 (6) R3 118/76 (8): R2 serves both pairs.
        let ref = [Self.reading("S1", 120, 80, minute: 0), Self.reading("S1", 124, 78, minute: 4), Self.reading("S1", 118, 76, minute: 8)]
        let dev = [Self.reading("S1", 125, 82, minute: 2), Self.reading("S1", 121, 80, minute: 6)]
        let p = ValidationPairs(reference: ref, device: dev, rule: .sequential)
        #expect(p.problems.isEmpty)
        #expect(p.pairs.count == 2)
        // By hand: T1 − (120+124)/2 = 125 − 122 = 3; 82 − 79 = 3. T2 − (124+118)/2 = 121 − 121 = 0; 80 − 77 = 3.
        #expect(p.pairs.map(\.systolicDifference) == [3, 0])
        #expect(p.pairs.map(\.diastolicDifference) == [3, 3])
        #expect(p.unpairedReference == 0 && p.unpairedDevice == 0)
    }

    @Test func sequentialNamesADeviceValueWithoutANeighbour() {
        // T R T: the first device value has nothing before it, the last nothing after.
        let ref = [Self.reading("S1", 120, 80, minute: 2, origin: "ref:1")]
        let dev = [Self.reading("S1", 125, 82, minute: 0, origin: "dev:1"), Self.reading("S1", 125, 82, minute: 4, origin: "dev:2")]
        let p = ValidationPairs(reference: ref, device: dev, rule: .sequential)
        #expect(p.pairs.isEmpty)
        #expect(p.problems.map(\.description) == [
            #"dev:1: device value of subject "S1" has no reference reading before it"#,
            #"dev:2: device value of subject "S1" has no reference reading after it"#,
            #"subject "S1" has no pair"#,
        ])
        #expect(p.unpairedReference == 1)
    }

    @Test func sequentialTwoDeviceValuesInARowLackANeighbour() {
        let ref = [Self.reading("S1", 120, 80, minute: 0), Self.reading("S1", 120, 80, minute: 6)]
        let dev = [Self.reading("S1", 125, 82, minute: 2, origin: "dev:1"), Self.reading("S1", 125, 82, minute: 4, origin: "dev:2")]
        let p = ValidationPairs(reference: ref, device: dev, rule: .sequential)
        #expect(p.problems.count == 3)
        #expect(p.pairs.isEmpty)
    }

    @Test func subjectsAreKeptApartAndReadingsWithoutOneFormSubjectDash() {
        let ref = [Self.reading("A", 120, 80, minute: 0), Self.reading(nil, 130, 85, minute: 1),
                   Self.reading("A", 122, 80, minute: 4), Self.reading(nil, 132, 85, minute: 5)]
        let dev = [Self.reading("A", 121, 81, minute: 2), Self.reading(nil, 131, 86, minute: 3)]
        let p = ValidationPairs(reference: ref, device: dev, rule: .sequential)
        #expect(p.subjects == ["A", "-"])
        #expect(p.pairs.map(\.subject) == ["A", "-"])
        #expect(p.withoutSubject == 3)
        #expect(p.problems.isEmpty)
    }

    @Test func subjectOnlyInOneInputHasNoPair() {
        let ref = [Self.reading("A", 120, 80, minute: 0), Self.reading("A", 120, 80, minute: 4), Self.reading("B", 120, 80, minute: 0)]
        let dev = [Self.reading("A", 121, 81, minute: 2)]
        let p = ValidationPairs(reference: ref, device: dev, rule: .sequential)
        #expect(p.problems == [.subjectWithoutPair("B")])
        #expect(p.unpairedReference == 1)
    }

    @Test func nearestTakesTheClosestDeviceValueWithinTheWindowOncePerReference() {
        // Reference at 0 and 10 min; device every 3 min (0..12) and one at 30 min, window 2 min.
        let ref = [Self.reading("A", 120, 80, minute: 0), Self.reading("A", 130, 84, minute: 10)]
        let dev = [0, 3, 6, 9, 12, 30].map { Self.reading("A", 100 + $0, 70, minute: $0) }
        let p = ValidationPairs(reference: ref, device: dev, rule: .nearest(window: 120))
        #expect(p.pairs.map(\.device.systolic) == [100, 109])  // 0 min (gap 0), 9 min (gap 1 min)
        #expect(p.pairs.map(\.systolicDifference) == [-20, -21])
        #expect(p.unpairedDevice == 4 && p.unpairedReference == 0)
        // A window shorter than every gap pairs only the exact match; the other subject's reference is unpaired.
        let narrow = ValidationPairs(reference: ref, device: dev, rule: .nearest(window: 30))
        #expect(narrow.pairs.count == 1 && narrow.unpairedReference == 1)
    }

    @Test func nearestDoesNotUseOneDeviceValueTwice() {
        let ref = [Self.reading("A", 120, 80, minute: 0), Self.reading("A", 120, 80, minute: 2)]
        let dev = [Self.reading("A", 121, 80, minute: 1)]
        let p = ValidationPairs(reference: ref, device: dev, rule: .nearest(window: 300))
        #expect(p.pairs.count == 1 && p.unpairedReference == 1)
    }

    /// Every candidate within the window, closest gaps first (ties to the lower reference, then
    /// device index), each reading used once: the rule as stated, by brute force, O(n²).
    static func everyCandidate(ref: [Instant], dev: [Instant], window: Double) -> [(Int, Int)] {
        var candidates: [(gap: Double, r: Int, d: Int)] = []
        for (i, r) in ref.enumerated() {
            for (j, d) in dev.enumerated() {
                let gap = abs(d.seconds(since: r))
                if gap <= window { candidates.append((gap, i, j)) }
            }
        }
        candidates.sort { ($0.gap, $0.r, $0.d) < ($1.gap, $1.r, $1.d) }
        var refUsed = Set<Int>(), devUsed = Set<Int>(), chosen: [(Int, Int)] = []
        for c in candidates where !refUsed.contains(c.r) && !devUsed.contains(c.d) {
            refUsed.insert(c.r)
            devUsed.insert(c.d)
            chosen.append((c.r, c.d))
        }
        return chosen
    }

    /// The heap over neighbouring instants chooses exactly what the brute force chooses, in the
    /// same order, on inputs full of ties (shared instants, equal gaps both ways) and windows
    /// that cut some gaps.
    @Test(arguments: 0..<300)
    func nearestMatchesTheBruteForceOnRandomInputs(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed))
        let spread = [3, 10, 100][seed % 3]
        func instants(_ n: Int) -> [Instant] {
            (0..<n).map { _ in Self.t0.adding(interval: Double(Int.random(in: 0...spread, using: &rng)) * [1, 30, 0.5][seed % 3]) }
        }
        let ref = instants(Int.random(in: 0...25, using: &rng)), dev = instants(Int.random(in: 0...25, using: &rng))
        let window = [0, 30, 60, 1e9][seed % 4]
        var matcher = NearestMatcher(ref: ref, dev: dev, window: window)
        let fast = matcher.pairs()
        let slow = Self.everyCandidate(ref: ref, dev: dev, window: window)
        #expect(fast.map { [$0.0, $0.1] } == slow.map { [$0.0, $0.1] }, "seed \(seed): \(ref.count) references, \(dev.count) device values")
    }

    @Test func readingLineSubjectMustBeAString() throws {
        let line = try ReadingLineParser.parse(#"{"systolic":120,"diastolic":80,"measuredAt":"2026-12-01T09:00:00Z","subject":"P01"}"#).get()
        guard case .reading(let r) = line else { Issue.record("not a reading"); return }
        #expect(try ValidationReading(r, origin: "f:1").subject == "P01")
        let bad = try ReadingLineParser.parse(#"{"systolic":120,"diastolic":80,"measuredAt":"2026-12-01T09:00:00Z","subject":7}"#).get()
        guard case .reading(let b) = bad else { Issue.record("not a reading"); return }
        #expect(throws: ReadingLineError.invalidField("subject", "not a string")) { try ValidationReading(b, origin: "f:1") }
        let untimed = CuffReading(systolic: 120, diastolic: 80, pulse: nil)
        #expect(throws: ReadingLineError.missingField("measuredAt")) { try ValidationReading(untimed, origin: "f:1") }
    }

    // MARK: Summary

    /// `subjects` subjects, each R T R T R T R with device = reference mean + offset (+ per-subject skew).
    static func panel(subjects: Int, offset: Int, skew: (Int) -> Int = { _ in 0 }) -> ValidationPairs {
        var ref: [ValidationReading] = [], dev: [ValidationReading] = []
        for s in 0..<subjects {
            let name = "P\(s)"
            for k in 0..<4 { ref.append(reading(name, 120 + k, 80, minute: 2 * k)) }
            for k in 0..<3 {
                dev.append(reading(name, 120 + k + offset + skew(s), 80 + offset + skew(s), minute: 2 * k + 1))
            }
        }
        return ValidationPairs(reference: ref, device: dev, rule: .sequential)
    }

    @Test func verdictNeedsTheMinimumThenTheCriteria() {
        // Device = R mean + 0.5 + (−3 or +3 by subject): mean 0.5, SD of subject means 3.04 < 6.93.
        let good = ValidationSummary(paired: Self.panel(subjects: 6, offset: 0, skew: { $0 % 2 == 0 ? -3 : 3 }),
                                     pairing: .sequential, minimum: .panel(subjects: 6))
        #expect(good.pairCount == 18 && good.pairedSubjectCount == 6)
        #expect(good.verdict() == .pass)
        guard case .notAssessable(let standard) = ValidationSummary(paired: good.paired, pairing: .sequential).verdict() else {
            Issue.record("six subjects assessed against the standard's 85"); return
        }
        #expect(standard.prefix(2) == ["6 subjects, at least 85 needed", "18 pairs, at least 255 needed"])
        #expect(ValidationSummary(paired: good.paired, pairing: .sequential, minimum: .panel(subjects: 7)).verdict()
                == .notAssessable(["6 subjects, at least 7 needed", "18 pairs, at least 21 needed"]))
        // Offset 12: mean differences 12.5/12 fail criterion 1, and criterion 2 lies outside its table.
        let bad = ValidationSummary(paired: Self.panel(subjects: 6, offset: 12), pairing: .sequential, minimum: .panel(subjects: 6))
        #expect(bad.verdict() == .fail(["systolic criterion 1", "systolic criterion 2 (outside the criterion-2 table)",
                                        "diastolic criterion 1", "diastolic criterion 2 (outside the criterion-2 table)"]))
        #expect(bad.verdict(criteria: [.ieee1708], maxGrade: .c) == .fail(["systolic IEEE 1708 grade D", "diastolic IEEE 1708 grade D"]))
    }

    @Test func summaryJSONHasTheIssuesShape() throws {
        let s = ValidationSummary(paired: Self.panel(subjects: 2, offset: 1), pairing: .sequential, minimum: .panel(subjects: 2))
        let json = s.summaryJSON()
        let sys = try #require(json["summary"]?["systolic"])
        // By hand: systolic device 120 + k + 1 against (120+k + 121+k)/2 = 120.5 + k → +0.5 every pair;
        // diastolic 81 against 80 → +1.
        #expect(sys["pairs"] == 6 && sys["subjects"] == 2)
        #expect(sys["meanDifference"] == .double(0.5))
        #expect(sys["sdDifference"] == .double(0))
        #expect(sys["criterion1"]?["pass"] == true)
        #expect(sys["criterion2"]?["limit"] == .double(6.929))
        #expect(sys["blandAltman"]?["bias"] == .double(0.5))
        #expect(sys["ieee1708Grade"] == "A")
        #expect(json["summary"]?["diastolic"]?["meanDifference"] == .double(1))
        #expect(json["summary"]?["verdict"]?["pass"] == true)
        #expect(json["summary"]?["minimum"]?.serialized == #"{"subjects":2,"pairs":6,"standard":false}"#)
        #expect(s.subjectLines.first?.serialized == #"{"subject":"P0","systolic":{"pairs":3,"meanDifference":0.5},"diastolic":{"pairs":3,"meanDifference":1}}"#)
        #expect(s.pairLines.first?["pair"]?["difference"]?.serialized == #"{"systolic":0.5,"diastolic":1}"#)
    }
}

