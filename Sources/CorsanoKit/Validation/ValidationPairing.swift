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

    /// Nearest pairing, closest gaps first: repeatedly the pair (reference, device value) of the
    /// least gap within `window`, ties to the lower reference then device index, until none is
    /// left. The least gap among what is unused always joins two readings with no unused reading
    /// at an instant strictly between them, so only neighbouring instants are candidates: the
    /// readings are grouped by instant in time order, each group's unused ones taken lowest index
    /// first, and a heap holds the candidates of each group and of each pair of neighbouring
    /// groups, renewed as readings are used and emptied groups leave. O(n log n) time and O(n)
    /// memory (every pair within the window of a day's readings was O(n²) of both).
    private mutating func nearestPairs(subject: String, ref: [ValidationReading], dev: [ValidationReading], window: Double) -> [ValidationPair] {
        var matcher = NearestMatcher(ref: ref.map(\.measuredAt), dev: dev.map(\.measuredAt), window: window)
        var chosen = matcher.pairs()
        unpairedReference += ref.count - chosen.count
        unpairedDevice += dev.count - chosen.count
        chosen.sort { ref[$0.0].measuredAt < ref[$1.0].measuredAt }
        return chosen.map { ValidationPair(subject: subject, references: [ref[$0.0]], device: dev[$0.1]) }
    }
}

/// The greedy nearest matching of `ValidationPairs` (closest gaps first) without looking at
/// every pair: readings grouped by instant, candidates only within a group and between
/// neighbouring groups, in a heap.
struct NearestMatcher {
    /// Readings in time order: (instant, 0 reference / 1 device, index in its input).
    private let sorted: [(at: Instant, side: Int, index: Int)]
    /// Per group (one instant): the range of its unused references and device values in `sorted`
    /// (heads advance as they are used), and its neighbours among groups still holding readings.
    private var refHead: [Int] = [], refEnd: [Int] = [], devHead: [Int] = [], devEnd: [Int] = []
    private var prev: [Int] = [], next: [Int] = []
    private var heap: [Candidate] = []
    private let window: Double
    private let ref: [Instant], dev: [Instant]

    private struct Candidate {
        var gap: Double, r: Int, d: Int, refGroup: Int, devGroup: Int
        static func < (a: Candidate, b: Candidate) -> Bool { (a.gap, a.r, a.d) < (b.gap, b.r, b.d) }
    }

    init(ref: [Instant], dev: [Instant], window: Double) {
        self.ref = ref
        self.dev = dev
        self.window = window
        sorted = (ref.indices.map { (ref[$0], 0, $0) } + dev.indices.map { (dev[$0], 1, $0) })
            .sorted { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        var k = 0
        while k < sorted.count {
            let at = sorted[k].at
            var end = k
            while end < sorted.count, sorted[end].at == at { end += 1 }
            var split = k
            while split < end, sorted[split].side == 0 { split += 1 }
            refHead.append(k); refEnd.append(split); devHead.append(split); devEnd.append(end)
            k = end
        }
        let groups = refHead.count
        prev = (0..<groups).map { $0 - 1 }
        next = (0..<groups).map { $0 + 1 < groups ? $0 + 1 : -1 }
    }

    /// The chosen (reference index, device index) pairs, in the order chosen.
    mutating func pairs() -> [(Int, Int)] {
        for g in refHead.indices {
            offer(within: g)
            if next[g] >= 0 { offer(between: g, next[g]) }
        }
        var chosen: [(Int, Int)] = []
        while let c = pop() {
            guard isCurrent(c) else { continue }
            chosen.append((c.r, c.d))
            refHead[c.refGroup] += 1
            devHead[c.devGroup] += 1
            for g in c.refGroup == c.devGroup ? [c.refGroup] : [c.refGroup, c.devGroup] { changed(g) }
        }
        return chosen
    }

    private func isEmpty(_ g: Int) -> Bool { refHead[g] == refEnd[g] && devHead[g] == devEnd[g] }

    /// Whether `c` still names each group's lowest unused reading, and the groups are the same or neighbours.
    private func isCurrent(_ c: Candidate) -> Bool {
        let (rg, dg) = (c.refGroup, c.devGroup)
        guard refHead[rg] < refEnd[rg], sorted[refHead[rg]].index == c.r, devHead[dg] < devEnd[dg], sorted[devHead[dg]].index == c.d
        else { return false }
        return rg == dg || next[rg] == dg || next[dg] == rg
    }

    /// Group `g` lost its lowest unused readings: leave when empty (its neighbours meet), else renew its candidates.
    private mutating func changed(_ g: Int) {
        let (p, n) = (prev[g], next[g])
        if isEmpty(g) {
            if p >= 0 { next[p] = n }
            if n >= 0 { prev[n] = p }
            prev[g] = -1
            next[g] = -1
            if p >= 0, n >= 0 { offer(between: p, n) }
            return
        }
        offer(within: g)
        if p >= 0 { offer(between: p, g) }
        if n >= 0 { offer(between: g, n) }
    }

    private mutating func offer(within g: Int) {
        offer(refGroup: g, devGroup: g)
    }

    private mutating func offer(between g: Int, _ h: Int) {
        offer(refGroup: g, devGroup: h)
        offer(refGroup: h, devGroup: g)
    }

    private mutating func offer(refGroup rg: Int, devGroup dg: Int) {
        guard refHead[rg] < refEnd[rg], devHead[dg] < devEnd[dg] else { return }
        let r = sorted[refHead[rg]].index, d = sorted[devHead[dg]].index
        let gap = abs(dev[d].seconds(since: ref[r]))
        guard gap <= window else { return }
        push(Candidate(gap: gap, r: r, d: d, refGroup: rg, devGroup: dg))
    }

    private mutating func push(_ c: Candidate) {
        heap.append(c)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard heap[i] < heap[parent] else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func pop() -> Candidate? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if heap.isEmpty { return top }
        heap[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var least = i
            if l < heap.count, heap[l] < heap[least] { least = l }
            if r < heap.count, heap[r] < heap[least] { least = r }
            if least == i { break }
            heap.swapAt(i, least)
            i = least
        }
        return top
    }
}
