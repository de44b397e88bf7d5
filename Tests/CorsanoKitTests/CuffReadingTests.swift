import CorsanoKit
import Testing

@Suite struct CuffReadingTests {
    @Test(arguments: [(120, 80, 93), (128, 82, 97), (124, 80, 94), (121, 79, 93), (100, 100, 100)])
    func derivedMAPIsIntegerSeedFormula(_ sys: Int, _ dia: Int, _ map: Int) {
        #expect(MeanArterialPressure.derived(systolic: sys, diastolic: dia) == map)
    }

    @Test func cuffReportedMAPWins() {
        let r = CuffReading(systolic: 120, diastolic: 80, pulse: 60, meanArterialPressure: 95)
        #expect(r.effectiveMeanArterialPressure == 95)
    }

    @Test func ageIsSignedSeconds() throws {
        let stamp = try #require(RFC3339.parseInstant("2026-11-29T10:00:00Z"))
        let now = try #require(RFC3339.parseInstant("2026-11-29T10:15:00Z"))
        let r = CuffReading(systolic: 120, diastolic: 80, pulse: 60, measuredAt: stamp)
        #expect(r.age(asOf: now) == 900)
        #expect(r.age(asOf: stamp.adding(seconds: -901)!) == -901)
        #expect(CuffReading(systolic: 120, diastolic: 80, pulse: 60).age(asOf: now) == nil)
    }

    @Test func jsonLineFieldOrderAndProvenance() throws {
        let r = CuffReading(systolic: 121, diastolic: 79, pulse: 64,
                            measuredAt: RFC3339.parseInstant("2026-11-29T12:15:00+02:00"),
                            deviceTime: RFC3339.parseNaive("2025-01-01T00:04:00"),
                            provenance: [ProvenanceField(name: "userId", rawJSON: "1")])
        #expect(r.jsonLine() == #"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:15:00Z","deviceTime":"2025-01-01T00:04:00","isManualEntry":false,"userId":1}"#)
        #expect(r.jsonLine(includeDerivedMAP: true).contains(#""meanArterialPressure":93"#))
    }
}
