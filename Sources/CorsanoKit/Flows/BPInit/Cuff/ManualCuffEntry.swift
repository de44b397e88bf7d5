/// A reading typed in by a person, `SYS/DIA PULSE` (e.g. `120/80 72`): a manual entry, stamped
/// with the run clock's now, exempt from the time rules and deduplication (seed: `isManualEntry`).
public enum ManualCuffEntry {
    /// Why typed text is not a reading.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not `SYS/DIA PULSE`.
        case notAReading(String)
        /// A number outside its range (mmHg or bpm).
        case outOfRange(field: String, value: Int, range: ClosedRange<Int>)
        /// Systolic must be above diastolic.
        case systolicNotAboveDiastolic

        public var description: String {
            switch self {
            case .notAReading(let text): return "'\(text)' is not SYS/DIA PULSE, e.g. 120/80 72"
            case .outOfRange(let field, let value, let range):
                return "\(field) \(value) is outside \(range.lowerBound)-\(range.upperBound)"
            case .systolicNotAboveDiastolic: return "systolic must be above diastolic"
            }
        }
    }

    /// Ranges a typed value must fall in: systolic, diastolic (mmHg), pulse (bpm).
    public static let systolicRange = 50...300, diastolicRange = 20...200, pulseRange = 20...250

    /// Parses `120/80 72` (spaces around `/` allowed) into a manual reading stamped `now`.
    /// - Throws: `Problem` naming what is wrong.
    public static func parse(_ text: String, now: Instant) throws(Problem) -> CuffReading {
        let trimmed = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        let halves = trimmed.split(separator: "/", maxSplits: 1).map { $0.trimmingSpaces }
        guard halves.count == 2, let systolic = Int(halves[0]) else { throw .notAReading(trimmed) }
        let rest = halves[1].split(separator: " ")
        guard rest.count == 2, let diastolic = Int(rest[0]), let pulse = Int(rest[1]) else { throw .notAReading(trimmed) }
        for (field, value, range) in [("systolic", systolic, systolicRange), ("diastolic", diastolic, diastolicRange),
                                      ("pulse", pulse, pulseRange)] where !range.contains(value) {
            throw .outOfRange(field: field, value: value, range: range)
        }
        guard systolic > diastolic else { throw .systolicNotAboveDiastolic }
        return CuffReading(systolic: systolic, diastolic: diastolic, pulse: pulse, measuredAt: now, isManualEntry: true)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
