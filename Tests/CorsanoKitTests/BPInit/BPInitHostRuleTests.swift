import CorsanoKit
import Testing

/// The host rules bp-init applies to the cuff stream (seed "Replayed and stale readings",
/// docs/design.md "Host-side cuff rules"): unanchored → replayed → duplicate → stale, then the clock moves.
@Suite struct BPInitHostRuleTests {
    typealias F = BPInitFixture

    @Test func futureDatedThreeYearsIsStaleWithNegativeAge() async throws {
        let run = try await F.run(readings: [F.reading(120, 80, offset: 94_608_000)])
        #expect(run.result == .cuffError(.staleReading(age: -94_608_000)))
        #expect(run.result.json.serialized ==
                #"{"kind":"cuffError","error":{"kind":"staleReading","age":-94608000}}"#)
        #expect(run.named("measurement").isEmpty)
        #expect(run.collected.isEmpty)
        #expect(run.planRestored)
    }

    @Test func stale901SecondsInEitherDirection() async throws {
        let future = try await F.run(readings: [F.reading(120, 80, offset: 901)])
        #expect(future.result == .cuffError(.staleReading(age: -901)))
        // 901 s old is also more than the 90 s backdate: with the replay rule off it is stale.
        let past = try await F.run(readings: [F.reading(120, 80, offset: -901)],
                               config: .init(replayFilter: false))
        #expect(past.result == .cuffError(.staleReading(age: 901)))
    }

    @Test func exactlyMaxAgeIsAcceptedAndNoneDisablesTheCheck() async throws {
        let edge = try await F.run(readings: [F.reading(120, 80, offset: 900), F.reading(121, 80, offset: 901)])
        #expect(edge.result == .success(measurementCount: 2))
        let off = try await F.run(readings: [F.reading(120, 80, offset: 94_608_000), F.reading(121, 80, offset: 94_608_001)],
                              config: .init(maxReadingAge: nil))
        #expect(off.result == .success(measurementCount: 2))
    }

    @Test func ageIsJudgedBeforeTheVirtualClockMoves() async throws {
        // The second reading is 901 s after the first; were the clock moved first it would pass.
        let run = try await F.run(readings: [F.reading(120, 80, offset: 600), F.reading(121, 80, offset: 1501)])
        #expect(run.result == .cuffError(.staleReading(age: -901)))
        #expect(run.clock.now() == F.start.adding(seconds: 600))
    }

    /// A manual entry is never age-checked (the seed: no cuff clock behind it), but one that
    /// carries a time is a record of the past: the backdating and duplicate rules apply.
    @Test func manualEntriesAreNeverAgeCheckedButStampedOnesAreReplayedAndDuplicated() async throws {
        // 1000 s and 1100 s ahead: a cuff's reading would be stale (age -1000); a typed one is not.
        let ahead = F.reading(120, 80, 70, at: "2026-11-29T10:17:10Z", manual: true)
        let later = F.reading(121, 80, 70, at: "2026-11-29T10:18:50Z", manual: true)
        let fresh = try await F.run(readings: [ahead, later])
        #expect(fresh.result == .success(measurementCount: 2))
        #expect(fresh.dropReasons.isEmpty)
        // The same entry twice: the second is a duplicate.
        let twice = try await F.run(readings: [ahead, ahead, later])
        #expect(twice.result == .success(measurementCount: 2))
        #expect(twice.dropReasons == ["duplicate"])
        // Stamped three years before the request: replayed, whether typed or not.
        let old = F.reading(120, 80, 70, at: "2023-11-29T10:00:00Z", manual: true)
        let past = try await F.run(readings: [old, old])
        #expect(past.dropReasons == ["replayed", "replayed"])
        #expect(past.clock.now() == F.start)
    }

    @Test func unstampedReadingsPassEveryTimeRule() async throws {
        let run = try await F.run(readings: [F.reading(120, 80), F.reading(120, 80)])
        #expect(run.result == .success(measurementCount: 2))
    }

    @Test func incompleteUnanchoredAndInvalidAreDroppedAndTheWaitGoesOn() async throws {
        let items: [CuffItem] = [
            .reading(F.reading(120, 80, nil, at: "2026-11-29T10:00:40Z")),
            .reading(F.reading(120, 80, 70, deviceTime: "2025-01-01T00:04:00")),
            .invalid(line: "{\"systolic\":\"x\"}", problem: "line 3: systolic: not an integer"),
            .reading(F.reading(80, 120, 70, at: "2026-11-29T10:00:40Z")),
            .reading(F.reading(120, 80, offset: 10)), .reading(F.reading(121, 80, offset: 20)),
        ]
        let run = try await F.run(Scenario(), items)
        #expect(run.dropReasons == ["incomplete", "unanchored", "invalid", "invalid"])
        #expect(run.named("cuffReadingDropped")[3]["problem"] == .string("systolic: 80 mmHg not above diastolic 120 mmHg"))
        #expect(run.named("cuffReadingDropped")[2]["line"] == .string("{\"systolic\":\"x\"}"))
        #expect(run.result == .success(measurementCount: 2))
    }

    @Test func replayedIsRelativeToTheRequestWithBackdateAllowance() async throws {
        // Requested at the start: 90 s earlier is allowed, 91 s is replayed history.
        let run = try await F.run(readings: [F.reading(120, 80, offset: -91), F.reading(121, 80, offset: -90),
                                                              F.reading(122, 80, offset: 5)])
        #expect(run.dropReasons == ["replayed"])
        #expect(run.collected == [[1, 1, 121, 80], [1, 2, 122, 80]])
        let wider = try await F.run(readings: [F.reading(120, 80, offset: -91), F.reading(121, 80, offset: 5)],
                                config: .init(backdateSeconds: 120))
        #expect(wider.dropReasons.isEmpty)
    }

    @Test func duplicateKeyIsTimeAndAllThreeValues() async throws {
        let same = F.reading(120, 80, offset: 10)
        var otherPulse = same
        otherPulse.pulse = 71
        let run = try await F.run(readings: [same, same, otherPulse])
        #expect(run.dropReasons == ["duplicate"])
        #expect(run.result == .success(measurementCount: 2))
    }

    @Test func noReplayFilterFeedsReplaysAndDuplicates() async throws {
        let run = try await F.run(readings: F.sessionReplay, config: .init(maxReadingAge: nil, replayFilter: false))
        #expect(run.dropReasons.isEmpty)
        #expect(run.collected == [[1, 1, 133, 86], [1, 2, 126, 84]])
    }
}
