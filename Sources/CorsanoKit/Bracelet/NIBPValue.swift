/// One of the bracelet's own cuffless blood-pressure values (NIBP): a stored one (`readNIBP`) or
/// a spot measurement (`measureNIBP`). Pressures in mmHg, pulse in bpm, quality 0-100.
///
/// Source: issue 33; developer.corsano.com "NIBP" (the 287-2 takes a 2-minute measurement every
/// 30 minutes in plans with NIBP on); FDA K232548 (NIBP as intermittent or spot-check).
public struct NIBPValue: Equatable, Sendable {
    /// The ranges a bridge's value is held to (the plausible ranges of a reading line).
    public static let systolicRange = 40...300, diastolicRange = 20...200, pulseRange = 20...300, qualityRange = 0...100
    /// Systolic pressure, mmHg.
    public var systolic: Int
    /// Diastolic pressure, mmHg.
    public var diastolic: Int
    /// When the bracelet measured it (the end of its measurement), real time.
    public var measuredAt: Instant
    /// Pulse rate, bpm, when the bracelet gives it.
    public var pulse: Int?
    /// The bracelet's signal quality of the measurement, 0-100, when it gives it.
    public var quality: Int?

    /// Creates a value.
    public init(systolic: Int, diastolic: Int, measuredAt: Instant, pulse: Int? = nil, quality: Int? = nil) {
        self.systolic = systolic
        self.diastolic = diastolic
        self.measuredAt = measuredAt
        self.pulse = pulse
        self.quality = quality
    }

    /// This value as a reading line (docs/design.md "Data on the wire"): the shape `cuff ingest` writes,
    /// with `"source":"bracelet"`, `"bracelet":SERIAL`, `quality` when known and `subject` when named.
    public func reading(serial: String, subject: String?) -> CuffReading {
        var provenance = [ProvenanceField(name: "source", rawJSON: JSONValue.string("bracelet").serialized),
                          ProvenanceField(name: "bracelet", rawJSON: JSONValue.string(serial).serialized)]
        if let quality { provenance.append(ProvenanceField(name: "quality", rawJSON: String(quality))) }
        let reading = CuffReading(systolic: systolic, diastolic: diastolic, pulse: pulse, measuredAt: measuredAt, provenance: provenance)
        return subject.map(reading.withSubject) ?? reading
    }
}
