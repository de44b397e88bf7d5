import CorsanoKit
import Foundation
import Testing

@Suite struct StoreSeenSetTests {
    static func tempStorePath() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-seen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent("state.sqlite3").path
    }

    static func key(_ at: String, _ pulse: Int? = 60) -> SeenKey {
        SeenKey(measuredAt: RFC3339.parseInstant(at)!, systolic: 120, diastolic: 80, pulse: pulse)
    }

    @Test func theCommittedInsertDecidesAcrossConnections() throws {
        let path = try Self.tempStorePath()
        let a = try StoreSeenSet(store: SQLiteStore(path: path), scope: "default")
        let b = try StoreSeenSet(store: SQLiteStore(path: path), scope: "default")
        let k = Self.key("2026-11-29T10:00:00Z"), other = Self.key("2026-11-29T10:01:00Z")
        #expect(try a.insert(k) == true)
        #expect(try a.insert(k) == false)  // same batch: already claimed
        #expect(try a.contains(k) == true)
        // b claims the same key provisionally: nothing is committed yet.
        #expect(try b.contains(k) == false)
        #expect(try b.insert(k) == true)
        #expect(try b.insert(other) == true)
        #expect(try a.commitPending() == [])
        #expect(try b.commitPending() == [k])  // a held it first: b must not write that line
        #expect(try a.contains(other) == true)
        #expect(try b.commitPending() == [])
    }

    @Test func aBusyStoreFailsTheCommitNamingThePath() throws {
        let path = try Self.tempStorePath()
        let holder = try SQLiteStore(path: path)
        let s = try StoreSeenSet(store: SQLiteStore(path: path, busyTimeoutMilliseconds: 50), scope: "default")
        try holder.execute("BEGIN IMMEDIATE")
        #expect(try s.insert(Self.key("2026-11-29T10:00:00Z")) == true)
        #expect(throws: StoreError.busy(path: path)) { try s.commitPending() }
        try holder.execute("ROLLBACK")
        #expect(try s.contains(Self.key("2026-11-29T10:00:00Z")) == false)
    }

    @Test func keysPersistPerScopeAndMissingPulseIsAKey() throws {
        let path = try Self.tempStorePath()
        do {
            let s = try StoreSeenSet(store: SQLiteStore(path: path), scope: "m1")
            #expect(try s.insert(Self.key("2026-11-29T10:00:00Z", nil)) == true)
            #expect(try s.insert(Self.key("2026-11-29T10:00:00Z", nil)) == false)
            #expect(try s.insert(Self.key("2026-11-29T10:00:00Z", 0)) == true)
            try s.commitPending()
        }
        let again = try StoreSeenSet(store: SQLiteStore(path: path), scope: "m1")
        #expect(try again.contains(Self.key("2026-11-29T12:00:00+02:00", nil)) == true)
        let other = try StoreSeenSet(store: SQLiteStore(path: path), scope: "other")
        #expect(try other.contains(Self.key("2026-11-29T10:00:00Z", nil)) == false)
    }

    /// Keys without a packed form (values outside 0...2046) live in the wide table, still exact.
    @Test func implausibleValuesStillDeduplicateAcrossConnections() throws {
        let path = try Self.tempStorePath()
        let at = RFC3339.parseInstant("2026-11-29T10:00:00Z")!
        let keys = [SeenKey(measuredAt: at, systolic: 3000, diastolic: 80, pulse: 60),
                    SeenKey(measuredAt: at, systolic: -1, diastolic: -2, pulse: nil),
                    SeenKey(measuredAt: at, systolic: 120, diastolic: 80, pulse: 2047),
                    SeenKey(measuredAt: at, systolic: 2046, diastolic: 2046, pulse: 2046)]
        let a = try StoreSeenSet(store: SQLiteStore(path: path), scope: "default")
        for k in keys { #expect(try a.insert(k) == true) }
        #expect(try a.commitPending() == [])
        let b = try StoreSeenSet(store: SQLiteStore(path: path), scope: "default")
        for k in keys {
            #expect(try b.contains(k))
            #expect(try b.insert(k) == true)  // provisional: the commit decides
        }
        #expect(try b.insert(SeenKey(measuredAt: at, systolic: 3000, diastolic: 81, pulse: 60)) == true)
        #expect(try b.commitPending() == Set(keys))
    }

    /// Batches of 64-key chunks: a chunk holding an already-held key falls back to single inserts.
    @Test func chunkedBatchesReportExactlyTheHeldKeys() throws {
        let path = try Self.tempStorePath()
        let base = RFC3339.parseInstant("2026-11-29T00:00:00Z")!
        let keys = (0..<300).map { SeenKey(measuredAt: base.adding(seconds: Int64($0) * 60)!, systolic: 120, diastolic: 80, pulse: $0 % 7 == 0 ? nil : 60) }
        let held = Set([keys[3], keys[64], keys[130], keys[299]])
        let a = try StoreSeenSet(store: SQLiteStore(path: path), scope: "s")
        for k in held { #expect(try a.insert(k)) }
        #expect(try a.commitPending() == [])
        let b = try StoreSeenSet(store: SQLiteStore(path: path), scope: "s")
        for k in keys { #expect(try b.insert(k)) }
        #expect(try b.commitPending() == held)
        for k in keys { #expect(try b.contains(k)) }
        let c = try StoreSeenSet(store: SQLiteStore(path: path), scope: "s")
        for k in keys { #expect(try c.insert(k)) }
        #expect(try c.commitPending() == Set(keys))
    }

    /// A failed write gives back the claims of the lines it lost: another run, or a
    /// later one, claims them again; the claims of written lines stay.
    @Test func releasedClaimsCanBeClaimedAgainAcrossConnections() throws {
        let path = try Self.tempStorePath()
        let at = RFC3339.parseInstant("2026-11-29T10:00:00Z")!
        let written = [Self.key("2026-11-29T09:00:00Z"), SeenKey(measuredAt: at, systolic: 3000, diastolic: 80, pulse: 60)]
        let lost = [Self.key("2026-11-29T10:00:00Z"), Self.key("2026-11-29T10:00:00Z", nil),
                    SeenKey(measuredAt: at, systolic: -1, diastolic: -2, pulse: nil)]
        let a = try StoreSeenSet(store: SQLiteStore(path: path), scope: "default")
        for k in written + lost { #expect(try a.insert(k)) }
        #expect(try a.commitPending() == [])
        try a.release(lost)
        let b = try StoreSeenSet(store: SQLiteStore(path: path), scope: "default")
        for k in lost { #expect(try b.contains(k) == false) }
        for k in written { #expect(try b.contains(k)) }
        for k in written + lost { #expect(try b.insert(k)) }
        #expect(try b.commitPending() == Set(written))
        let other = try StoreSeenSet(store: SQLiteStore(path: path), scope: "other")
        try other.release(lost)  // another scope's release touches nothing here
        #expect(try b.contains(lost[0]))
    }

    @Test func aReleaseOnABusyStoreFailsAndKeepsEveryClaim() throws {
        let path = try Self.tempStorePath()
        let s = try StoreSeenSet(store: SQLiteStore(path: path, busyTimeoutMilliseconds: 50), scope: "default")
        let k = Self.key("2026-11-29T10:00:00Z")
        #expect(try s.insert(k))
        #expect(try s.commitPending() == [])
        let holder = try SQLiteStore(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        #expect(throws: StoreError.busy(path: path)) { try s.release([k]) }
        try holder.execute("ROLLBACK")
        #expect(try s.contains(k))
    }

    @Test func uncommittedBatchIsDroppedWithTheSet() throws {
        let path = try Self.tempStorePath()
        let store = try SQLiteStore(path: path)
        do {
            let s = try StoreSeenSet(store: store, scope: "default")
            #expect(try s.insert(Self.key("2026-11-29T10:00:00Z")) == true)
        }
        let s = try StoreSeenSet(store: store, scope: "default")
        #expect(try s.contains(Self.key("2026-11-29T10:00:00Z")) == false)
    }

    @Test func corruptFileIsAStoreErrorNamingThePath() throws {
        let path = try Self.tempStorePath()
        try Data(String(repeating: "not a database ", count: 400).utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteStore(path: path)
        } throws: { error in
            guard case .corrupt(let p, _) = error as? StoreError else { return false }
            return p == path
        }
    }

    @Test func replayFilterOnTheStore() throws {
        let store = try SQLiteStore(path: nil)
        let filter = ReplayFilter(rules: HostRules(maxReadingAge: nil), seen: try StoreSeenSet(store: store, scope: "default"))
        let r = CuffReading(systolic: 120, diastolic: 80, pulse: 60, measuredAt: RFC3339.parseInstant("2026-11-29T19:00:40Z"))
        var copy = r
        copy.measuredAt = RFC3339.parseInstant("2026-11-29T21:00:40+02:00")
        let now = Instant(secondsSinceEpoch: 0)
        #expect(try filter.judge(r, now: now) == .keep)
        #expect(try filter.judge(copy, now: now) == .drop(.duplicate))
        #expect(try filter.seen.commitPending() == [])
    }
}
