import CorsanoKit
import Testing

/// The per-run seen-set (a packed open-addressing table with a `Set` for unpackable keys).
@Suite struct InMemorySeenSetTests {
    static let base = Instant(secondsSinceEpoch: 1_795_996_800)

    static func key(_ seconds: Int64, _ nanos: Int32 = 0, _ sys: Int = 120, _ dia: Int = 80, _ pulse: Int? = 60) -> SeenKey {
        SeenKey(measuredAt: Instant(secondsSinceEpoch: base.secondsSinceEpoch + seconds, nanoseconds: nanos),
                systolic: sys, diastolic: dia, pulse: pulse)
    }

    @Test func everyFieldOfTheKeyCounts() {
        let set = InMemorySeenSet()
        let variants = [Self.key(0), Self.key(1), Self.key(0, 1), Self.key(0, 0, 121), Self.key(0, 0, 120, 81),
                        Self.key(0, 0, 120, 80, 61), Self.key(0, 0, 120, 80, nil), Self.key(0, 0, 120, 80, 0),
                        Self.key(0, 999_999_999)]
        for k in variants { #expect(set.insert(k) == true) }
        for k in variants {
            #expect(set.insert(k) == false)
            #expect(set.contains(k))
        }
        #expect(set.count == variants.count)
    }

    @Test func releasedKeysAreNotSeenUntilClaimedAgain() {
        let set = InMemorySeenSet()
        let keys = [Self.key(0), Self.key(1), Self.key(0, 0, 3000)]
        for k in keys { #expect(set.insert(k)) }
        set.release([keys[0], keys[2], Self.key(9)])
        #expect(!set.contains(keys[0]) && set.contains(keys[1]) && !set.contains(keys[2]) && !set.contains(Self.key(9)))
        #expect(set.insert(keys[0]))
        #expect(set.contains(keys[0]))
        #expect(!set.insert(keys[0]))
        #expect(set.insert(Self.key(9)))
    }

    @Test func valuesOutsideThePackingStillDeduplicate() {
        let set = InMemorySeenSet()
        let odd = [Self.key(0, 0, 2046, 2046, 2046), Self.key(0, 0, 2047, 80), Self.key(0, 0, -1, -5, -7),
                   Self.key(0, 0, .max, .min, .max), Self.key(0, 0, 120, 80, 2047), Self.key(0, 0, 120, 80, -1)]
        for k in odd { #expect(set.insert(k) == true) }
        for k in odd { #expect(set.insert(k) == false) }
        #expect(set.contains(Self.key(0, 0, 2047, 81)) == false)
    }

    /// Also sized up front (`replay-filter` on regular files): past the hint (growing on), and
    /// large enough for huge pages.
    @Test(arguments: [0, 5_000, 300_000])
    func aFloodInOneMinuteAndALongSpanBothWork(expectedKeys: Int) {
        let set = InMemorySeenSet(expectedKeys: expectedKeys)
        // 20,000 distinct readings stamped in the same second, then 200,000 minutes apart.
        for i in 0..<20_000 { #expect(set.insert(Self.key(0, Int32(i), 60 + i % 200, 40 + i / 200)) == true) }
        for i in 0..<200_000 { #expect(set.insert(Self.key(Int64(i) * 60 + 7)) == true) }
        #expect(set.count == 220_000)
        #expect(set.insert(Self.key(0, 19_999, 60 + 19_999 % 200, 40 + 19_999 / 200)) == false)
        #expect(set.insert(Self.key(199_999 * 60 + 7)) == false)
        #expect(set.contains(Self.key(199_999 * 60 + 8)) == false)
    }
}
