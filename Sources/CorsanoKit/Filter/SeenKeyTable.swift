#if canImport(Glibc)
import Glibc
#endif

/// A set of `SeenKey`s for the per-run seen-set's hot path: open addressing over 16-byte packed
/// slots (seconds; nanoseconds, systolic, diastolic, pulse in one word). Cuff dumps arrive
/// roughly in time order, so a key's first slot is chosen by its minute (neighbouring readings
/// share cache lines instead of missing to memory on every insert); a collision probes the next
/// few slots (same cache lines), then jumps by a stride from a seeded hash of the whole key
/// (double hashing), so a flood of readings in one minute scatters instead of forming one run. Keys whose values do not fit the packing
/// (pressures or pulse outside 0...2046) go to a plain `Set`.
struct SeenKeyTable {
    /// seconds and `SeenKey.packedWord`.
    private struct Slot: Equatable {
        var seconds: Int64
        var packed: UInt64
        /// Real nanoseconds are < 1e9 < 2^30, so an all-ones word is never a key.
        static let empty = Slot(seconds: 0, packed: .max)
    }

    private var slots: [Slot]
    private var mask: Int
    private var used = 0
    private var unpackable: Set<SeenKey> = []
    private let seed = UInt64.random(in: .min ... .max)

    /// Creates an empty table with room for about `minimumCapacity` keys before it grows.
    init(minimumCapacity: Int = 1 << 13) {
        var size = 16
        while size * 3 < minimumCapacity * 4 { size *= 2 }
        slots = Self.emptySlots(size)
        mask = size - 1
    }

    /// Empties the table, keeping its room.
    mutating func removeAll() {
        guard count > 0 else { return }
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: .empty) }
        used = 0
        unpackable.removeAll()
    }

    /// Number of keys held.
    var count: Int { used + unpackable.count }

    /// Whether `key` is held.
    func contains(_ key: SeenKey) -> Bool {
        guard let slot = Self.pack(key) else { return unpackable.contains(key) }
        let (first, step) = probe(slot)
        let mask = mask
        return slots.withUnsafeBufferPointer { s in
            var (i, n) = (first, 0)
            while s[i] != .empty {
                if s[i] == slot { return true }
                Self.advance(&i, &n, step, mask)
            }
            return false
        }
    }

    /// Adds `key`; true when it was not held.
    mutating func insert(_ key: SeenKey) -> Bool {
        guard let slot = Self.pack(key) else { return unpackable.insert(key).inserted }
        if (used + 1) * 4 > slots.count * 3 { grow() }
        let (first, step) = probe(slot)
        let mask = mask
        let inserted = slots.withUnsafeMutableBufferPointer { s in
            var (i, n) = (first, 0)
            while s[i] != .empty {
                if s[i] == slot { return false }
                Self.advance(&i, &n, step, mask)
            }
            s[i] = slot
            return true
        }
        if inserted { used += 1 }
        return inserted
    }

    private static func pack(_ key: SeenKey) -> Slot? {
        key.packedWord.map { Slot(seconds: key.measuredAt.secondsSinceEpoch, packed: $0) }
    }

    /// First slot (4 per 64-second bin, by time) and an odd probe stride (by hash).
    @inline(__always) private func probe(_ s: Slot) -> (Int, Int) { Self.probe(s, seed: seed, mask: mask) }

    @inline(__always) private static func probe(_ s: Slot, seed: UInt64, mask: Int) -> (Int, Int) {
        var h = (UInt64(bitPattern: s.seconds) ^ seed) &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ (h >> 29) ^ s.packed) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        let first = Int(truncatingIfNeeded: (UInt64(bitPattern: s.seconds) >> 6) << 2 | (h & 3)) & mask
        return (first, Int(truncatingIfNeeded: h >> 8) | 1)
    }

    /// The probe sequence: 7 neighbouring slots, then strides.
    @inline(__always) private static func advance(_ i: inout Int, _ n: inout Int, _ step: Int, _ mask: Int) {
        n += 1
        i = (i &+ (n < 8 ? 1 : step)) & mask
    }

    /// `count` empty slots. A large table asks for transparent huge pages before its first
    /// touch: a million keys fill 32 MiB, and 4 KiB pages cost a fault each (a hint; ignored
    /// where unsupported).
    private static func emptySlots(_ count: Int) -> [Slot] {
        [Slot](unsafeUninitializedCapacity: count) { buffer, initialized in
            #if os(Linux)
            let huge = 2 << 20
            if let base = buffer.baseAddress, count * MemoryLayout<Slot>.stride >= 2 * huge {
                let from = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
                let to = (Int(bitPattern: base) + count * MemoryLayout<Slot>.stride) & ~(huge - 1)
                if to > from { _ = madvise(UnsafeMutableRawPointer(bitPattern: from), to - from, MADV_HUGEPAGE) }
            }
            #endif
            buffer.initialize(repeating: .empty)
            initialized = count
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Self.emptySlots(old.count * 2)
        mask = slots.count - 1
        let (mask, seed) = (mask, seed)
        slots.withUnsafeMutableBufferPointer { s in
            for slot in old where slot != .empty {
                let (first, step) = Self.probe(slot, seed: seed, mask: mask)
                var (i, n) = (first, 0)
                while s[i] != .empty { Self.advance(&i, &n, step, mask) }
                s[i] = slot
            }
        }
    }
}
