import CorsanoKit
import Foundation
import Testing

/// `ReplayFilterSession`, the commit-then-write protocol: a kept line reaches the caller only
/// after the seen-set committed its claim, a claim another writer won becomes a `duplicate`
/// drop, and nothing of a batch whose commit failed is handed over.
@Suite struct ReplayFilterSessionTests {
    static let now = RFC3339.parseInstant("2026-11-29T10:01:00Z")!

    /// Records what a commit hands over.
    struct Received: FilterBatchReceiver {
        var text = ""
        var pieces = 0
        var lines = 0
        var readings = 0
        var drops: [(line: Int, word: String, text: String?)] = []

        mutating func kept(_ bytes: UnsafeBufferPointer<UInt8>, lines: Int, readings: Int) {
            text += String(decoding: bytes, as: UTF8.self)
            pieces += 1
            self.lines += lines
            self.readings += readings
        }

        mutating func dropped(_ drop: FilterDrop) { drops.append((drop.line, drop.word, drop.text)) }
    }

    /// A seen-set whose commit reports chosen keys as lost (another writer had them), or fails.
    final class RacingSeenSet: SeenSet {
        let inner = InMemorySeenSet()
        var losing: Set<SeenKey> = []
        var failing = false
        struct CommitFailed: Error {}
        func contains(_ key: SeenKey) -> Bool { inner.contains(key) }
        func insert(_ key: SeenKey) -> Bool { inner.insert(key) }
        var released: [SeenKey] = []
        func commitPending() throws -> Set<SeenKey> {
            if failing { throw CommitFailed() }
            return losing
        }
        func release(_ keys: [SeenKey]) throws {
            if failing { throw CommitFailed() }
            released += keys
        }
    }

    static func line(_ sys: Int, _ at: String) -> String {
        #"{"systolic":\#(sys),"diastolic":80,"pulse":70,"measuredAt":"\#(at)"}"#
    }

    static func judge(_ session: inout ReplayFilterSession, _ lines: [String]) throws -> [LineVerdict] {
        try lines.enumerated().map { i, text in
            var bytes = Array(text.utf8)
            return try bytes.withUnsafeMutableBytes { try session.judge(line: UnsafeRawBufferPointer($0), number: i + 1, now: now) }
        }
    }

    static let lines = [
        line(120, "2026-11-29T10:00:10Z"),
        line(121, "2026-11-29T10:00:20Z"),
        #"{"systolic":"x"}"#,
        line(120, "2026-11-29T10:00:10Z"),
        #"{"error":"noReading"}"#,
        line(122, "2026-11-29T10:00:30Z"),
    ]

    @Test func nothingIsHandedOverBeforeTheCommitAndAllOfItInOnePieceAfter() throws {
        let seen = RacingSeenSet()
        var session = ReplayFilterSession(filter: ReplayFilter(rules: HostRules(), seen: seen), keepsDroppedText: true)
        let verdicts = try Self.judge(&session, Self.lines)
        #expect(verdicts.map { if case .keep = $0 { true } else { false } } == [true, true, false, false, false, true])
        #expect(session.pendingBytes == [0, 1, 4, 5].map { Self.lines[$0].utf8.count + 1 }.reduce(0, +))
        var received = Received()
        try session.commit(to: &received)
        #expect(received.pieces == 1)
        #expect(received.text == [0, 1, 4, 5].map { Self.lines[$0] + "\n" }.joined())
        #expect(received.lines == 4 && received.readings == 3)
        #expect(received.drops.map(\.line) == [3, 4])
        #expect(received.drops.map(\.word) == ["malformed", "duplicate"])
        #expect(received.drops.map(\.text) == [Self.lines[2], Self.lines[3]])
        #expect(session.pendingBytes == 0)
        var again = Received()
        try session.commit(to: &again)
        #expect(again.pieces == 0 && again.drops.isEmpty)
    }

    /// `lines` judged and committed while another writer wins line 2's claim: the seen-set, the
    /// session after the commit, and what the commit handed over.
    static func committedWithLine2Lost() throws -> (seen: RacingSeenSet, session: ReplayFilterSession, received: Received) {
        let seen = RacingSeenSet()
        seen.losing = [SeenKey(measuredAt: RFC3339.parseInstant("2026-11-29T10:00:20Z")!, systolic: 121, diastolic: 80, pulse: 70)]
        var session = ReplayFilterSession(filter: ReplayFilter(rules: HostRules(), seen: seen), keepsDroppedText: false)
        _ = try judge(&session, lines)
        var received = Received()
        try session.commit(to: &received)
        return (seen, session, received)
    }

    @Test func aClaimAnotherWriterWonIsADuplicateAndItsLineIsNeverHandedOver() throws {
        let received = try Self.committedWithLine2Lost().received
        // Lines 1, then 5 and 6: two runs around the lost line 2.
        #expect(received.text == [0, 4, 5].map { Self.lines[$0] + "\n" }.joined())
        #expect(received.pieces == 2)
        #expect(received.lines == 3 && received.readings == 2)
        #expect(received.drops.map(\.line) == [2, 3, 4])
        #expect(received.drops.map(\.word) == ["duplicate", "malformed", "duplicate"])
        #expect(received.drops.allSatisfy { $0.text == nil })
    }

    /// Issue 18: a failed write lost the last lines handed over; their claims (not a lost
    /// claim's, not a cuff-failure line's: it has none) go back to the seen-set.
    @Test(arguments: [(1, [5]), (2, [5]), (3, [0, 5]), (9, [0, 5])])
    func theClaimsOfTheLastUnwrittenLinesAreReleased(unwritten: Int, releasedLines: [Int]) throws {
        let committed = try Self.committedWithLine2Lost()
        let seen = committed.seen
        var session = committed.session
        #expect(try session.releaseUnwritten(lines: unwritten) == releasedLines.count)
        let at = ["2026-11-29T10:00:10Z", "", "", "", "", "2026-11-29T10:00:30Z"]
        #expect(seen.released == releasedLines.map {
            SeenKey(measuredAt: RFC3339.parseInstant(at[$0])!, systolic: [120, 0, 0, 0, 0, 122][$0], diastolic: 80, pulse: 70)
        })
        #expect(try session.releaseUnwritten(lines: unwritten) == 0, "released once")
    }

    /// A seen-set that counts how it is read.
    final class CountingSeenSet: SeenSet {
        let inner = InMemorySeenSet()
        var containsCalls = 0
        var batches: [[SeenKey]] = []
        func contains(_ key: SeenKey) -> Bool {
            containsCalls += 1
            return inner.contains(key)
        }
        func containedKeys(_ keys: [SeenKey]) -> Set<SeenKey> {
            batches.append(keys)
            return Set(keys.filter(inner.contains))
        }
        func insert(_ key: SeenKey) -> Bool { inner.insert(key) }
        func commitPending() -> Set<SeenKey> { [] }
        func release(_ keys: [SeenKey]) {}
    }

    /// Rule 3 before age: a stale or future copy of a record handed on (in an earlier batch, or
    /// earlier in this one) is a duplicate; other stale and future lines keep their reason and
    /// age. The session asks the seen-set once per commit for all of them, never per line.
    @Test func staleCopiesOfHandedOnRecordsAreDuplicatesAskedOnceAtTheCommit() throws {
        let seen = CountingSeenSet()
        var session = ReplayFilterSession(filter: ReplayFilter(rules: HostRules(), seen: seen), keepsDroppedText: false)
        func judge(_ lines: [(String, String)], from first: Int) throws {
            for (i, (text, now)) in lines.enumerated() {
                var bytes = Array(text.utf8)
                _ = try bytes.withUnsafeMutableBytes {
                    try session.judge(line: UnsafeRawBufferPointer($0), number: first + i, now: RFC3339.parseInstant(now)!)
                }
            }
        }
        try judge([(Self.line(120, "2026-11-29T10:00:10Z"), "2026-11-29T10:01:00Z")], from: 1)
        var first = Received()
        try session.commit(to: &first)
        #expect(first.lines == 1)
        try judge([
            (Self.line(120, "2026-11-29T10:00:10Z"), "2026-11-29T10:30:00Z"),  // stale copy of line 1's record
            (Self.line(130, "2026-11-29T10:29:00Z"), "2026-11-29T10:30:00Z"),  // kept
            (Self.line(130, "2026-11-29T10:29:00Z"), "2026-11-29T10:50:00Z"),  // stale copy of the line before
            (Self.line(140, "2026-11-29T09:00:00Z"), "2026-11-29T10:30:00Z"),  // stale
            (Self.line(150, "2026-11-29T11:00:00Z"), "2026-11-29T10:30:00Z"),  // future
        ], from: 2)
        #expect(seen.containsCalls == 0 && seen.batches.isEmpty, "nothing is read per line")
        var second = Received()
        try session.commit(to: &second)
        #expect(seen.batches.count == 1 && seen.batches.first?.count == 4)
        #expect(seen.containsCalls == 0)
        #expect(second.drops.map(\.line) == [2, 4, 5, 6])
        #expect(second.drops.map(\.word) == ["duplicate", "duplicate", "stale", "future"])
        #expect(second.lines == 1)
    }

    @Test func aFailedCommitHandsNothingOver() throws {
        let seen = RacingSeenSet()
        seen.failing = true
        var session = ReplayFilterSession(filter: ReplayFilter(rules: HostRules(), seen: seen), keepsDroppedText: false)
        _ = try Self.judge(&session, Self.lines)
        var received = Received()
        #expect(throws: RacingSeenSet.CommitFailed.self) { try session.commit(to: &received) }
        #expect(received.pieces == 0 && received.drops.isEmpty)
        #expect(session.pendingBytes == 0)
    }

    @Test func twoSessionsOnOneStoreNeverBothHandOnARecord() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UInt64.random(in: 0...UInt64.max)).sqlite3").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let first = try StoreSeenSet(store: SQLiteStore(path: path), scope: StoreSeenSet.defaultScope)
        let second = try StoreSeenSet(store: SQLiteStore(path: path), scope: StoreSeenSet.defaultScope)
        var a = ReplayFilterSession(filter: ReplayFilter(rules: HostRules(), seen: first), keepsDroppedText: false)
        var b = ReplayFilterSession(filter: ReplayFilter(rules: HostRules(), seen: second), keepsDroppedText: false)
        // Both judge the same lines before either commits: both claims are provisional.
        _ = try Self.judge(&a, Self.lines)
        _ = try Self.judge(&b, Self.lines)
        var fromA = Received(), fromB = Received()
        try a.commit(to: &fromA)
        try b.commit(to: &fromB)
        #expect(fromA.readings == 3)
        #expect(fromB.readings == 0)
        #expect(fromB.lines == 1)  // the cuff-failure line claims nothing
        #expect(fromB.drops.map(\.line) == [1, 2, 3, 4, 6])
        #expect(fromB.drops.map(\.word) == ["duplicate", "duplicate", "malformed", "duplicate", "duplicate"])
    }
}
