@testable import CorsanoKit
import Testing

/// The live same-arm sequence (`validate --live`): parsing `--sequence` and driving it.
@Suite struct LiveValidationTests {
    @Test func sequencesAlternateFromRToR() throws {
        #expect(try ValidationSequence.parse(ValidationSequence.standard).get().steps.count == 7)
        #expect(try ValidationSequence.parse("r, t ,R").get().steps == [.reference, .device, .reference])
        #expect(ValidationSequence.parse("R,T") == .failure(.notAlternating))
        #expect(ValidationSequence.parse("T,R,T") == .failure(.notAlternating))
        #expect(ValidationSequence.parse("R,T,T,R") == .failure(.notAlternating))
        #expect(ValidationSequence.parse("R,X,R") == .failure(.notAStep("X")))
        #expect(ValidationSequence.parse("") == .failure(.notAStep("")))
    }

    @Test func runMeasuresInOrderStampsTheSubjectAndPairsSequentially() async throws {
        let t0 = RFC3339.parseInstant("2026-12-01T09:00:00Z")!
        var minute = 0
        func next() -> Instant { minute += 2; return t0.adding(interval: Double(minute * 60)) }
        var cuff = [120, 124, 118, 122].makeIterator()
        var bracelet = [125, 121, 119].makeIterator()
        var events: [String] = []
        let run = LiveValidation(sequence: try ValidationSequence.parse("R,T,R,T,R,T,R").get(), subject: "P07")
        let (ref, dev) = try await run.run(
            reference: { CuffReading(systolic: cuff.next()!, diastolic: 80, pulse: 60, measuredAt: next()) },
            device: { CuffReading(systolic: bracelet.next()!, diastolic: 81, pulse: nil, measuredAt: next()) },
            report: { e in
                if case .stepMeasured(let i, let s, let r) = e { events.append("\(i)\(s.rawValue)\(r.systolic)") }
            })
        #expect(events == ["1R120", "2T125", "3R124", "4T121", "5R118", "6T119", "7R122"])
        #expect(ref.count == 4 && dev.count == 3)
        #expect(ref.allSatisfy { $0.provenance.contains { $0.name == "subject" && $0.rawJSON == #""P07""# } })
        // The lines pair as the offline command pairs them: by hand 125 − 122 = 3, 121 − 121 = 0, 119 − 120 = −1.
        let readings = { (rs: [CuffReading]) in try rs.enumerated().map { try ValidationReading($0.element, origin: "live:\($0.offset)") } }
        let pairs = ValidationPairs(reference: try readings(ref), device: try readings(dev), rule: .sequential)
        #expect(pairs.problems.isEmpty)
        #expect(pairs.pairs.map(\.systolicDifference) == [3, 0, -1])
        #expect(pairs.subjects == ["P07"])
    }

    @Test func aFailedStepStopsTheSequence() async throws {
        struct CuffFailed: Error {}
        var steps = 0
        let run = LiveValidation(sequence: try ValidationSequence.parse("R,T,R").get(), subject: "P01")
        await #expect(throws: CuffFailed.self) {
            _ = try await run.run(reference: { throw CuffFailed() }, device: { Issue.record("device measured"); throw CuffFailed() },
                                  report: { _ in steps += 1 })
        }
        #expect(steps == 1)  // started R1, never measured
    }

    /// A reference reading that came without its time (typed, a line without measuredAt) is
    /// stamped with the run's clock when it arrives; one with its time keeps it.
    @Test func aReadingWithoutItsTimeIsStampedWhenItArrives() async throws {
        let t0 = RFC3339.parseInstant("2026-12-01T09:00:00Z")!
        var minute = 0
        func next() -> Instant { minute += 1; return t0.adding(interval: Double(minute * 60)) }
        let own = t0.adding(interval: 30)
        var cuff = [CuffReading(systolic: 120, diastolic: 80, pulse: 60, measuredAt: nil),
                    CuffReading(systolic: 122, diastolic: 80, pulse: 60, measuredAt: own)].makeIterator()
        let run = LiveValidation(sequence: try ValidationSequence.parse("R,T,R").get(), subject: "P02")
        let (ref, dev) = try await run.run(
            reference: { cuff.next()! },
            device: { CuffReading(systolic: 121, diastolic: 80, pulse: nil, measuredAt: next()) },
            now: { next() }, report: { _ in })
        // R1 arrives at minute 1 (stamped), T at minute 2, R2 keeps its own time (00:30).
        #expect(ref.map(\.measuredAt) == [t0.adding(interval: 60), own])
        #expect(dev.map(\.measuredAt) == [t0.adding(interval: 120)])
    }
}
