/// The anchor pair read when the cuff connected: its clock and the phone's real time at that moment.
///
/// A naive cuff stamp becomes real time as `phone + (record - device)`, the difference taken as
/// elapsed seconds between two naive values: no host time zone or DST enters, and it is right
/// whatever year the cuff believes it is. Source: DESIGN "Host-side cuff rules", rule 1.
public struct ClockAnchor: Equatable, Sendable {
    /// The cuff clock at connect (naive).
    public var device: NaiveDateTime
    /// Real time at that same moment, UTC.
    public var phone: Instant

    /// Creates an anchor pair.
    public init(device: NaiveDateTime, phone: Instant) {
        self.device = device
        self.phone = phone
    }

    /// The real time of cuff stamp `record`; nil only if it would leave the representable range.
    public func realTime(of record: NaiveDateTime) -> Instant? {
        phone.adding(seconds: record.seconds(since: device))
    }
}

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
