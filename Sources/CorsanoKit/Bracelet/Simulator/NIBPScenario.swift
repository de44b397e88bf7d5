/// How the simulated firmware judges NIBP calibration readings, and how its NIBP estimate of
/// its wearer errs afterwards (docs/scenario.md "nibp", issue 33).
///
/// Default verdict model: a reading is accepted when plausible (systolic 70-250, diastolic 40-150,
/// systolic above diastolic, pulse 30-220 mmHg/bpm); an attempt is accepted when every
/// measurement in it was. Scripts override verdicts per attempt and measurement.
///
/// Estimate model (`SimulatedNIBPModel`): value = the wearer's truth + the calibration's error
/// (accepted: the mean of the fed readings minus the truth at their times; refused:
/// `uncalibratedError`) + `driftPerDay` × days since that attempt + seeded noise within ±`noise`.
public struct NIBPScenario: Codable, Equatable, Sendable {
    /// Scripted verdicts; element 0 is attempt 1. Attempts past the end use the default model.
    public var attempts: [NIBPAttemptScript]
    /// The subject who wears the bracelet (nil = the scenario's first subject).
    public var wearer: String?
    /// Seconds between two stored measurements (nil = 1800: every 30 minutes, on the half hour UTC).
    public var intervalSeconds: Int?
    /// Real seconds a spot measurement (`measureNIBP`) takes on the simulator (nil = 1; a real
    /// 287-2 takes about 120).
    public var spotSeconds: Double?
    /// The estimate's error after a refused attempt, mmHg (nil = +18/+12).
    public var uncalibratedError: BPDelta?
    /// How far the estimate drifts per day since the last attempt, mmHg (nil = +2/+1).
    public var driftPerDay: BPDelta?
    /// Bound of the estimate's seeded noise, mmHg (nil = ±3/±2).
    public var noise: BPDelta?

    /// Defaults of the estimate model (docs/scenario.md "nibp").
    public static let defaultIntervalSeconds = 1800, defaultSpotSeconds = 1.0
    public static let defaultUncalibratedError = BPDelta(systolic: 18, diastolic: 12)
    public static let defaultDriftPerDay = BPDelta(systolic: 2, diastolic: 1)
    public static let defaultNoise = BPDelta(systolic: 3, diastolic: 2)

    /// Creates the NIBP behaviour.
    public init(attempts: [NIBPAttemptScript] = [], wearer: String? = nil, intervalSeconds: Int? = nil, spotSeconds: Double? = nil,
                uncalibratedError: BPDelta? = nil, driftPerDay: BPDelta? = nil, noise: BPDelta? = nil) {
        self.attempts = attempts
        self.wearer = wearer
        self.intervalSeconds = intervalSeconds
        self.spotSeconds = spotSeconds
        self.uncalibratedError = uncalibratedError
        self.driftPerDay = driftPerDay
        self.noise = noise
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        attempts = try c.decodeIfPresent([NIBPAttemptScript].self, forKey: .attempts) ?? []
        wearer = try c.decodeIfPresent(String.self, forKey: .wearer)
        intervalSeconds = try c.decodeIfPresent(Int.self, forKey: .intervalSeconds)
        spotSeconds = try c.decodeIfPresent(Double.self, forKey: .spotSeconds)
        uncalibratedError = try c.decodeIfPresent(BPDelta.self, forKey: .uncalibratedError)
        driftPerDay = try c.decodeIfPresent(BPDelta.self, forKey: .driftPerDay)
        noise = try c.decodeIfPresent(BPDelta.self, forKey: .noise)
    }

    /// The script of 1-based `attempt`, if any.
    func script(attempt: Int) -> NIBPAttemptScript? {
        attempt >= 1 && attempt <= attempts.count ? attempts[attempt - 1] : nil
    }
}

/// Scripted verdicts of one calibration attempt.
public struct NIBPAttemptScript: Codable, Equatable, Sendable {
    /// Per-measurement verdicts, element 0 = measurement 1; `null` or missing = default model.
    public var measurements: [Bool?]?
    /// The attempt's verdict; missing = accepted when every measurement fed was accepted.
    public var session: Bool?

    /// Creates a script.
    public init(measurements: [Bool?]? = nil, session: Bool? = nil) {
        self.measurements = measurements
        self.session = session
    }

    /// The scripted verdict of 1-based measurement `index`, if any.
    func verdict(index: Int) -> Bool? {
        guard let measurements, index >= 1, index <= measurements.count else { return nil }
        return measurements[index - 1]
    }
}

/// The default firmware model's plausibility rule for one cuff reading.
enum NIBPFirmwareModel {
    /// True when the simulated firmware accepts `reading` (ranges in mmHg and bpm).
    static func accepts(_ reading: CuffReading) -> Bool {
        guard (70...250).contains(reading.systolic), (40...150).contains(reading.diastolic),
              reading.systolic > reading.diastolic else { return false }
        guard let pulse = reading.pulse else { return false }
        return (30...220).contains(pulse)
    }
}
