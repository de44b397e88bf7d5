/// The last steps every ingested reading goes through, whatever its format: naive stamps to
/// real time, plausibility, the reported MAP, `--derive-map`.
public struct IngestNormalizer: Sendable {
    /// How naive stamps become real time.
    public var basis: NaiveTimeBasis { didSet { zoneDays = ZoneDayCache() } }
    /// The zone's offset per local day, so a run of stamps costs no zone lookups.
    private var zoneDays = ZoneDayCache()
    /// Plausibility rules.
    public var validator: ReadingValidator
    /// Fill in the derived MAP when the cuff reported none (`--derive-map`).
    public var deriveMAP: Bool
    /// The study participant every kept reading is stamped with (`--subject-id`, issue 33),
    /// replacing a `subject` the record carried; nil leaves readings as they are.
    public var subject: String?
    /// The cuff every reading came from, MAC or serial (`cuff ingest --cuff-id`, issue 32): written
    /// as the reading's `cuff` field; a reading naming another cuff is rejected. nil: left as read.
    public var cuffID: String?
    /// True once a naive stamp was read in the zone rather than with the anchor (the run then
    /// says which zone it used).
    public private(set) var usedZone = false

    /// Creates a normalizer.
    public init(basis: NaiveTimeBasis, validator: ReadingValidator = .standard, deriveMAP: Bool = false, subject: String? = nil) {
        self.basis = basis
        self.validator = validator
        self.deriveMAP = deriveMAP
        self.subject = subject
    }

    /// What becomes of one reading: kept (perhaps with a note on what changed) or rejected.
    public enum Verdict: Equatable, Sendable {
        case keep(note: String?)
        /// Rejected: a reading whose stamps or values fail (`--rejects` reason `invalid`).
        case reject(IngestIssue)
    }

    /// Finishes a reading in place: a naive `deviceTime` without `measuredAt` gets its real time
    /// (the raw stamp is kept as `deviceTime`), then plausibility, the reported MAP (dropped
    /// with a note when outside diastolic-systolic) and `--derive-map`.
    public mutating func finish(reading: inout CuffReading) -> Verdict {
        var notes: [String] = []
        if reading.measuredAt == nil, let stamp = reading.deviceTime {
            let viaZone = basis.anchor == nil || reading.isManualEntry
            var instant: Instant?
            if viaZone, let t = zoneDays.instant(stamp, in: basis.zone) {
                instant = t  // a day without a DST change: one offset for every wall time
            } else if viaZone {
                // A wall time in a DST gap names no instant; one in a repeated hour, two.
                switch basis.zone.reading(stamp, field: "deviceTime") {
                case .failure(let issue): return .reject(IngestIssue(issue.reason + " (--tz)", field: "deviceTime"))
                case .success(let (t, note)):
                    instant = t
                    if let note { notes.append(note) }
                }
            } else {
                instant = basis.realTime(of: stamp, isManualEntry: reading.isManualEntry).instant
            }
            guard let instant, RFC3339.representable.contains(instant) else {
                // An anchor pair years apart can shift a valid stamp past 9999 or before 0001:
                // such a time cannot be written as RFC 3339, and no reader would take it back.
                return .reject(IngestIssue("deviceTime: \(stamp) maps to a real time outside years 0001-9999"
                                           + (viaZone ? " (read in the zone)" : " (by the clock anchor)"), field: "deviceTime"))
            }
            reading.measuredAt = instant
            if viaZone { usedZone = true }
            if !viaZone, let anchor = basis.anchor {
                // The pair the time came from travels with the reading, as its other provenance
                // fields do, so a certificate can say which anchor a reading was converted through
                // (issue 36: `"anchor":{"device":"…","phone":"…"}`).
                reading.provenance.removeAll { $0.name == "anchor" }
                let pair: JSONValue = ["device": .string(anchor.device.description), "phone": .string(RFC3339.format(anchor.phone))]
                reading.provenance.append(ProvenanceField(name: "anchor", rawJSON: pair.serialized))
            }
        } else if let measuredAt = reading.measuredAt, !RFC3339.representable.contains(measuredAt) {
            // A UTC offset can carry a stamp at the edge of year 0001 or 9999 across it.
            return .reject(IngestIssue("measuredAt: outside years 0001-9999 in UTC", field: "measuredAt"))
        }
        if let issue = validator.validate(reading) { return .reject(IngestIssue(issue.reason, field: issue.field)) }
        if let cuffID {
            if let named = reading.cuffID {
                guard named.caseInsensitiveCompare(cuffID) == .orderedSame else {
                    return .reject(IngestIssue("cuff: the record names cuff \(named), --cuff-id says \(cuffID)", field: "cuff"))
                }
            } else {
                reading.provenance.removeAll { $0.name == "cuff" }
                reading.provenance.append(ProvenanceField(name: "cuff", rawJSON: JSONValue.string(cuffID).serialized))
            }
        }
        if let issue = validator.reportedMAPIssue(reading) {
            notes.append(issue.reason)
            reading.meanArterialPressure = nil
        }
        if deriveMAP, reading.meanArterialPressure == nil {
            reading.meanArterialPressure = reading.effectiveMeanArterialPressure
        }
        if let subject { reading = reading.withSubject(subject) }
        return .keep(note: notes.isEmpty ? nil : notes.joined(separator: "; "))
    }
}
