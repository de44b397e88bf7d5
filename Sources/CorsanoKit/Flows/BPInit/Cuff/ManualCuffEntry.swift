/// A reading typed in by a person, `SYS/DIA PULSE` (e.g. `120/80 72`): a manual entry, stamped
/// with the run clock's now, exempt from the time rules and deduplication (seed: `isManualEntry`).
public enum ManualCuffEntry {
    /// Why typed text is not a reading.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not `SYS/DIA PULSE`.
        case notAReading(String)
        /// The numbers fail the plausibility rules `cuff ingest` applies (`ReadingValidator`).
        case implausible(ValidationIssue)

        public var description: String {
            switch self {
            case .notAReading(let text): return "'\(text)' is not SYS/DIA PULSE, e.g. 120/80 72"
            case .implausible(let issue): return issue.reason
            }
        }
    }

    /// Parses `120/80 72` (spaces around `/` allowed) into a manual reading typed at `enteredAt`
    /// (wall-clock time, never the run's virtual clock): `enteredAt` is recorded, `measuredAt`
    /// stays absent — a manual entry is never age-checked or deduplicated (docs/design.md
    /// "Host-side cuff rules", rules 3 and 4; issue 26). - Throws: `Problem` naming what is wrong.
    public static func parse(_ text: String, enteredAt: Instant) throws(Problem) -> CuffReading {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        let shown = text.split(whereSeparator: isSpace).joined(separator: " ")
        // "SYS" before the slash, "DIA PULSE" after it.
        let words = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            .map { $0.split(whereSeparator: isSpace) }
        guard words.count == 2, words[0].count == 1, words[1].count == 2, let systolic = Int(words[0][0]),
              let diastolic = Int(words[1][0]), let pulse = Int(words[1][1]) else { throw .notAReading(shown) }
        let reading = CuffReading(systolic: systolic, diastolic: diastolic, pulse: pulse, measuredAt: nil, isManualEntry: true,
                                  provenance: [enteredAtField(enteredAt)])
        if let issue = ReadingValidator.standard.validate(reading) { throw .implausible(issue) }
        return reading
    }

    /// The `enteredAt` provenance field: the wall-clock instant a person typed a reading.
    public static func enteredAtField(_ instant: Instant) -> ProvenanceField {
        ProvenanceField(name: "enteredAt", rawJSON: "\"" + RFC3339.format(instant) + "\"")
    }
}
