/// The identity of a record for seed rule 3: measuredAt as an instant AND systolic, diastolic,
/// pulse — never time alone. MAP and provenance are not part of it.
public struct SeenKey: Hashable, Sendable {
    /// measuredAt, compared as an instant (`19:00:40Z` == `21:00:40+02:00`).
    public var measuredAt: Instant
    /// Systolic, diastolic (mmHg), pulse (bpm; nil when the cuff sent none).
    public var systolic: Int, diastolic: Int, pulse: Int?

    /// Creates a key.
    public init(measuredAt: Instant, systolic: Int, diastolic: Int, pulse: Int?) {
        self.measuredAt = measuredAt
        self.systolic = systolic
        self.diastolic = diastolic
        self.pulse = pulse
    }

    /// The reading's key; nil for unstamped readings, which are never deduplicated (values alone
    /// are not a key). A stamped manual entry has one (docs/design.md "Host-side cuff rules", rule 3: the
    /// same typed entry exported twice is the same record).
    public init?(_ reading: CuffReading) {
        self.init(ReadingEssentials(reading))
    }

    /// The key of a reading judged on its essentials (`replay-filter`'s hot path).
    @inline(__always)
    init?(_ reading: ReadingEssentials) {
        guard let at = reading.measuredAt else { return nil }
        self.init(measuredAt: at, systolic: reading.systolic, diastolic: reading.diastolic, pulse: reading.pulse)
    }
}

/// The records already handed on (seed rule 3).
///
/// A shared (batching) set claims keys provisionally: `insert` answers false for a key it knows
/// is taken, true otherwise, and `commitPending` makes the batch's claims final, returning those
/// another writer held first (their lines must not be written). A per-run set decides at once and
/// never loses a claim.
public protocol SeenSet: AnyObject {
    /// Whether `key` was already handed on (or claimed in the open batch). - Throws: store errors.
    func contains(_ key: SeenKey) throws -> Bool
    /// The members of `keys` that `contains` would answer true for, asked at once (one query on
    /// a shared store; the default asks `contains` per key). - Throws: store errors.
    func containedKeys(_ keys: [SeenKey]) throws -> Set<SeenKey>
    /// What stops an operation of this set that waits on others (a claim waiting on another
    /// writer's lock), callable from any thread (a signal's): the operation then throws and no
    /// claim of its batch holds. nil when the set never waits on others (the default).
    var interrupter: (@Sendable () -> Void)? { get }
    /// Claims `key`; false when it is already taken. - Throws: store errors.
    func insert(_ key: SeenKey) throws -> Bool
    /// Makes the open batch's claims durable and visible to other writers, and returns the keys
    /// whose claim lost (already held). A kept line may be written only after this.
    /// - Throws: store errors; then no claim of the batch holds.
    func commitPending() throws -> Set<SeenKey>
    /// Gives back committed claims whose lines were never written (a failed write on stdout), in
    /// one transaction, so a later run hands those readings on instead of dropping them as
    /// duplicates. Keys not held are ignored.
    /// - Throws: store errors; then every claim still holds.
    func release(_ keys: [SeenKey]) throws
}

extension SeenSet {
    public var interrupter: (@Sendable () -> Void)? { nil }

    public func containedKeys(_ keys: [SeenKey]) throws -> Set<SeenKey> {
        var found: Set<SeenKey> = []
        for key in keys where try contains(key) { found.insert(key) }
        return found
    }
}

/// A seen-set for one process run (`--no-state`; `bp-init`'s per-run set).
public final class InMemorySeenSet: SeenSet {
    private var keys: SeenKeyTable

    /// Creates an empty set with room for about `expectedKeys` keys before it grows (a hint:
    /// sized up front, a large set skips the rehashing on the way).
    public init(expectedKeys: Int = 0) {
        keys = SeenKeyTable(minimumCapacity: max(1 << 13, expectedKeys))
    }

    /// Keys given back (`release`): the open-addressing table has no removal, and a release is
    /// rare (a failed write), so they are set aside until claimed again.
    private var released: Set<SeenKey> = []

    public func contains(_ key: SeenKey) -> Bool {
        keys.contains(key) && (released.isEmpty || !released.contains(key))
    }

    public func insert(_ key: SeenKey) -> Bool {
        if !released.isEmpty, released.remove(key) != nil { return true }
        return keys.insert(key)
    }

    public func commitPending() -> Set<SeenKey> { [] }

    public func release(_ keys: [SeenKey]) {
        for key in keys where self.keys.contains(key) { released.insert(key) }
    }
    /// How many keys are held.
    public var count: Int { keys.count }
}
