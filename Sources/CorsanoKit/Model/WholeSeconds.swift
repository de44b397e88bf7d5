/// Seconds as every output reports them: whole seconds, truncated toward zero. The one rule for a
/// reading's reported age (bp-init's `{"kind":"staleReading","age":N}`, replay-filter's
/// `stale (age N s)` and its `--rejects` `age`) and for the durations a `started` event's config
/// carries.
///
/// The age rule itself judges the exact age (docs/design.md "Host-side cuff rules", rule 4: stale
/// when |now - measuredAt| exceeds maxReadingAge), so a reading 900.4 s old is stale under a 900 s
/// limit and is reported as `age 900`: a reported age may equal the limit, never fall below it.
public enum WholeSeconds {
    /// `seconds` (negative when future-dated) truncated toward zero, clamped so that no value
    /// traps: beyond `Int`'s range (or infinite) `Int.max`/`Int.min`, NaN 0.
    public static func truncating(_ seconds: Double) -> Int {
        guard !seconds.isNaN else { return 0 }
        return Int(exactly: seconds.rounded(.towardZero)) ?? (seconds < 0 ? Int.min : Int.max)
    }
}
