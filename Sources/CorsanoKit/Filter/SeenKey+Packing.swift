/// A seen key in two 64-bit words, for the in-memory table and the store's compact rows: the
/// seconds, and nanoseconds (30 bits) | systolic (11) | diastolic (11) | pulse + 1 (11; 0 = none).
/// Plausible readings always fit; a key with values outside 0...2046 has no packed form and is
/// kept with its fields spelled out.
extension SeenKey {
    /// The largest pressure or pulse the packing holds.
    static let packingLimit = 2046

    /// The packed value word, or nil when a value does not fit.
    var packedWord: UInt64? {
        let limit = Self.packingLimit
        guard (0...limit).contains(systolic), (0...limit).contains(diastolic) else { return nil }
        let pulsePlusOne = pulse.map { $0 + 1 } ?? 0
        guard (0...limit + 1).contains(pulsePlusOne) else { return nil }
        return UInt64(UInt32(bitPattern: measuredAt.nanoseconds)) << 33
            | UInt64(systolic) << 22 | UInt64(diastolic) << 11 | UInt64(pulsePlusOne)
    }
}

extension SeenKey {
    /// The key whose packed form is (`seconds`, `word`): the inverse of `packedWord`; nil when
    /// the nanoseconds do not fit a second.
    init?(seconds: Int64, packedWord word: UInt64) {
        let nanos = Int32(truncatingIfNeeded: word >> 33)
        let pulsePlusOne = Int(word & 0x7FF)
        guard nanos >= 0, nanos < 1_000_000_000 else { return nil }
        self.init(measuredAt: Instant(secondsSinceEpoch: seconds, nanoseconds: nanos),
                  systolic: Int(word >> 22 & 0x7FF), diastolic: Int(word >> 11 & 0x7FF),
                  pulse: pulsePlusOne == 0 ? nil : pulsePlusOne - 1)
    }
}
