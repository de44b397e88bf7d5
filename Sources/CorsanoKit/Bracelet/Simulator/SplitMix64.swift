/// A small seeded PRNG (SplitMix64, Steele/Lea/Flood 2014) so a simulated bracelet is
/// deterministic for a `--seed` on every platform (the stdlib's generator is not seedable).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform Double in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    /// A uniform Double in [-spread, spread].
    public mutating func jitter(_ spread: Double) -> Double { (unit() * 2 - 1) * spread }
}
