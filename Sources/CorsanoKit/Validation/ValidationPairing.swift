import Foundation

/// One reading taking part in a validation: the reference cuff's or the device's.
public struct ValidationReading: Equatable, Sendable {
    /// The study participant (`subject` on the reading line); `-` when the line has none.
    public var subject: String
    /// True when the line named its subject (false: grouped under `-`, with a note).
    public var hasSubject: Bool
    /// Systolic pressure, mmHg.
    public var systolic: Int
    /// Diastolic pressure, mmHg.
    public var diastolic: Int
    /// When it was measured (real time).
    public var measuredAt: Instant
    /// Where it came from, for messages: `ref.jsonl:12`.
    public var origin: String
    /// The bracelet's serial (`bracelet` on the line, as `nibp read` writes it); nil when absent.
    public var bracelet: String?
    /// What the reading's own cuff said of the measurement (`status`); a flagged reading's pairs
    /// are left out of the statistics and counted.
    public var quality: ReadingQuality = .unknown

    /// The subject name of readings without one (docs/design.md "Validation").
    public static let anonymousSubject = "-"

    /// Creates a reading.
    public init(subject: String?, systolic: Int, diastolic: Int, measuredAt: Instant, origin: String, bracelet: String? = nil) {
        self.bracelet = bracelet
        self.subject = subject ?? Self.anonymousSubject
        self.hasSubject = subject != nil
        self.systolic = systolic
        self.diastolic = diastolic
        self.measuredAt = measuredAt
        self.origin = origin
    }

    /// The validation reading of a cuff reading line: its `subject` field (a string) when present.
    /// - Throws: `ReadingLineError.missingField("measuredAt")` when the reading has no time (it
    ///   cannot be placed in a sequence), `.invalidField("subject", …)` when `subject` (or
    ///   `bracelet`) is not a string.
    public init(_ reading: CuffReading, origin: String) throws(ReadingLineError) {
        guard let at = reading.measuredAt else { throw .missingField("measuredAt") }
        func text(_ name: String) throws(ReadingLineError) -> String? {
            guard let field = reading.provenance.first(where: { $0.name == name }) else { return nil }
            guard case .string(let value)? = try? JSONValue.parse(Array(field.rawJSON.utf8)) else {
                throw .invalidField(name, ReadingLineError.notAString)
            }
            return value
        }
        self.init(subject: try text("subject"), systolic: reading.systolic, diastolic: reading.diastolic, measuredAt: at,
                  origin: origin, bracelet: try text("bracelet"))
        quality = try ReadingQuality(reading)
    }
}

/// How device values are matched with reference readings.
public enum ValidationPairing: Equatable, Sendable {
    /// ISO 81060-2 same-arm sequential (R T R T … R): each device value lies between two reference
    /// readings of its subject and is compared with their mean (ISO 81060-2:2018, 5.2.4.1 and
    /// 6.1.4 "same arm sequential method"). A reference reading between two device values serves both.
    case sequential
    /// Free-running devices: each reference reading is paired with the device value of the same
    /// subject nearest in time within `window` seconds, each device value used at most once
    /// (closest gaps first). Pairing every device value instead would count one cuff reading many
    /// times and weigh a subject by the device's reporting rate.
    case nearest(window: Double)

    /// `--window`'s default, seconds (5 min).
    public static let defaultWindowSeconds = 300

    /// `sequential` or `nearest`.
    public var name: String {
        switch self {
        case .sequential: return "sequential"
        case .nearest: return "nearest"
        }
    }
}

/// A device value and the reference it is compared with.
public struct ValidationPair: Equatable, Sendable {
    /// The subject of both.
    public var subject: String
    /// The reference readings: two (sequential, their mean) or one (nearest).
    public var references: [ValidationReading]
    /// The device reading.
    public var device: ValidationReading

    /// The reference systolic pressure (the mean of the references), mmHg.
    public var referenceSystolic: Double { Double(references.reduce(0) { $0 + $1.systolic }) / Double(references.count) }
    /// True when a reading of the pair carries a `status` flag (`ReadingQuality.flagged`).
    public var isFlagged: Bool { !device.quality.flags.isEmpty || references.contains { !$0.quality.flags.isEmpty } }
    /// The reference diastolic pressure, mmHg.
    public var referenceDiastolic: Double { Double(references.reduce(0) { $0 + $1.diastolic }) / Double(references.count) }
    /// Device − reference, systolic, mmHg.
    public var systolicDifference: Double { Double(device.systolic) - referenceSystolic }
    /// Device − reference, diastolic, mmHg.
    public var diastolicDifference: Double { Double(device.diastolic) - referenceDiastolic }
}

/// Why a reading or subject could not take part, each naming it (status 65 for the command).
public enum ValidationProblem: Equatable, Sendable, CustomStringConvertible {
    /// Under `sequential`, a device value without a reference reading just before (`before` true)
    /// or just after it.
    case missingNeighbour(device: ValidationReading, before: Bool)
    /// A subject with readings but not one pair.
    case subjectWithoutPair(String)

    public var description: String {
        switch self {
        case .missingNeighbour(let d, let before):
            return "\(d.origin): device value of subject \(JSONString.quoted(d.subject)) has no reference reading "
                + (before ? "before it" : "after it")
        case .subjectWithoutPair(let s): return "subject \(JSONString.quoted(s)) has no pair"
        }
    }
}

/// The pairs of a validation and what was left over.
public struct ValidationPairs: Equatable, Sendable {
    /// The pairs, by subject (first appearance) then time.
    public var pairs: [ValidationPair]
    /// Every subject seen in either input, in order of first appearance.
    public var subjects: [String]
    /// Readings and subjects that could not be paired and make the data bad (status 65).
    public var problems: [ValidationProblem]
    /// Reference readings that are in no pair (counted, not an error).
    public var unpairedReference: Int
    /// Device readings that are in no pair and are not a `problem` (under `nearest`: no reference
    /// within the window, or a closer one took it).
    public var unpairedDevice: Int
    /// Readings without a `subject`, grouped as subject `-`.
    public var withoutSubject: Int

    /// Pairs `device` with `reference` readings of the same subject by `rule`.
    public init(reference: [ValidationReading], device: [ValidationReading], rule: ValidationPairing) {
        var order: [String] = []
        var bySubject: [String: (ref: [ValidationReading], dev: [ValidationReading])] = [:]
        for (r, isRef) in reference.map({ ($0, true) }) + device.map({ ($0, false) }) {
            if bySubject[r.subject] == nil { order.append(r.subject); bySubject[r.subject] = ([], []) }
            if isRef { bySubject[r.subject]!.ref.append(r) } else { bySubject[r.subject]!.dev.append(r) }
        }
        subjects = order
        pairs = []
        problems = []
        unpairedReference = 0
        unpairedDevice = 0
        withoutSubject = (reference + device).filter { !$0.hasSubject }.count
        for subject in order {
            let (ref, dev) = bySubject[subject]!
            let found: [ValidationPair]
            switch rule {
            case .sequential: found = sequentialPairs(subject: subject, ref: ref, dev: dev)
            case .nearest(let window): found = nearestPairs(subject: subject, ref: ref, dev: dev, window: window)
            }
            if found.isEmpty { problems.append(.subjectWithoutPair(subject)) }
            pairs += found
        }
    }

    private mutating func sequentialPairs(subject: String, ref: [ValidationReading], dev: [ValidationReading]) -> [ValidationPair] {
        // Stable sort by time: at equal times input order, references first.
        let merged = (ref.enumerated().map { (0, $0.offset, $0.element) } + dev.enumerated().map { (1, $0.offset, $0.element) })
            .sorted { ($0.2.measuredAt, $0.0, $0.1) < ($1.2.measuredAt, $1.0, $1.1) }
        var used = Set<Int>()
        var found: [ValidationPair] = []
        for (k, entry) in merged.enumerated() where entry.0 == 1 {
            let before = k > 0 && merged[k - 1].0 == 0
            let after = k + 1 < merged.count && merged[k + 1].0 == 0
            guard before, after else {
                problems.append(.missingNeighbour(device: entry.2, before: !before))
                continue
            }
            used.insert(merged[k - 1].1)
            used.insert(merged[k + 1].1)
            found.append(ValidationPair(subject: subject, references: [merged[k - 1].2, merged[k + 1].2], device: entry.2))
        }
        unpairedReference += ref.count - used.count
        return found
    }

    private mutating func nearestPairs(subject: String, ref: [ValidationReading], dev: [ValidationReading], window: Double) -> [ValidationPair] {
        var candidates: [(gap: Double, r: Int, d: Int)] = []
        for (i, r) in ref.enumerated() {
            for (j, d) in dev.enumerated() {
                let gap = abs(d.measuredAt.seconds(since: r.measuredAt))
                if gap <= window { candidates.append((gap, i, j)) }
            }
        }
        candidates.sort { ($0.gap, $0.r, $0.d) < ($1.gap, $1.r, $1.d) }
        var refUsed = Set<Int>(), devUsed = Set<Int>()
        var chosen: [(Int, Int)] = []
        for c in candidates where !refUsed.contains(c.r) && !devUsed.contains(c.d) {
            refUsed.insert(c.r)
            devUsed.insert(c.d)
            chosen.append((c.r, c.d))
        }
        unpairedReference += ref.count - refUsed.count
        unpairedDevice += dev.count - devUsed.count
        return chosen.sorted { ref[$0.0].measuredAt < ref[$1.0].measuredAt }
            .map { ValidationPair(subject: subject, references: [ref[$0.0]], device: dev[$0.1]) }
    }
}
