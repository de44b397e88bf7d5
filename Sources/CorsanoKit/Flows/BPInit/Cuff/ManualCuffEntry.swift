/// A reading typed in by a person, `SYS/DIA PULSE` (e.g. `120/80 72`): a manual entry, stamped
/// with the run clock's now, exempt from the time rules and deduplication (seed: `isManualEntry`).
/// The one grammar of typed readings (bp-init's prompt, the REPL's `cuff add` and `cuff>` lines)
/// and, through `ReadingValidator.standard`, the one set of plausibility ranges.
public enum ManualCuffEntry {
    /// Why typed text is not a reading.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// Not `SYS/DIA PULSE`.
        case notAReading(String)
        /// The numbers fail the plausibility rules `cuff ingest` applies (`ReadingValidator`).
        case implausible(ValidationIssue)
        /// `at` without exactly one RFC 3339 time after it (`parse(_:enteredAt:allowingTime:)`).
        case badTime(String)

        public var description: String {
            switch self {
            case .notAReading(let text): return "'\(text)' is not SYS/DIA PULSE, e.g. 120/80 72"
            case .implausible(let issue): return issue.reason
            case .badTime(let text): return "'at' needs one RFC 3339 time like 2026-11-29T10:00:00Z, not '\(text)'"
            }
        }
    }

    /// Parses `SYS/DIA PULSE [at TIME]` (the REPL's `cuff add` words): without `at`, as
    /// `parse(_:enteredAt:)` (a manual entry typed at `enteredAt`); with `at TIME` (RFC 3339), a
    /// cuff reading measured at TIME, not a manual entry, so the host rules judge it as any cuff
    /// reading (replayed, duplicate, age; docs/design.md "Host-side cuff rules"). The same
    /// plausibility rules either way. - Throws: `Problem` naming what is wrong.
    public static func parse(_ text: String, enteredAt: Instant, allowingTime: Bool) throws(Problem) -> CuffReading {
        let words = text.split(whereSeparator: isSpace)
        guard allowingTime, let at = words.firstIndex(of: "at") else { return try parse(text, enteredAt: enteredAt) }
        let time = words[(at + 1)...].joined(separator: " ")
        guard at + 2 == words.count, let measuredAt = RFC3339.parseInstant(time) else { throw .badTime(time) }
        var reading = try parse(words[..<at].joined(separator: " "), enteredAt: enteredAt)
        reading.measuredAt = measuredAt
        reading.isManualEntry = false
        reading.provenance = []
        return reading
    }

    private static func isSpace(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\r" }

    /// Parses `120/80 72` (spaces around `/` allowed) into a manual reading typed at `enteredAt`
    /// (wall-clock time, never the run's virtual clock): `enteredAt` is recorded, `measuredAt`
    /// stays absent — a manual entry is never age-checked or deduplicated (docs/design.md
    /// "Host-side cuff rules", rules 3 and 4; issue 26). - Throws: `Problem` naming what is wrong.
    public static func parse(_ text: String, enteredAt: Instant) throws(Problem) -> CuffReading {
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
