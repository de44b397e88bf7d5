import CorsanoKit
import Testing

@Suite struct ReplayFilterTests {
    static let now = RFC3339.parseInstant("2026-11-29T10:15:00Z")!

    static func reading(_ at: String?, _ sys: Int = 120, _ dia: Int = 80, _ pulse: Int? = 60, map: Int? = nil,
                        manual: Bool = false, device: String? = nil, provenance: [ProvenanceField] = []) -> CuffReading {
        CuffReading(systolic: sys, diastolic: dia, pulse: pulse, meanArterialPressure: map,
                    measuredAt: at.flatMap { RFC3339.parseInstant($0) }, deviceTime: device.flatMap { RFC3339.parseNaive($0) },
                    isManualEntry: manual, provenance: provenance)
    }

    static func filter(_ rules: HostRules = HostRules()) -> ReplayFilter { ReplayFilter(rules: rules, seen: InMemorySeenSet()) }

    @Test(arguments: [
        ("2026-11-29T10:13:30Z", FilterDecision.keep),          // exactly 90 s before the request
        ("2026-11-29T10:13:29Z", .drop(.replayed)),             // 91 s
        ("2026-11-29T10:13:29.999Z", .drop(.replayed)),         // 90.001 s
        ("2026-11-29T12:13:30+02:00", .keep),
    ])
    func backdateBoundary(_ at: String, _ expected: FilterDecision) throws {
        let f = Self.filter(HostRules(requestedAt: RFC3339.parseInstant("2026-11-29T10:15:00Z")))
        #expect(try f.judge(Self.reading(at), now: Self.now) == expected)
    }

    @Test(arguments: [
        ("2026-11-29T10:00:00Z", FilterDecision.keep),                 // age 900
        ("2026-11-29T09:59:59Z", .drop(.stale, age: 901)),
        ("2026-11-29T10:30:00Z", .keep),                               // age -900
        ("2026-11-29T10:30:01Z", .drop(.future, age: -901)),
        ("2029-11-29T10:15:00Z", .drop(.future, age: -94_694_400)),   // a cuff clock three years ahead
    ])
    func ageBoundaryBothDirections(_ at: String, _ expected: FilterDecision) throws {
        #expect(try Self.filter().judge(Self.reading(at), now: Self.now) == expected)
    }

    @Test func noAgeLimitKeepsAnyAge() throws {
        let f = Self.filter(HostRules(maxReadingAge: nil))
        #expect(try f.judge(Self.reading("2020-01-01T00:00:00Z"), now: Self.now) == .keep)
    }

    @Test func instantEqualityIsOneKey() throws {
        let f = Self.filter(HostRules(maxReadingAge: nil))
        #expect(try f.judge(Self.reading("2026-11-29T19:00:40Z"), now: Self.now) == .keep)
        #expect(try f.judge(Self.reading("2026-11-29T21:00:40+02:00"), now: Self.now) == .drop(.duplicate))
        #expect(try f.judge(Self.reading("2026-11-29T19:00:40.000Z"), now: Self.now) == .drop(.duplicate))
        #expect(try f.judge(Self.reading("2026-11-29T19:00:40.001Z"), now: Self.now) == .keep)
    }

    @Test func keyIsTimeAndAllThreeValuesNeverTimeAlone() throws {
        let f = Self.filter()
        let at = "2026-11-29T10:10:00Z"
        #expect(try f.judge(Self.reading(at, 120, 80, 60), now: Self.now) == .keep)
        #expect(try f.judge(Self.reading(at, 121, 80, 60), now: Self.now) == .keep)
        #expect(try f.judge(Self.reading(at, 120, 81, 60), now: Self.now) == .keep)
        #expect(try f.judge(Self.reading(at, 120, 80, 61), now: Self.now) == .keep)
        #expect(try f.judge(Self.reading(at, 120, 80, nil), now: Self.now) == .keep)
        #expect(try f.judge(Self.reading(at, 120, 80, nil), now: Self.now) == .drop(.duplicate))
        // MAP and provenance differences are still the same record.
        #expect(try f.judge(Self.reading(at, 120, 80, 60, map: 95, provenance: [ProvenanceField(name: "userId", rawJSON: "2")]),
                            now: Self.now) == .drop(.duplicate))
    }

    @Test func unstampedPassRules2And3AndAge() throws {
        let f = Self.filter(HostRules(requestedAt: Self.now))
        for _ in 0..<2 {
            #expect(try f.judge(Self.reading(nil), now: Self.now) == .keep)
            #expect(try f.judge(Self.reading(nil, manual: true), now: Self.now) == .keep)
        }
    }

    /// Issue 30: a stamped manual entry (a typed entry of a Health export) is a record of the
    /// past: backdating and duplicates apply; only the age rule keeps the seed's exemption.
    @Test func stampedManualEntryObeysBackdatingAndDuplicatesNotAge() throws {
        let f = Self.filter(HostRules(requestedAt: Self.now))
        #expect(try f.judge(Self.reading("2020-01-01T00:00:00Z", manual: true), now: Self.now) == .drop(.replayed))
        // Half an hour ahead: beyond maxReadingAge, kept as a manual entry, once.
        #expect(try f.judge(Self.reading("2026-11-29T10:45:00Z", manual: true), now: Self.now) == .keep)
        #expect(try f.judge(Self.reading("2026-11-29T10:45:00Z", manual: true), now: Self.now) == .drop(.duplicate))
        #expect(try f.judge(Self.reading("2026-11-29T10:45:00Z"), now: Self.now) == .drop(.duplicate))
    }

    @Test func unanchoredComesFirst() throws {
        let f = Self.filter()
        #expect(try f.judge(Self.reading(nil, device: "2025-01-01T00:04:00"), now: Self.now) == .drop(.unanchored))
        #expect(try f.judge(Self.reading(nil, manual: true, device: "2025-01-01T00:04:00"), now: Self.now) == .drop(.unanchored))
        // An anchored reading keeps its raw stamp and passes.
        #expect(try f.judge(Self.reading("2026-11-29T10:14:00Z", device: "2025-01-01T00:04:00"), now: Self.now) == .keep)
    }

    @Test func droppedReadingsNeverEnterTheSeenSet() throws {
        let seen = InMemorySeenSet()
        let f = ReplayFilter(rules: HostRules(requestedAt: Self.now), seen: seen)
        #expect(try f.judge(Self.reading("2026-11-29T10:00:00Z"), now: Self.now) == .drop(.replayed))
        #expect(try f.judge(Self.reading("2026-11-29T10:40:00Z"), now: Self.now) == .drop(.future, age: -1500))
        #expect(seen.count == 0)
        // Later, the same stale record is judged stale again, not duplicate.
        #expect(try f.judge(Self.reading("2026-11-29T10:40:00Z"), now: Self.now) == .drop(.future, age: -1500))
    }

    @Test func duplicateComesBeforeStale() throws {
        let f = Self.filter()
        #expect(try f.judge(Self.reading("2026-11-29T10:14:00Z"), now: Self.now) == .keep)
        let later = Self.now.adding(seconds: 3600)!
        #expect(try f.judge(Self.reading("2026-11-29T10:14:00Z"), now: later) == .drop(.duplicate))
    }

    /// The session-replay fixture after the clock anchor (device 2025-01-01T00:03:10 = phone
    /// 2026-11-29T10:00:05Z): two stored records, the live first measurement, its replay during
    /// measurement 2, the live second measurement.
    @Test func sessionReplayTwoMeasurementsShareTheSeenSet() throws {
        let anchored = [
            Self.reading("2026-11-27T18:11:55Z", 133, 86, 71, device: "2024-12-30T08:15:00"),
            Self.reading("2026-11-29T05:36:55Z", 126, 84, 69, device: "2024-12-31T19:40:00"),
            Self.reading("2026-11-29T10:00:55Z", 128, 82, 66, device: "2025-01-01T00:04:00"),
            Self.reading("2026-11-29T10:00:55Z", 128, 82, 66, device: "2025-01-01T00:04:00"),
            Self.reading("2026-11-29T10:02:55Z", 124, 80, 64, device: "2025-01-01T00:06:00"),
        ]
        let seen = InMemorySeenSet()
        let now = RFC3339.parseInstant("2026-11-29T10:03:00Z")!
        let first = ReplayFilter(rules: HostRules(requestedAt: RFC3339.parseInstant("2026-11-29T10:00:30Z")), seen: seen)
        #expect(try anchored.prefix(3).map { try first.judge($0, now: now) } == [.drop(.replayed), .drop(.replayed), .keep])
        let second = ReplayFilter(rules: HostRules(requestedAt: RFC3339.parseInstant("2026-11-29T10:02:00Z")), seen: seen)
        #expect(try anchored.suffix(2).map { try second.judge($0, now: now) } == [.drop(.duplicate), .keep])
    }
}
