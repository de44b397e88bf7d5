import CorsanoKit
import Foundation
import Testing

/// A damaged SQLite store is refused, not believed (docs/design.md "State store"): random bit
/// flips in a store that has seen every record of an input, then the same input through
/// `replay-filter` again. A flip the checks cannot see may pass (free space, the audit tables),
/// but a run that exits 0 having handed on a record the store had seen never may; a refusal is
/// 74 naming the store, the check that failed and how to recover.
@Suite struct DamagedStoreTests {
    /// `count` readings a minute apart.
    static func readings(_ count: Int) -> String {
        let start = RFC3339.parseInstant("2026-01-01T00:00:00Z")!
        return (0..<count).map { i in
            #"{"systolic":\#(110 + i % 40),"diastolic":\#(70 + i % 20),"pulse":\#(60 + i % 30),"measuredAt":"\#(RFC3339.format(start.adding(interval: Double(60 * i))))"}"#
        }.joined(separator: "\n") + "\n"
    }

    static let filter = ["replay-filter", "--max-reading-age", "none"]

    @Test func sixtySeedsOfBitFlipsNeverReHandASeenRecord() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let clean = dir.appendingPathComponent("clean.sqlite3").path
        let input = Self.readings(15_000)
        let first = try Corsano.run(Self.filter + ["--state", clean], stdin: input)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.lines.count == 15_000)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: clean))
        #expect(bytes.count > 300_000, "a store of \(bytes.count) bytes")
        // Undamaged, the store holds back every record.
        let again = try Corsano.run(Self.filter + ["--state", clean], stdin: input)
        #expect(again.status == 0 && again.lines.isEmpty, "\(again.stderr)")

        var refused = 0, passed = 0, reHanded: [String] = []
        for seed in 0..<60 {
            var rng = SplitMix64(seed: UInt64(seed))
            var damaged = [UInt8](bytes)
            let flips = 1 + Int(rng.next() % 20)
            for _ in 0..<flips {
                let bit = Int(rng.next() % UInt64(damaged.count * 8))
                damaged[bit / 8] ^= UInt8(1 << (bit % 8))
            }
            let path = dir.appendingPathComponent("seed\(seed).sqlite3").path
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            let r = try Corsano.run(Self.filter + ["--state", path], stdin: input)
            if r.status == 0 {
                passed += 1
                if !r.lines.isEmpty { reHanded.append("seed \(seed) (\(flips) flips): \(r.lines.count) re-handed") }
            } else {
                refused += 1
                #expect(r.status == 74, "seed \(seed): \(r.status) \(r.stderr)")
                #expect(r.stderr.contains(path), "seed \(seed): \(r.stderr)")
                #expect(r.stderr.contains("quick_check") || r.stderr.contains("checksum") || r.stderr.contains("malformed")
                        || r.stderr.contains("not a database"), "seed \(seed) names no check: \(r.stderr)")
            }
            try? FileManager.default.removeItem(atPath: path)
        }
        print("bit flips: \(refused) of 60 refused (74), \(passed) passed, \(reHanded.count) re-handed a seen record")
        #expect(reHanded.isEmpty, "\(reHanded)")
    }

    /// One changed row (a seen key's value, as a flipped bit leaves it) is found by its checksum:
    /// 74 naming the check and how to recover, nothing handed on.
    @Test func aChangedSeenRowIsRefusedByItsChecksum() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("state.sqlite3").path
        let input = Self.readings(50)
        #expect(try Corsano.run(Self.filter + ["--state", path], stdin: input).status == 0)
        let store = try SQLiteStore(path: path)
        try store.execute("UPDATE seen_reading SET packed = packed + 1 WHERE seconds = (SELECT min(seconds) FROM seen_reading)")
        let r = try Corsano.run(Self.filter + ["--state", path], stdin: input)
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.lines.isEmpty)
        #expect(r.stderr.contains(path) && r.stderr.contains("fails its row checksums") && r.stderr.contains("restore it from a backup"),
                "\(r.stderr)")
    }
}
