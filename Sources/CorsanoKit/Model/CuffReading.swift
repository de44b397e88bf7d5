/// One blood-pressure reading from a reference cuff, as the SDK's `CuffReading` plus provenance.
///
/// Pressures in mmHg, pulse in bpm, all integers. Source: seeds/bp-initialization.txt
/// ("The cuff reading you supply") and docs/design.md "Data on the wire".
public struct CuffReading: Equatable, Sendable {
    /// Systolic pressure, mmHg.
    public var systolic: Int
    /// Diastolic pressure, mmHg.
    public var diastolic: Int
    /// Pulse rate, bpm; nil when the cuff sent none (`bp-init` drops such a reading as incomplete).
    public var pulse: Int?
    /// Cuff-reported mean arterial pressure, mmHg; nil when the cuff did not report one.
    public var meanArterialPressure: Int?
    /// When the cuff took the reading, in real time; nil when unknown.
    public var measuredAt: Instant?
    /// The raw cuff-clock stamp, before the clock anchor.
    public var deviceTime: NaiveDateTime?
    /// When a capture says the payload arrived (never used as `measuredAt`), as RFC 3339 text.
    public var receivedAt: String?
    /// True when a person typed the numbers in; such readings are never age-checked or deduplicated.
    public var isManualEntry: Bool
    /// Other fields (`userId`, `status`, `source`, ...) as (name, raw JSON value text), in input order.
    public var provenance: [ProvenanceField]

    /// Creates a reading.
    public init(
        systolic: Int, diastolic: Int, pulse: Int?, meanArterialPressure: Int? = nil,
        measuredAt: Instant? = nil, deviceTime: NaiveDateTime? = nil, receivedAt: String? = nil,
        isManualEntry: Bool = false, provenance: [ProvenanceField] = []
    ) {
        self.systolic = systolic
        self.diastolic = diastolic
        self.pulse = pulse
        self.meanArterialPressure = meanArterialPressure
        self.measuredAt = measuredAt
        self.deviceTime = deviceTime
        self.receivedAt = receivedAt
        self.isManualEntry = isManualEntry
        self.provenance = provenance
    }

    /// The MAP to feed a bracelet: the cuff's when reported, else the seed's derived value.
    public var effectiveMeanArterialPressure: Int {
        meanArterialPressure ?? MeanArterialPressure.derived(systolic: systolic, diastolic: diastolic)
    }

    /// Seconds from `measuredAt` to `now` (negative when dated in the future); nil when unstamped.
    public func age(asOf now: Instant) -> Double? {
        measuredAt.map { now.seconds(since: $0) }
    }
}

/// One pass-through field of a reading: its JSON name and its value as raw JSON text.
public struct ProvenanceField: Equatable, Sendable {
    /// The field name, unescaped.
    public var name: String
    /// The value exactly as JSON text (`1`, `"cuff"`, `{"a":1}`).
    public var rawJSON: String

    /// Creates a field.
    public init(name: String, rawJSON: String) {
        self.name = name
        self.rawJSON = rawJSON
    }
}

/// The seed's mean-arterial-pressure rule.
public enum MeanArterialPressure {
    /// `diastolic + (systolic - diastolic) / 3` in integer arithmetic (seed: "The cuff reading you supply").
    public static func derived(systolic: Int, diastolic: Int) -> Int {
        diastolic + (systolic - diastolic) / 3
    }
}
