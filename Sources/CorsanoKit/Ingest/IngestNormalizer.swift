/// The last steps every ingested record goes through, whatever its format: naive stamps to
/// real time, plausibility, the reported MAP, `--derive-map`.
public struct IngestNormalizer: Sendable {
    /// What became of one record.
    public enum Outcome: Equatable, Sendable {
        /// Write this reading; `notes` say what was changed (a dropped MAP).
        case write(CuffReading, notes: [String])
        case skip(SkipReason)
        /// Reject, with a reason naming the field.
        case reject(String)
        /// Not a record (blank line, header).
        case none
    }

    /// How naive stamps become real time.
    public var basis: NaiveTimeBasis
    /// Plausibility rules.
    public var validator: ReadingValidator
    /// Fill in the derived MAP when the cuff reported none (`--derive-map`).
    public var deriveMAP: Bool
    /// True once a naive stamp was read in the zone rather than with the anchor (the run then
    /// says which zone it used).
    public private(set) var usedZone = false

    /// Creates a normalizer.
    public init(basis: NaiveTimeBasis, validator: ReadingValidator = .standard, deriveMAP: Bool = false) {
        self.basis = basis
        self.validator = validator
        self.deriveMAP = deriveMAP
    }

    /// Finishes `record`: a reading with a naive `deviceTime` and no `measuredAt` gets its real
    /// time (the raw stamp is kept as `deviceTime`), then is validated.
    public mutating func finish(_ record: IngestRecord) -> Outcome {
        switch record {
        case .none: return .none
        case .skipped(let why): return .skip(why)
        case .reading(var reading):
            if reading.measuredAt == nil, let stamp = reading.deviceTime {
                let (instant, viaZone) = basis.realTime(of: stamp, isManualEntry: reading.isManualEntry)
                guard let instant else { return .reject("deviceTime: \(stamp) cannot be mapped to real time") }
                reading.measuredAt = instant
                if viaZone { usedZone = true }
            }
            if let issue = validator.validate(reading) { return .reject(issue.reason) }
            var notes: [String] = []
            if let issue = validator.reportedMAPIssue(reading) {
                notes.append(issue.reason)
                reading.meanArterialPressure = nil
            }
            if deriveMAP, reading.meanArterialPressure == nil {
                reading.meanArterialPressure = reading.effectiveMeanArterialPressure
            }
            return .write(reading, notes: notes)
        }
    }
}
