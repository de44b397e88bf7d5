/// How the simulated firmware judges NIBP calibration readings.
///
/// Default model: a reading is accepted when plausible (systolic 70-250, diastolic 40-150,
/// systolic above diastolic, pulse 30-220 mmHg/bpm); an attempt is accepted when every
/// measurement in it was. Scripts override verdicts per attempt and measurement.
public struct NIBPScenario: Codable, Equatable, Sendable {
    /// Scripted verdicts; element 0 is attempt 1. Attempts past the end use the default model.
    public var attempts: [NIBPAttemptScript]

    /// Creates the NIBP behaviour.
    public init(attempts: [NIBPAttemptScript] = []) { self.attempts = attempts }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        attempts = try c.decodeIfPresent([NIBPAttemptScript].self, forKey: .attempts) ?? []
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
