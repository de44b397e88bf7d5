import CorsanoKit
import Foundation
import Testing

/// The simulator's subject model, NIBP estimate and cuff (docs/scenario.md "subjects",
/// "The bracelet's NIBP estimate", "The simulated cuff").
@Suite struct SimulatedNIBPTests {
    static func at(_ text: String) throws -> Instant { try #require(RFC3339.parseInstant(text)) }

    @Test func theTruthIsBaselinePlusRhythmPlusTheChangesInForce() throws {
        let s = ScenarioSubject(id: "P", baseline: SubjectLevel(systolic: 120, diastolic: 80, pulse: 70),
                                rhythm: SubjectRhythm(systolic: 10, diastolic: 6, pulse: 5, peakHour: 14),
                                changes: [SubjectChange(label: "treatment", from: "2026-11-30T00:00:00Z", systolic: -12, diastolic: -7),
                                          SubjectChange(label: "exercise", from: "2026-11-29T17:00:00Z", until: "2026-11-29T17:30:00Z",
                                                        systolic: 30, diastolic: 10, pulse: 50)])
        #expect(s.truth(at: try Self.at("2026-11-29T14:00:00Z")) == SubjectTruth(systolic: 130, diastolic: 86, pulse: 75))
        let trough = s.truth(at: try Self.at("2026-11-29T02:00:00Z"))
        #expect(abs(trough.systolic - 110) < 1e-9 && abs(trough.diastolic - 74) < 1e-9)
        let exercising = s.truth(at: try Self.at("2026-11-29T17:10:00Z")), after = s.truth(at: try Self.at("2026-11-29T17:30:00Z"))
        #expect(exercising.systolic - after.systolic > 29)
        #expect(s.truth(at: try Self.at("2026-11-30T14:00:00Z")) == SubjectTruth(systolic: 118, diastolic: 79, pulse: 75))
    }

    @Test func storedValuesComeEveryHalfHourFromTheFirstAttemptUpToNow() throws {
        let model = SimulatedNIBPModel(scenario: Scenario(), seed: 1)
        let calibrated = model.calibration(fed: [], accepted: false, at: try Self.at("2026-11-29T08:10:00Z"))
        let (values, more) = model.stored(history: [calibrated], since: nil, until: nil, now: try Self.at("2026-11-29T10:02:00Z"), limit: 100)
        #expect(values.map { RFC3339.format($0.measuredAt) } == ["2026-11-29T08:32:00Z", "2026-11-29T09:02:00Z",
                                                                  "2026-11-29T09:32:00Z", "2026-11-29T10:02:00Z"])
        #expect(!more)
        let page = model.stored(history: [calibrated], since: try Self.at("2026-11-29T09:02:00Z"), until: nil,
                                now: try Self.at("2026-11-29T10:02:00Z"), limit: 2)
        #expect(page.values.map { RFC3339.format($0.measuredAt) } == ["2026-11-29T09:02:00Z", "2026-11-29T09:32:00Z"])
        #expect(page.more)
        #expect(model.stored(history: [], since: nil, until: nil, now: try Self.at("2026-11-29T10:02:00Z"), limit: 10).values.isEmpty)
    }

    @Test func theEstimateKeepsTheErrorOfTheReadingsItWasCalibratedAgainst() throws {
        let model = SimulatedNIBPModel(scenario: Scenario(), seed: 7)
        let fedAt = try Self.at("2026-11-29T08:00:00Z")
        let truth = model.wearer.truth(at: fedAt)
        func reading(_ offset: Double) -> CuffReading {
            CuffReading(systolic: Int((truth.systolic + offset).rounded()), diastolic: Int((truth.diastolic + offset).rounded()), pulse: 70,
                        measuredAt: fedAt)
        }
        let good = model.calibration(fed: [(reading(0), fedAt), (reading(0), fedAt)], accepted: true, at: fedAt)
        let bad = model.calibration(fed: [(reading(25), fedAt), (reading(25), fedAt)], accepted: true, at: fedAt)
        let refused = model.calibration(fed: [(reading(0), fedAt)], accepted: false, at: fedAt)
        #expect(abs(good.systolicError) <= 0.5 && abs(bad.systolicError - 25) <= 0.5)
        #expect(refused.systolicError == 18 && refused.diastolicError == 12)
        let t = try Self.at("2026-11-29T12:32:00Z")
        let wearer = model.wearer.truth(at: t)
        #expect(abs(Double(model.value(at: t, calibration: good).systolic) - wearer.systolic) <= 4)
        #expect(abs(Double(model.value(at: t, calibration: bad).systolic) - wearer.systolic) >= 20)
        // Seeded on the instant: the same value twice, another seed another one somewhere.
        #expect(model.value(at: t, calibration: good) == model.value(at: t, calibration: good))
        let other = SimulatedNIBPModel(scenario: Scenario(), seed: 8)
        let times = (0..<20).map { Instant(secondsSinceEpoch: t.secondsSinceEpoch + Int64($0) * 1800) }
        #expect(times.contains { model.value(at: $0, calibration: good) != other.value(at: $0, calibration: good) })
    }

    @Test func theCuffMeasuresFortySecondsAfterTheRequestWithinItsSpread() throws {
        let scenario = Scenario(subjects: [
            ScenarioSubject(id: "A", baseline: SubjectLevel(systolic: 120, diastolic: 80, pulse: 70)),
            ScenarioSubject(id: "B", baseline: SubjectLevel(systolic: 140, diastolic: 90, pulse: 80),
                            cuff: SubjectCuff(offset: BPDelta(systolic: 20, diastolic: 10), spread: BPDelta(systolic: 0, diastolic: 0)))])
        let cuff = SimulatedCuff(scenario: scenario, seed: 1)
        let t = try Self.at("2026-11-29T08:00:00Z")
        let b = cuff.reading(of: try SimulatedCuff.subject("B", in: scenario), requestedAt: t)
        #expect(b.systolic == 160 && b.diastolic == 100 && b.subject == "B")
        #expect(b.measuredAt == Instant(secondsSinceEpoch: t.secondsSinceEpoch + 40))
        for k in 0..<50 {
            let a = cuff.reading(of: scenario.subjects[0], requestedAt: Instant(secondsSinceEpoch: t.secondsSinceEpoch + Int64(k) * 60))
            #expect((117...123).contains(a.systolic) && (78...82).contains(a.diastolic) && (68...72).contains(a.pulse ?? 0))
        }
        #expect(throws: SimulatedCuffError.subjectNotNamed(known: ["A", "B"])) { try SimulatedCuff.subject(nil, in: scenario) }
        #expect(throws: SimulatedCuffError.unknownSubject("C", known: ["A", "B"])) { try SimulatedCuff.subject("C", in: scenario) }
        #expect(try SimulatedCuff.subject(nil, in: Scenario()).id == "S1")
    }

    @Test(arguments: [
        (#"{"subjects":[{"id":"A","baseline":{"systolic":120,"diastolic":80,"pulse":70}}],"nibp":{"wearer":"B"}}"#, "field nibp.wearer: no subject 'B'"),
        (#"{"subjects":[{"id":"A","baseline":{"systolic":120,"diastolic":80,"pulse":70}},{"id":"A","baseline":{"systolic":120,"diastolic":80,"pulse":70}}]}"#,
         "field subjects[1].id: 'A' is declared twice"),
        (#"{"subjects":[{"id":"A","baseline":{"systolic":80,"diastolic":90,"pulse":70}}]}"#, "field subjects[0].baseline: systolic must be above diastolic"),
        (#"{"subjects":[{"id":"A","baseline":{"systolic":120,"diastolic":80,"pulse":70},"changes":[{"from":"soon","systolic":1,"diastolic":1}]}]}"#,
         "field subjects[0].changes[0].from: not an RFC 3339 time"),
        (#"{"subjects":[{"id":"A","baseline":{"systolic":120,"diastolic":80,"pulse":70},"rhythm":{"systolic":5,"diastolic":3,"peakHour":24}}]}"#,
         "field subjects[0].rhythm.peakHour"),
        (#"{"subjects":[{"id":"A","baseline":{"systolic":120,"diastolic":80,"pulse":70},"cuff":{"ofset":{"systolic":1,"diastolic":1}}}]}"#,
         "field subjects[0].cuff.ofset: unknown field"),
        (#"{"nibp":{"intervalSeconds":5}}"#, "field nibp.intervalSeconds"),
    ])
    func aBadSubjectOrNIBPFieldIsNamed(json: String, expected: String) throws {
        #expect(throws: ScenarioError.self) { try Scenario.decode(Data(json.utf8), source: "s.json") }
        do {
            _ = try Scenario.decode(Data(json.utf8), source: "s.json")
        } catch ScenarioError.invalid(_, let message) {
            #expect(message.contains(expected), "\(message)")
        }
    }

    @Test func aScenarioWithSubjectsRoundTrips() throws {
        let json = #"{"subjects":[{"id":"S7","baseline":{"systolic":130,"diastolic":85,"pulse":72},"rhythm":{"systolic":6,"diastolic":4,"peakHour":15},"changes":[{"label":"treatment","from":"2026-12-01T00:00:00Z","systolic":-10,"diastolic":-5}],"cuff":{"offset":{"systolic":5,"diastolic":3}}}],"nibp":{"wearer":"S7","noise":{"systolic":1,"diastolic":1}}}"#
        let s = try Scenario.decode(Data(json.utf8), source: "s.json")
        #expect(s.subjects.map(\.id) == ["S7"])
        #expect(s.nibp.wearer == "S7")
        #expect(try Scenario.decode(JSONEncoder().encode(s), source: "again") == s)
    }
}
