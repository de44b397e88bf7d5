/// How naive stamps become real time in one run: the clock anchor when given, else a zone.
///
/// Manual entries are never shifted by the anchor: a person typed them from a real clock, so
/// their naive stamps are read in the zone even when an anchor is set.
public struct NaiveTimeBasis: Sendable {
    /// The anchor pair, if the run has one.
    public var anchor: ClockAnchor?
    /// The zone naive stamps are read in without an anchor (and manual entries always).
    public var zone: ZoneReader

    /// Creates a basis.
    public init(anchor: ClockAnchor?, zone: ZoneReader) {
        self.anchor = anchor
        self.zone = zone
    }

    /// The real time of `stamp`, and whether the zone (not the anchor) was used.
    public func realTime(of stamp: NaiveDateTime, isManualEntry: Bool) -> (instant: Instant?, viaZone: Bool) {
        if let anchor, !isManualEntry { return (anchor.realTime(of: stamp), false) }
        return (zone.instant(for: stamp), true)
    }
}
