import CorsanoKit
import Foundation
import Testing

/// The commit → write → release protocol of replay-filter, in the core and over a real
/// SQLite file: driven through `ReplayFilterSession.commit(to:)` with sinks that fail mid-way,
/// then a second run over the same store; no binary involved.
@Suite struct ReplayFilterProtocolTests {
    static let now = RFC3339.parseInstant("2026-11-29T10:30:00Z")!

    /// `count` distinct readings, about 100 bytes each.
    static func lines(_ count: Int) -> [String] {
        (0..<count).map { i in
            let base = RFC3339.parseInstant("2026-11-29T10:20:00Z")!
            let at = RFC3339.format(Instant(secondsSinceEpoch: base.secondsSinceEpoch + Int64(i / 100), nanoseconds: Int32(i % 100) * 10_000_000))
            return #"{"systolic":\#(100 + i % 150),"diastolic":70,"pulse":\#(50 + i % 60),"measuredAt":"\#(at)","note":"padding to about one hundred bytes"}"#
        }
    }

    /// A stdout that takes the first `capacity` lines and then fails (a reader that went, a
    /// full disk): a short write reports the lines it took.
    struct FailingSink: FilterBatchSink {
        var capacity: Int
        var written: [String] = []
        var writes: [Int] = []
        var duplicates: [Int] = []
        mutating func write(kept bytes: UnsafeBufferPointer<UInt8>, lines: Int) -> Int {
            writes.append(bytes.count)
            let all = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            let taken = all.prefix(max(0, capacity - written.count))
            written += taken
            return taken.count
        }
        mutating func dropped(_ drop: FilterDrop) { if drop.word == "duplicate" { duplicates.append(drop.line) } }
    }

    /// The store's seen-set, whose release can be made to fail as if the process had died
    /// between the commit and the release (a crash: the claims stay).
    final class Crashable: SeenSet {
        let inner: StoreSeenSet
        var dead = false
        struct Died: Error {}
        init(_ inner: StoreSeenSet) { self.inner = inner }
        func contains(_ key: SeenKey) throws -> Bool { try inner.contains(key) }
        func containedKeys(_ keys: [SeenKey]) throws -> Set<SeenKey> { try inner.containedKeys(keys) }
        func insert(_ key: SeenKey) throws -> Bool { try inner.insert(key) }
        func commitPending() throws -> Set<SeenKey> { try inner.commitPending() }
        func release(_ keys: [SeenKey]) throws {
            if dead { throw Died() }
            try inner.release(keys)
        }
    }

    static func store() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("protocol-\(UInt64.random(in: 0...UInt64.max)).sqlite3").path
    }

    /// Runs `lines` through a session the way replay-filter does: a commit before a kept line
    /// would take the batch past `CommitBatch.standard.bytes`, and one at the end.
    static func run(_ lines: [String], seen: any SeenSet, sink: inout FailingSink, stopAfterFailure: Bool = true) throws -> [FilterBatchOutcome] {
        var session = ReplayFilterSession(filter: ReplayFilter(rules: HostRules(), seen: seen), keepsDroppedText: false)
        var outcomes: [FilterBatchOutcome] = []
        for (i, text) in lines.enumerated() {
            var bytes = Array(text.utf8)
            if session.isFull(adding: bytes.count) {
                outcomes.append(try session.commit(to: &sink))
                if stopAfterFailure, outcomes.last!.unwritten > 0 { return outcomes }  // as replay-filter stops on a failed stdout
            }
            _ = try bytes.withUnsafeMutableBytes { try session.judge(line: UnsafeRawBufferPointer($0), number: i + 1, now: now) }
        }
        outcomes.append(try session.commit(to: &sink))
        return outcomes
    }

    /// A write that fails mid-way: the lines it did not take are not passed (their claims are
    /// released), so a rerun over the same store hands on exactly those, and nothing twice.
    @Test func aShortWriteReleasesTheRestAndARerunHandsOnExactlyThose() throws {
        let path = Self.store()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let input = Self.lines(25_000)  // ~2.5 MB: several batches
        var first = FailingSink(capacity: 900)
        let outcomes = try Self.run(input, seen: StoreSeenSet(store: SQLiteStore(path: path), scope: "p"), sink: &first)
        #expect(first.written.count == 900 && first.written == Array(input.prefix(900)))
        let failed = try #require(outcomes.last)
        #expect(failed.unwritten > 0 && failed.released == failed.unwritten && failed.releaseError == nil)
        #expect(first.writes.allSatisfy { $0 <= CommitBatch.standard.bytes }, "each claim covers at most one batch's write")

        var second = FailingSink(capacity: .max)
        _ = try Self.run(input, seen: StoreSeenSet(store: SQLiteStore(path: path), scope: "p"), sink: &second)
        #expect(second.written.count == 24_100, "exactly what the first run did not write")
        #expect(second.written.first == input[900] && second.written.last == input.last)
        #expect(second.duplicates.count == 900 && second.duplicates.last == 900)
        #expect(Set(first.written + second.written).count == input.count, "nothing lost, nothing twice")
    }

    /// A crash between a commit and the write (the release never happens): the rerun loses at
    /// most that one write's lines, and hands on none twice.
    @Test func aCrashAfterTheCommitLosesAtMostOneWriteAndNothingTwice() throws {
        let path = Self.store()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let input = Self.lines(25_000)
        let seen = Crashable(try StoreSeenSet(store: SQLiteStore(path: path), scope: "p"))
        seen.dead = true
        var first = FailingSink(capacity: 900)
        let outcomes = try Self.run(input, seen: seen, sink: &first)
        let crashed = try #require(outcomes.last)
        #expect(crashed.releaseError is Crashable.Died && crashed.released == 0)
        let lost = crashed.unwritten
        #expect(lost > 0)

        var second = FailingSink(capacity: .max)
        _ = try Self.run(input, seen: StoreSeenSet(store: SQLiteStore(path: path), scope: "p"), sink: &second)
        let handedOn = first.written + second.written
        #expect(Set(handedOn).count == handedOn.count, "nothing handed on twice")
        #expect(input.count - handedOn.count == lost, "only the lines of the write in flight are lost")
        #expect(lost * 100 <= CommitBatch.standard.bytes + 200, "at most one batch's write")
    }
}
