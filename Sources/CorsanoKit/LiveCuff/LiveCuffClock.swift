/// How a live cuff's record stamps become real time over a run: host rule 1 with the anchor
/// pair read from the cuff's own clock at each connect (docs/design.md "Host-side cuff rules", rule 1;
/// seed "Pass real wall-clock time in measuredAt").
///
/// Two things a per-connect anchor alone gets wrong, handled here:
/// - The clock is read to the second, so two reads of the same clock disagree by up to a second.
///   Host rule 3 keys on the exact instant, so a record replayed on the next connect must map to
///   the same instant as before: an anchor read that agrees with the kept one within
///   `jitterSeconds` keeps the old one.
/// - After `--set-clock` wrote the host's time, the records the cuff stored before still carry
///   the old clock's stamps (and a cuff that dumps its memory at every connect sends them again),
///   later ones the new clock's. The collector writes only once the stored records have arrived,
///   so a record seen before the write is the old clock's (`remember`), as is a stamp earlier
///   than the written time (the new clock never wrote one); anything else is the new clock's.
public struct LiveCuffClock: Sendable {
    /// The disagreement two reads of an unchanged clock may show, seconds.
    public static let jitterSeconds: Int64 = 2

    /// The anchor in force (nil: the cuff has no readable clock; stamps are read in `zone`).
    public private(set) var anchor: ClockAnchor?
    /// The clock change `--set-clock` made, if any.
    public private(set) var correction: Correction?
    /// Where stamps are read without an anchor (`--tz`).
    public let zone: ZoneReader
    /// Records seen before the clock was written (their stamps are the old clock's).
    private var beforeWrite: Set<RecordKey> = []

    /// A clock write: the anchors before and after it.
    public struct Correction: Equatable, Sendable {
        /// The anchor of the clock before the write (nil: it had none; its stamps read in the zone).
        public var before: ClockAnchor?
        /// The anchor of the written clock.
        public var after: ClockAnchor
        /// The written time (stamps of the new clock are this or later).
        public var written: NaiveDateTime
    }

    /// A record as the cuff stores it.
    struct RecordKey: Hashable, Sendable {
        var stamp: NaiveDateTime
        var systolic: Int, diastolic: Int, pulse: Int?
    }

    /// What a clock read at connect came to, for the connection messages.
    public enum Reading: Equatable, Sendable {
        /// A first anchor: the cuff's clock and how far it is from the host's time (seconds, cuff minus host).
        case anchored(ClockAnchor, offsetSeconds: Int64)
        /// A read that agrees with the kept anchor (same clock, read again).
        case unchanged(ClockAnchor)
        /// The clock moved since the last connect by `seconds`: the new anchor is used from now on.
        case moved(ClockAnchor, seconds: Int64)
        /// The cuff has no clock characteristic, or says its time is unknown: stamps read in `zone`.
        case none
    }

    /// Creates a basis with no anchor yet.
    public init(zone: ZoneReader) { self.zone = zone }

    /// Takes the cuff clock read at a connect (`clock` nil: none) at host time `hostNow`.
    public mutating func connected(clock: CuffClockValue?, hostNow: Instant) -> Reading {
        guard let clock else {
            return anchor.map { .unchanged($0) } ?? .none
        }
        let read = Self.anchor(clock, hostNow: hostNow)
        guard let kept = anchor else {
            anchor = read
            return .anchored(read, offsetSeconds: offsetFromHost(read))
        }
        let drift = (kept.realTime(of: read.device)?.secondsSinceEpoch ?? 0) - read.phone.secondsSinceEpoch
        if abs(drift) <= Self.jitterSeconds { return .unchanged(kept) }
        anchor = read
        return .moved(read, seconds: drift)
    }

    /// Records that `written` was written to the cuff's clock at host time `hostNow` (the first
    /// write of a run is the one that splits old stamps from new).
    public mutating func wrote(_ written: NaiveDateTime, hostNow: Instant) {
        let after = ClockAnchor(device: written, phone: Instant(secondsSinceEpoch: hostNow.secondsSinceEpoch))
        if correction == nil { correction = Correction(before: anchor, after: after, written: written) }
        anchor = after
    }

    /// Notes a record that arrived before any clock write (`--set-clock` runs only).
    public mutating func remember(_ reading: CuffReading) {
        guard correction == nil, let key = Self.key(reading) else { return }
        beforeWrite.insert(key)
    }

    /// How `reading`'s `deviceTime` becomes real time: the basis to finish it with.
    public func basis(for reading: CuffReading) -> NaiveTimeBasis {
        guard let correction, let key = Self.key(reading) else { return NaiveTimeBasis(anchor: anchor, zone: zone) }
        let oldClock = beforeWrite.contains(key) || key.stamp.seconds(since: correction.written) < -Self.jitterSeconds
        return NaiveTimeBasis(anchor: oldClock ? correction.before : anchor, zone: zone)
    }

    static func key(_ reading: CuffReading) -> RecordKey? {
        reading.deviceTime.map { RecordKey(stamp: $0, systolic: reading.systolic, diastolic: reading.diastolic, pulse: reading.pulse) }
    }

    /// The anchor of one clock read: the fraction of a second the cuff reports taken off the host
    /// time, rounded to whole seconds (cuff stamps have whole seconds).
    static func anchor(_ clock: CuffClockValue, hostNow: Instant) -> ClockAnchor {
        let exact = hostNow.adding(interval: -clock.fraction)
        let rounded = exact.secondsSinceEpoch + (exact.nanoseconds >= 500_000_000 ? 1 : 0)
        return ClockAnchor(device: clock.time, phone: Instant(secondsSinceEpoch: rounded))
    }

    /// Cuff clock minus the host's wall time in `zone`, seconds (negative: the cuff is behind).
    public func offsetFromHost(_ anchor: ClockAnchor) -> Int64 {
        zone.wallTime(of: anchor.phone).map { anchor.device.seconds(since: $0) } ?? 0
    }
}
