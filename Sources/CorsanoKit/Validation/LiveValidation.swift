/// One step of a live same-arm sequence: a reference cuff reading (R) or a device spot check (T).
public enum ValidationStep: String, Sendable, Equatable {
    /// A reference cuff reading.
    case reference = "R"
    /// A device (bracelet) spot measurement.
    case device = "T"
}

/// The `--sequence` of a live validation: R and T alternating, starting and ending with R, so every
/// T lies between two reference readings (ISO 81060-2 same-arm sequential: R T R T R T R).
public struct ValidationSequence: Equatable, Sendable {
    /// The steps in order.
    public var steps: [ValidationStep]

    /// ISO 81060-2's sequence for one subject: four reference readings around three device values.
    public static let standard = "R,T,R,T,R,T,R"

    /// Parses `R,T,R,…`. - Returns: the sequence, or why it is not one (for a usage error).
    public static func parse(_ text: String) -> Result<ValidationSequence, ValidationSequenceError> {
        var steps: [ValidationStep] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let step = ValidationStep(rawValue: word.trimmingCharacters(in: .whitespaces).uppercased()) else {
                return .failure(.notAStep(String(word)))
            }
            steps.append(step)
        }
        guard steps.count >= 3, steps.first == .reference, steps.last == .reference,
              zip(steps, steps.dropFirst()).allSatisfy({ $0 != $1 }) else { return .failure(.notAlternating) }
        return .success(ValidationSequence(steps: steps))
    }
}

/// Why a `--sequence` was refused.
public enum ValidationSequenceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A word that is neither R nor T.
    case notAStep(String)
    /// Not R and T alternating from R to R (at least R,T,R).
    case notAlternating

    public var description: String {
        switch self {
        case .notAStep(let w): return "'\(w)' is not R or T"
        case .notAlternating: return "R and T must alternate, starting and ending with R (at least R,T,R)"
        }
    }
}

/// What a live validation reports as it goes (the command layer turns these into event lines and
/// terminal prompts).
public enum LiveValidationEvent: Sendable, Equatable {
    /// Step `index` (from 1) is about to be measured: the operator may be prompted.
    case stepStarted(index: Int, step: ValidationStep)
    /// Step `index` gave `reading` (a reference reading, or the device's value as a reading line).
    case stepMeasured(index: Int, step: ValidationStep, reading: CuffReading)

    /// The event line: `{"event":"validationStep","index":1,"step":"R","state":"started"}` or
    /// `{"event":"validationStep","index":1,"step":"R","state":"measured","reading":{…}}`.
    public var json: JSONValue {
        switch self {
        case .stepStarted(let i, let s):
            return ["event": "validationStep", "index": .int(i), "step": .string(s.rawValue), "state": "started"]
        case .stepMeasured(let i, let s, let r):
            return ["event": "validationStep", "index": .int(i), "step": .string(s.rawValue), "state": "measured",
                    "reading": .raw(r.jsonLine())]
        }
    }
}

/// Drives a live same-arm sequence for one subject (`validate --live`): each R asks the
/// reference cuff for a reading, each T the device for a spot measurement, in order, reporting each
/// step; the readings are stamped with the subject. The cuff and the device are injected, so the
/// same run works on a real bracelet and cuff and on the simulator.
public struct LiveValidation: Sendable {
    /// The sequence.
    public var sequence: ValidationSequence
    /// The subject the readings belong to.
    public var subject: String

    /// Creates a run.
    public init(sequence: ValidationSequence, subject: String) {
        self.sequence = sequence
        self.subject = subject
    }

    /// Seconds between the end of one step and the start of the next (ISO 81060-2's same-arm
    /// sequential method waits at least 60 s between readings so the arm recovers).
    public static let intervalSeconds = 60.0

    /// Runs the sequence. `reference` measures one cuff reading, `device` one device value (as a
    /// reading line); `pause` runs between steps (the command sleeps `intervalSeconds` on the run's
    /// clock); `report` sees every event in order. A reading that comes without its time (typed at
    /// the terminal, a reading line or `--cuff-cmd` output without `measuredAt`, a cuff clock's naive
    /// `deviceTime` only) is stamped `now()` when it arrives: sequential pairing orders the steps by time, and the step
    /// was measured then (ISO 81060-2 same-arm sequential: the order of R and T is the method).
    /// - Returns: the reference and device readings, each with `subject`.
    /// - Throws: what `reference` or `device` throws (the sequence stops there), `CancellationError`.
    public func run(reference: () async throws -> CuffReading, device: () async throws -> CuffReading,
                    pause: () async throws -> Void = {}, now: (() -> Instant)? = nil,
                    report: (LiveValidationEvent) throws -> Void) async throws -> (reference: [CuffReading], device: [CuffReading]) {
        var references: [CuffReading] = [], devices: [CuffReading] = []
        for (offset, step) in sequence.steps.enumerated() {
            try Task.checkCancellation()
            if offset > 0 { try await pause() }
            try report(.stepStarted(index: offset + 1, step: step))
            var measured = try await (step == .reference ? reference() : device()).withSubject(subject)
            if measured.measuredAt == nil, let now { measured.measuredAt = now() }
            if step == .reference { references.append(measured) } else { devices.append(measured) }
            try report(.stepMeasured(index: offset + 1, step: step, reading: measured))
        }
        return (references, devices)
    }
}
