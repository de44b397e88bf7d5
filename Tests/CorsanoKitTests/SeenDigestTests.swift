@testable import CorsanoKit
import Foundation
import Testing

/// The seen-set's digest (docs/design.md "State store"): kept by every commit and release, so a
/// store used only through corsano always passes its check; built by the migration from the rows
/// an older store holds; and any one changed row — packed or wide, in any 32-bit piece — fails it.
@Suite struct SeenDigestTests {
    static func key(_ minute: Int, systolic: Int = 120, pulse: Int? = 60) -> SeenKey {
        SeenKey(measuredAt: Instant(secondsSinceEpoch: 1_795_000_000 + Int64(minute) * 60), systolic: systolic, diastolic: 80, pulse: pulse)
    }

    /// Packed keys and wide ones (values without a packed form), committed and released, reopen clean.
    @Test func commitsAndReleasesKeepTheDigest() throws {
        let path = try StoreSeenSetTests.tempStorePath()
        let set = try StoreSeenSet(store: SQLiteStore(path: path), scope: "lab")
        let keys = (0..<200).map { Self.key($0) } + [Self.key(500, systolic: 5_000_000), Self.key(501, systolic: -3, pulse: nil)]
        #expect(keys.contains { $0.packedWord == nil }, "the test holds wide keys")
        for key in keys { #expect(set.insert(key)) }
        #expect(try set.commitPending().isEmpty)
        try set.release([keys[3], keys[201], Self.key(9_999)])  // the last was never held
        let again = try StoreSeenSet(store: SQLiteStore(path: path), scope: "lab")
        #expect(try again.contains(keys[4]) && !again.contains(keys[3]) && again.contains(keys[200]) && !again.contains(keys[201]))
        // A key held already is not counted twice.
        #expect(again.insert(keys[4]))
        #expect(try again.commitPending() == [keys[4]])
        _ = try StoreSeenSet(store: SQLiteStore(path: path), scope: "lab")
    }

    /// A store from before the digest (schema 9) gets one from its rows and is not refused.
    @Test func theMigrationDigestsAnOlderStoresRows() throws {
        let path = try StoreSeenSetTests.tempStorePath()
        do {
            let set = try StoreSeenSet(store: SQLiteStore(path: path), scope: "old")
            for minute in 0..<50 { _ = set.insert(Self.key(minute)) }
            _ = set.insert(Self.key(60, systolic: 9_999_999))
            _ = try set.commitPending()
            try set.store.execute("DROP TABLE seen_digest; PRAGMA user_version = 9;")
        }
        let reopened = try StoreSeenSet(store: SQLiteStore(path: path), scope: "old")
        #expect(try reopened.contains(Self.key(7)))
        let digest = try reopened.store.prepare("SELECT packed_rows, wide_rows FROM seen_digest").rows()
        #expect(digest == [[.int(50), .int(1)]])
    }

    /// One changed value in any column piece of a row fails the check, naming it and the recovery.
    @Test(arguments: ["seconds = seconds + 1", "seconds = seconds + 4294967296", "packed = packed # 1", "packed = packed # 4294967296"])
    func aChangedRowFailsTheCheck(change: String) throws {
        let path = try StoreSeenSetTests.tempStorePath()
        let set = try StoreSeenSet(store: SQLiteStore(path: path), scope: "s")
        for minute in 0..<20 { _ = set.insert(Self.key(minute)) }
        _ = try set.commitPending()
        let sql = change.replacingOccurrences(of: "#", with: "+")
        try set.store.execute("UPDATE seen_reading SET \(sql) WHERE seconds = (SELECT max(seconds) FROM seen_reading)")
        #expect {
            _ = try StoreSeenSet(store: SQLiteStore(path: path), scope: "s")
        } throws: { error in
            guard case StoreError.corrupt(let at, let message) = error else { return false }
            return at == path && message.contains("the seen-set of scope s fails its row checksums") && message.contains("restore it from a backup")
        }
    }
}
