import Foundation

/// Seeded noise that depends on the run clock, not on call order: the same seed, salt and
/// instant give the same value on every read (a stored NIBP value reads the same twice; a served
/// and an in-process simulator agree). FNV-1a over the salt, mixed by SplitMix64.
enum SimulatedNoise {
    /// A uniform value in [-bound, bound] for (`seed`, `salt`, `t` to the second, `channel`).
    static func uniform(_ bound: Int, seed: UInt64, salt: String, at t: Instant, channel: UInt64) -> Double {
        guard bound > 0 else { return 0 }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in salt.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        var rng = SplitMix64(seed: seed ^ hash ^ (UInt64(bitPattern: t.secondsSinceEpoch) &* 0x9E37_79B9_7F4A_7C15) ^ (channel &* 0xD6E8_FEB8_6659_FD93))
        _ = rng.next()
        return rng.jitter(Double(bound))
    }
}

/// What one calibration attempt left in the simulated firmware's NIBP model (kept with the
/// bracelet, across connections): when its verdict was read, and the model's error then.
public struct SimulatedNIBPCalibration: Equatable, Sendable {
    /// When the attempt's verdict was given, on the run clock.
    public var at: Instant
    /// True when the firmware accepted the attempt.
    public var accepted: Bool
    /// The error the model took on, mmHg: the fed readings' mean minus the wearer's truth at
    /// their times (accepted), or the scenario's `uncalibratedError` (refused).
    public var systolicError: Double, diastolicError: Double
}

/// The simulated bracelet's NIBP estimate of its wearer (docs/scenario.md "nibp", issue 33):
///
///     value(t) = truth(t) + error of the last attempt before t
///                + driftPerDay × days since that attempt + noise(seed, t)
///
/// rounded to whole mmHg. An accepted attempt's error is what the cuff readings it was fed got
/// wrong (mean of readings − mean of the truth at their `measuredAt`, or at the feed when
/// unstamped), so a calibration against good readings reads within a few mmHg and one against
/// readings far from the wearer's truth keeps their error; a refused attempt leaves
/// `uncalibratedError`. Before the first attempt the bracelet has no NIBP values.
public struct SimulatedNIBPModel: Sendable {
    /// The scenario (its `nibp` settings and subjects).
    public let scenario: Scenario
    /// The simulator's seed (`--seed`).
    public let seed: UInt64

    /// Creates the model of `scenario` under `seed`.
    public init(scenario: Scenario, seed: UInt64) {
        self.scenario = scenario
        self.seed = seed
    }

    /// The subject wearing the bracelet: `nibp.wearer`, else the first subject.
    public var wearer: ScenarioSubject {
        scenario.nibp.wearer.flatMap { id in scenario.subjects.first { $0.id == id } } ?? scenario.subjects.first ?? .defaultSubject
    }

    /// Seconds between stored measurements.
    public var interval: Int { scenario.nibp.intervalSeconds ?? NIBPScenario.defaultIntervalSeconds }
    /// A stored measurement's length, seconds: its value is stamped at the end (the 287-2's 2 minutes).
    public static let measurementSeconds: Int64 = 120

    /// What an attempt fed with `fed` (each reading with the instant it was fed) and judged
    /// `accepted` at `at` leaves in the model.
    public func calibration(fed: [(reading: CuffReading, fedAt: Instant)], accepted: Bool, at: Instant) -> SimulatedNIBPCalibration {
        guard accepted, !fed.isEmpty else {
            let e = scenario.nibp.uncalibratedError ?? NIBPScenario.defaultUncalibratedError
            return SimulatedNIBPCalibration(at: at, accepted: false, systolicError: Double(e.systolic), diastolicError: Double(e.diastolic))
        }
        var sys = 0.0, dia = 0.0
        for (reading, fedAt) in fed {
            let truth = wearer.truth(at: reading.measuredAt ?? fedAt)
            sys += Double(reading.systolic) - truth.systolic
            dia += Double(reading.diastolic) - truth.diastolic
        }
        let n = Double(fed.count)
        return SimulatedNIBPCalibration(at: at, accepted: true, systolicError: sys / n, diastolicError: dia / n)
    }

    /// The estimate at `t` under `calibration` (the last attempt at or before `t`).
    public func value(at t: Instant, calibration: SimulatedNIBPCalibration) -> NIBPValue {
        let truth = wearer.truth(at: t)
        let days = max(0, t.seconds(since: calibration.at)) / 86_400
        let drift = scenario.nibp.driftPerDay ?? NIBPScenario.defaultDriftPerDay
        let noise = scenario.nibp.noise ?? NIBPScenario.defaultNoise
        let salt = "bracelet:" + scenario.serial
        let sys = truth.systolic + calibration.systolicError + Double(drift.systolic) * days
            + SimulatedNoise.uniform(noise.systolic, seed: seed, salt: salt, at: t, channel: 1)
        let dia = truth.diastolic + calibration.diastolicError + Double(drift.diastolic) * days
            + SimulatedNoise.uniform(noise.diastolic, seed: seed, salt: salt, at: t, channel: 2)
        let pulse = truth.pulse + SimulatedNoise.uniform(2, seed: seed, salt: salt, at: t, channel: 3)
        // Quality 70-95: a worn, still bracelet's PPG.
        let quality = 83 + SimulatedNoise.uniform(12, seed: seed, salt: salt, at: t, channel: 4)
        return NIBPValue(systolic: Int(sys.rounded()), diastolic: Int(dia.rounded()), measuredAt: t,
                         pulse: Int(pulse.rounded()), quality: Int(quality.rounded()))
    }

    /// The stored values with `measuredAt` in `since...until` (either open) and not after `now`:
    /// one per `interval`, stamped `measurementSeconds` after each multiple of the interval
    /// (UTC), from the first attempt in `history` on; at most `limit`, oldest first, and whether
    /// more were left.
    public func stored(history: [SimulatedNIBPCalibration], since: Instant?, until: Instant?, now: Instant,
                       limit: Int) -> (values: [NIBPValue], more: Bool) {
        guard let first = history.first else { return ([], false) }
        let step = Int64(interval)
        let from = max(first.at, since ?? first.at)
        let last = min(now, until ?? now)
        // The first slot end at or after `from`: k × step + measurementSeconds, k rounded up.
        let base = from.secondsSinceEpoch - Self.measurementSeconds + (from.nanoseconds > 0 ? 1 : 0)
        let k = base >= 0 ? (base + step - 1) / step : -((-base) / step)
        var t = Instant(secondsSinceEpoch: k * step + Self.measurementSeconds)
        var values: [NIBPValue] = []
        var index = 0
        while t <= last {
            if values.count == limit { return (values, true) }
            while index + 1 < history.count, history[index + 1].at <= t { index += 1 }
            values.append(value(at: t, calibration: history[index]))
            t = Instant(secondsSinceEpoch: t.secondsSinceEpoch + step)
        }
        return (values, false)
    }
}

/// A simulated reference cuff (`--cuff sim:`, the bridge's `simCuffReading`; docs/scenario.md
/// "The simulated cuff"): measures a subject's true course the way a validated cuff does.
///
/// A reading requested at `t` is measured at `t + measurementSeconds` (a cuff takes about 40 s);
/// systolic and diastolic are the truth then plus the subject's `cuff.offset` plus seeded noise
/// within ±`cuff.spread` (default ±3/±2 mmHg), pulse the truth ±2 bpm, rounded; no MAP.
public struct SimulatedCuff: Sendable {
    /// How long a simulated cuff measurement takes, seconds.
    public static let measurementSeconds: Int64 = 40
    /// The scenario whose subjects it measures.
    public let scenario: Scenario
    /// The simulator's seed.
    public let seed: UInt64

    /// Creates a cuff on `scenario`'s subjects.
    public init(scenario: Scenario, seed: UInt64) {
        self.scenario = scenario
        self.seed = seed
    }

    /// The subject a run measures: `id` when named, else the only one.
    /// - Throws: `SimulatedCuffError.unknownSubject` / `.subjectNotNamed` (usage errors, 64).
    public static func subject(_ id: String?, in scenario: Scenario) throws -> ScenarioSubject {
        if let id {
            guard let subject = scenario.subjects.first(where: { $0.id == id }) else {
                throw SimulatedCuffError.unknownSubject(id, known: scenario.subjects.map(\.id))
            }
            return subject
        }
        guard scenario.subjects.count == 1 else { throw SimulatedCuffError.subjectNotNamed(known: scenario.subjects.map(\.id)) }
        return scenario.subjects[0]
    }

    /// One reading of `subject` requested at `t`, stamped with the subject's id.
    public func reading(of subject: ScenarioSubject, requestedAt t: Instant) -> CuffReading {
        let at = Instant(secondsSinceEpoch: t.secondsSinceEpoch + Self.measurementSeconds, nanoseconds: t.nanoseconds)
        let truth = subject.truth(at: at)
        let offset = subject.cuff?.offset ?? BPDelta(systolic: 0, diastolic: 0)
        let spread = subject.cuff?.spread ?? SubjectCuff.defaultSpread
        let salt = "cuff:" + subject.id
        let sys = truth.systolic + Double(offset.systolic) + SimulatedNoise.uniform(spread.systolic, seed: seed, salt: salt, at: at, channel: 1)
        let dia = truth.diastolic + Double(offset.diastolic) + SimulatedNoise.uniform(spread.diastolic, seed: seed, salt: salt, at: at, channel: 2)
        let pulse = truth.pulse + SimulatedNoise.uniform(2, seed: seed, salt: salt, at: at, channel: 3)
        return CuffReading(systolic: Int(sys.rounded()), diastolic: Int(dia.rounded()), pulse: Int(pulse.rounded()), measuredAt: at)
            .withSubject(subject.id)
    }
}

/// Why a simulated cuff cannot measure (a usage error: exit 64).
public enum SimulatedCuffError: Error, Equatable, Sendable {
    /// `--subject-id` names no subject of the scenario.
    case unknownSubject(String, known: [String])
    /// The scenario declares several subjects and none was named.
    case subjectNotNamed(known: [String])
    /// A served simulator refused the subject, saying why.
    case refusedByBridge(String)

    /// One line naming the fix.
    public var message: String {
        switch self {
        case let .unknownSubject(id, known):
            return "the scenario has no subject '\(id)' (its subjects: \(known.joined(separator: ", ")))"
        case let .subjectNotNamed(known):
            return "the scenario declares \(known.count) subjects (\(known.joined(separator: ", "))): name one with --subject-id"
        case let .refusedByBridge(why):
            return why
        }
    }
}
