/// Applies the host rules to readings in order, with a seen-set: the core of `replay-filter`,
/// reused by `bp-init` with a per-run `InMemorySeenSet` and the flow's clock.
///
/// Per reading (docs/design.md "Time", seed "Replayed and stale readings"):
/// `unanchored` → replayed (measuredAt < requestedAt - backdate; exactly the allowance is kept) →
/// duplicate (key already seen) → `stale`/`future` (|now - measuredAt| > maxReadingAge; exactly
/// the limit is kept) → kept, and only then does the key enter the seen-set. Unstamped readings
/// skip replayed, duplicate and age; a stamped manual entry is a record of the past and passes
/// replayed and duplicate like any other (docs/design.md "Host-side cuff rules", rules 2 and 3), and only
/// age keeps the seed's exemption for manual entries ("there is no cuff clock behind them").
/// A dropped reading never enters the set.
public final class ReplayFilter {
    /// The configured rules.
    public let rules: HostRules
    /// Where kept keys go; the caller commits it (`commitPending`) before handing a line on, and
    /// drops the lines of keys it reports lost (shared store: another process had them first).
    public let seen: any SeenSet

    /// Creates a filter over `seen` (shared state or per run).
    public init(rules: HostRules, seen: any SeenSet) {
        self.rules = rules
        self.seen = seen
    }

    /// Judges `reading` at `now` (UTC), claiming its key when kept. With a batching seen-set a
    /// `.keep` is final only once `seen.commitPending()` did not return its key.
    /// - Throws: what the seen-set throws (`StoreError` for the state store); nothing is
    ///   recorded then.
    public func judge(_ reading: CuffReading, now: Instant) throws -> FilterDecision {
        try judge(ReadingEssentials(reading), now: now)
    }

    /// The rules on what they read of a reading (the `replay-filter` hot path comes here directly).
    @inline(__always)
    func judge(_ reading: ReadingEssentials, now: Instant) throws -> FilterDecision {
        var lookup: SeenKey?
        let decision = try judge(reading, now: now, lookup: &lookup)
        // Rule 3 comes before age: a stale copy of a handed-on record is a duplicate.
        if let key = lookup, try seen.contains(key) { return .drop(.duplicate) }
        return decision
    }

    /// `judge(_:now:)` leaving its one seen-set read to the caller: a `stale` or `future` drop
    /// of a reading with a key sets `lookup` to that key, and the drop is a `duplicate` instead
    /// when the seen-set contains it (rule 3 before age). `ReplayFilterSession` asks for a whole
    /// batch's keys at once, one query on a shared store instead of one per line.
    @inline(__always)
    func judge(_ reading: ReadingEssentials, now: Instant, lookup: inout SeenKey?) throws -> FilterDecision {
        if let reason = Self.anchorOrReplayRule(reading, rules: rules) { return .drop(reason) }
        guard let key = SeenKey(reading) else { return .keep }
        if let (reason, age) = Self.ageRule(reading, rules: rules, now: now) {
            lookup = key
            return .drop(reason, age: age)
        }
        // The insert decides (another writer may have taken the key since any read).
        return try seen.insert(key) ? .keep : .drop(.duplicate)
    }

    /// `unanchored` or `replayed`, the rules that come before the seen-set.
    @inline(__always)
    static func anchorOrReplayRule(_ reading: ReadingEssentials, rules: HostRules) -> DropReason? {
        guard let at = reading.measuredAt else { return reading.hasDeviceTime ? .unanchored : nil }
        // Manual or not: a typed entry stamped last year is not the measurement just requested.
        if let requested = rules.requestedAt, requested.seconds(since: at) > rules.backdate {
            return .replayed
        }
        return nil
    }

    /// `stale` (age > limit) or `future` (age < -limit), with the signed age in seconds.
    @inline(__always)
    static func ageRule(_ reading: ReadingEssentials, rules: HostRules, now: Instant) -> (DropReason, Double)? {
        guard !reading.isManualEntry, let limit = rules.maxReadingAge, let at = reading.measuredAt else { return nil }
        let age = now.seconds(since: at)
        guard age.magnitude > limit else { return nil }
        return (age < 0 ? .future : .stale, age)
    }
}
