/// The anchor pair read when the cuff connected: its clock and the phone's real time at that moment.
///
/// A naive cuff stamp becomes real time as `phone + (record - device)`, the difference taken as
/// elapsed seconds between two naive values: no host time zone or DST enters, and it is right
/// whatever year the cuff believes it is. Source: docs/design.md "Host-side cuff rules", rule 1.
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

    /// The real time of cuff stamp `record`; nil only if it would leave Int64 seconds. It may
    /// still lie outside `RFC3339.representable` (an anchor pair years apart): callers check.
    public func realTime(of record: NaiveDateTime) -> Instant? {
        phone.adding(seconds: record.seconds(since: device))
    }
}
