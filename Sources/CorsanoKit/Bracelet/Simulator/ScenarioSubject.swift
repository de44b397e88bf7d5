import Foundation

/// A simulated person: a study participant whose true blood pressure follows a documented course
/// (docs/scenario.md "subjects", corsano-scenario(5)): a baseline, a daily rhythm, and scripted
/// changes (a treatment step, a bout of exercise). The simulated bracelet estimates its wearer's
/// course; a `sim:` cuff measures a subject's course with a cuff-like error.
public struct ScenarioSubject: Codable, Equatable, Sendable {
    /// The participant's id (a reading line's `subject`, `--subject-id`).
    public var id: String
    /// Resting values at the rhythm's mean: mmHg, mmHg, bpm.
    public var baseline: SubjectLevel
    /// The daily rhythm (a cosine over 24 h); nil = none.
    public var rhythm: SubjectRhythm?
    /// Scripted changes, added to the course while in force.
    public var changes: [SubjectChange]
    /// How a `sim:` cuff misreads this subject; nil = `SubjectCuff()` (no offset, ±3/±2 mmHg).
    public var cuff: SubjectCuff?

    /// Creates a subject.
    public init(id: String, baseline: SubjectLevel, rhythm: SubjectRhythm? = nil, changes: [SubjectChange] = [], cuff: SubjectCuff? = nil) {
        self.id = id
        self.baseline = baseline
        self.rhythm = rhythm
        self.changes = changes
        self.cuff = cuff
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        baseline = try c.decode(SubjectLevel.self, forKey: .baseline)
        rhythm = try c.decodeIfPresent(SubjectRhythm.self, forKey: .rhythm)
        changes = try c.decodeIfPresent([SubjectChange].self, forKey: .changes) ?? []
        cuff = try c.decodeIfPresent(SubjectCuff.self, forKey: .cuff)
    }

    /// The subject of a scenario that declares none (the embedded default's): `S1`, 122/78 mmHg
    /// and 68 bpm at rest, a daily rhythm of ±6/±4 mmHg and ±4 bpm peaking at 15:00 UTC, no changes.
    public static let defaultSubject = ScenarioSubject(
        id: "S1", baseline: SubjectLevel(systolic: 122, diastolic: 78, pulse: 68),
        rhythm: SubjectRhythm(systolic: 6, diastolic: 4, pulse: 4, peakHour: 15))

    /// The true course at `t`: baseline + rhythm + the changes in force (not rounded).
    public func truth(at t: Instant) -> SubjectTruth {
        var sys = Double(baseline.systolic), dia = Double(baseline.diastolic), pulse = Double(baseline.pulse)
        if let rhythm {
            // Seconds into the UTC day; the cosine is 1 at the peak hour.
            let day = Double(((t.secondsSinceEpoch % 86_400) + 86_400) % 86_400) + Double(t.nanoseconds) / 1e9
            let phase = cos(2 * Double.pi * (day - Double(rhythm.peakHour) * 3600) / 86_400)
            sys += Double(rhythm.systolic) * phase
            dia += Double(rhythm.diastolic) * phase
            pulse += Double(rhythm.pulse ?? 0) * phase
        }
        for change in changes where change.isInForce(at: t) {
            sys += Double(change.systolic)
            dia += Double(change.diastolic)
            pulse += Double(change.pulse ?? 0)
        }
        return SubjectTruth(systolic: sys, diastolic: dia, pulse: pulse)
    }
}

/// Resting blood pressure and pulse.
public struct SubjectLevel: Codable, Equatable, Sendable {
    /// mmHg.
    public var systolic: Int
    /// mmHg.
    public var diastolic: Int
    /// bpm.
    public var pulse: Int
    /// Creates a level.
    public init(systolic: Int, diastolic: Int, pulse: Int) {
        self.systolic = systolic
        self.diastolic = diastolic
        self.pulse = pulse
    }
}

/// A daily rhythm: amplitudes of a 24-hour cosine, highest at `peakHour` (UTC).
public struct SubjectRhythm: Codable, Equatable, Sendable {
    /// Amplitude, mmHg.
    public var systolic: Int
    /// Amplitude, mmHg.
    public var diastolic: Int
    /// Amplitude, bpm (nil = 0).
    public var pulse: Int?
    /// Hour of the day (UTC, 0-23) the rhythm peaks; 12 hours later it is lowest.
    public var peakHour: Int
    /// Creates a rhythm.
    public init(systolic: Int, diastolic: Int, pulse: Int? = nil, peakHour: Int) {
        self.systolic = systolic
        self.diastolic = diastolic
        self.pulse = pulse
        self.peakHour = peakHour
    }
}

/// A scripted change of a subject's course: added from `from` on (a treatment step), or only
/// until `until` (a bout of exercise). Times RFC 3339.
public struct SubjectChange: Codable, Equatable, Sendable {
    /// What it is (`treatment`, `exercise`, ...); shown nowhere, for the scenario's reader.
    public var label: String?
    /// When it starts (RFC 3339).
    public var from: String
    /// When it ends (RFC 3339); nil = never.
    public var until: String?
    /// Change, mmHg (negative lowers).
    public var systolic: Int
    /// Change, mmHg.
    public var diastolic: Int
    /// Change, bpm (nil = 0).
    public var pulse: Int?

    /// Creates a change.
    public init(label: String? = nil, from: String, until: String? = nil, systolic: Int, diastolic: Int, pulse: Int? = nil) {
        self.label = label
        self.from = from
        self.until = until
        self.systolic = systolic
        self.diastolic = diastolic
        self.pulse = pulse
    }

    /// True when `from` ≤ `t` < `until` (times are checked when the scenario is read).
    func isInForce(at t: Instant) -> Bool {
        guard let start = RFC3339.parseInstant(from), start <= t else { return false }
        guard let until else { return true }
        return RFC3339.parseInstant(until).map { t < $0 } ?? true
    }
}

/// How a `sim:` cuff misreads a subject: a fixed `offset` (a miscalibrated or ill-fitting cuff)
/// plus seeded noise uniform within ±`spread` (docs/scenario.md "The simulated cuff").
public struct SubjectCuff: Codable, Equatable, Sendable {
    /// Added to every reading, mmHg (default 0/0).
    public var offset: BPDelta?
    /// Noise bound, mmHg (default ±3 systolic, ±2 diastolic).
    public var spread: BPDelta?
    /// Creates a cuff error.
    public init(offset: BPDelta? = nil, spread: BPDelta? = nil) {
        self.offset = offset
        self.spread = spread
    }
    /// The default noise bound of a `sim:` cuff, mmHg: a validated cuff's ±3/±2.
    public static let defaultSpread = BPDelta(systolic: 3, diastolic: 2)
}

/// A pair of pressure differences, mmHg (offsets, bounds, drifts).
public struct BPDelta: Codable, Equatable, Sendable {
    /// mmHg.
    public var systolic: Int
    /// mmHg.
    public var diastolic: Int
    /// Creates a delta.
    public init(systolic: Int, diastolic: Int) {
        self.systolic = systolic
        self.diastolic = diastolic
    }
}

/// A subject's true values at one instant (not rounded): mmHg, mmHg, bpm.
public struct SubjectTruth: Equatable, Sendable {
    public var systolic: Double, diastolic: Double, pulse: Double
    /// Creates a truth.
    public init(systolic: Double, diastolic: Double, pulse: Double) {
        self.systolic = systolic
        self.diastolic = diastolic
        self.pulse = pulse
    }
}
