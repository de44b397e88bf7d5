/// Why a reading is not plausible, naming the field at fault.
public struct ValidationIssue: Error, Equatable, Sendable {
    /// The reading field at fault (`systolic`, `diastolic`, `pulse`).
    public var field: String
    /// What is wrong with it.
    public var message: String

    /// Creates an issue.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// `field: message`, as printed after `FILE:LINE: `.
    public var reason: String { "\(field): \(message)" }
}

/// Plausibility rules for a cuff reading: ranges, systolic above diastolic, a reported MAP
/// between them. Shared by `cuff ingest` (rejects) and `replay-filter` (its `invalid` reason).
///
/// The ranges (mmHg; pulse in bpm) are wide on purpose: they catch decoding errors and unit
/// mix-ups (a kPa value read as mmHg, a NaN read as 2047), not clinical extremes. Systolic
/// 50-300 and diastolic 20-200 cover every reading an oscillometric cuff reports (most cap
/// at 280-300 mmHg); pulse 20-250 spans the cuffs' usual 30-199/40-180 bpm display ranges
/// with margin. Source: IEC 80601-2-30 measurement ranges; docs/design.md "Cuff input formats".
public struct ReadingValidator: Equatable, Sendable {
    /// Accepted systolic pressures, mmHg.
    public var systolic: ClosedRange<Int>
    /// Accepted diastolic pressures, mmHg.
    public var diastolic: ClosedRange<Int>
    /// Accepted pulse rates, bpm (only checked when a pulse is present).
    public var pulse: ClosedRange<Int>

    /// Creates a validator with the given ranges.
    public init(systolic: ClosedRange<Int> = 50...300, diastolic: ClosedRange<Int> = 20...200,
                pulse: ClosedRange<Int> = 20...250) {
        self.systolic = systolic
        self.diastolic = diastolic
        self.pulse = pulse
    }

    /// The ranges `cuff ingest` and `replay-filter` use.
    public static let standard = ReadingValidator()

    /// The first implausible field of `reading`, or nil when it is plausible. A missing pulse is
    /// fine (the SDK's "incomplete" is `bp-init`'s business); the MAP is not checked here (see
    /// `reportedMAPIssue`), because an off MAP drops only the MAP, never the reading.
    public func validate(_ reading: CuffReading) -> ValidationIssue? {
        validate(systolic: reading.systolic, diastolic: reading.diastolic, pulse: reading.pulse)
    }

    /// `validate(_:)` on the values alone: pressures in mmHg, pulse in bpm (nil when absent).
    @inline(__always)
    public func validate(systolic sys: Int, diastolic dia: Int, pulse p: Int?) -> ValidationIssue? {
        if !systolic.contains(sys) {
            return ValidationIssue(field: "systolic", message: "\(sys) mmHg outside \(systolic.lowerBound)-\(systolic.upperBound)")
        }
        if !diastolic.contains(dia) {
            return ValidationIssue(field: "diastolic", message: "\(dia) mmHg outside \(diastolic.lowerBound)-\(diastolic.upperBound)")
        }
        if sys <= dia {
            return ValidationIssue(field: "systolic", message: "\(sys) mmHg not above diastolic \(dia) mmHg")
        }
        if let p, !pulse.contains(p) {
            return ValidationIssue(field: "pulse", message: "\(p) bpm outside \(pulse.lowerBound)-\(pulse.upperBound)")
        }
        return nil
    }

    /// Why the cuff-reported MAP cannot be right (not between diastolic and systolic), or nil
    /// when it is absent or fits. The caller drops the MAP as not reported and notes this.
    public func reportedMAPIssue(_ reading: CuffReading) -> ValidationIssue? {
        guard let map = reading.meanArterialPressure else { return nil }
        guard map < reading.diastolic || map > reading.systolic else { return nil }
        return ValidationIssue(field: "meanArterialPressure",
                               message: "\(map) mmHg not between diastolic \(reading.diastolic) and systolic \(reading.systolic); dropped as not reported")
    }
}
