import CorsanoKit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A store no one can swap: a SQLite store deleted or replaced under a running
/// `replay-filter` takes no further claim (74 naming the store, the line not written), a 0-byte
/// file is refused instead of read as an empty store, and a new store is said once on stderr.
/// Before, each of these silently started the seen-set over and handed readings on again.
@Suite struct StoreIdentityTests {
    typealias E = BPInitE2E
    static let reading = PostgresEndToEndTests.reading

    /// A live `replay-filter` on `state` whose first line went through; `swap` then changes the
    /// file and a second line is sent: it must not be written.
    func runSwapping(_ swap: (String) throws -> Void) throws -> (status: Int32?, stdout: [String], stderr: String) {
        let dir = try E.directory()
        let state = dir.appendingPathComponent("state.sqlite3").path
        let run = try StreamedProcess.corsano(["replay-filter", "--state", state, "--max-reading-age", "none"], env: [:])
        run.send(Self.reading(1))
        #expect(run.stdout.waitFor(Self.reading(1)))
        try swap(state)
        run.send(Self.reading(2))
        run.closeInput()
        let status = run.finish(seconds: 30)
        return (status, run.stdout.lines, run.stderr.text)
    }

    @Test func aStoreDeletedWhileARunHasItOpenTakesNoFurtherClaim() throws {
        let (status, stdout, stderr) = try runSwapping { state in #expect(unlink(state) == 0) }
        #expect(status == 74, "\(stderr)")
        #expect(stdout == [Self.reading(1)], "the line after the deletion is not written")
        #expect(stderr.contains("state.sqlite3: the store file was deleted while corsano had it open"), "\(stderr)")
        // The counts line comes before the 74 (docs/design.md "Rejects and counts").
        let counts = try #require(stderr.range(of: "corsano: replay-filter: read 2, written 1,"), "\(stderr)")
        #expect(counts.lowerBound < (stderr.range(of: "the store file was deleted")?.lowerBound ?? stderr.startIndex), "\(stderr)")
    }

    @Test func aStoreReplacedWhileARunHasItOpenTakesNoFurtherClaim() throws {
        let (status, stdout, stderr) = try runSwapping { state in
            let other = state + ".other"
            _ = try SQLiteStore(path: other)
            #expect(rename(other, state) == 0)
        }
        #expect(status == 74, "\(stderr)")
        #expect(stdout == [Self.reading(1)], "the line after the swap is not written")
        #expect(stderr.contains("state.sqlite3: the store file was replaced by another file while corsano had it open"), "\(stderr)")
    }

    @Test func aZeroByteFileWhereAStoreIsExpectedIsRefused() throws {
        let dir = try E.directory()
        let state = try E.file(dir, "state.sqlite3", "")
        let r = try Corsano.run(["replay-filter", "--state", state, "--max-reading-age", "none"], stdin: Self.reading(1) + "\n")
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.lines.isEmpty)
        #expect(r.stderr.contains("state.sqlite3") && r.stderr.contains("the file is empty (0 bytes), not a state store"), "\(r.stderr)")
        #expect(r.stderr.contains("remove the file to start a new one"), "says how to fix it")
        #expect((try FileManager.default.attributesOfItem(atPath: state)[.size] as? Int) == 0, "left as it was")
    }

    @Test func aNewStoreIsSaidOnceOnStderr() throws {
        let dir = try E.directory()
        let state = dir.appendingPathComponent("sub/state.sqlite3").path
        let args = ["replay-filter", "--state", state, "--max-reading-age", "none"]
        let first = try Corsano.run(args, stdin: Self.reading(1) + "\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.components(separatedBy: "creating a new store").count == 2, "\(first.stderr)")
        #expect(first.stderr.contains("corsano: state store \(state): creating a new store"), "\(first.stderr)")
        let second = try Corsano.run(args, stdin: Self.reading(1) + "\n")
        #expect(!second.stderr.contains("creating a new store"), "\(second.stderr)")
        #expect(second.lines.isEmpty, "the store created first holds the claim")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (state as NSString).deletingLastPathComponent)
            .filter { $0.contains(".new-") }
        #expect(leftovers.isEmpty, "no temporary store left: \(leftovers)")
    }
}
