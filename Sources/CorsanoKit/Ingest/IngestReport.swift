/// A record a filter did not pass on: the one `--rejects` JSON line of `cuff ingest` and
/// `replay-filter` (docs/design.md "Host-side cuff rules", "Rejects and counts").
///
/// `{"source":S,"line":N,"reason":WORD[,"field":F][,"age":A][,"error":TEXT],"raw":TEXT}`:
/// `reason` is a word a script can test (`malformed`: not a reading; `invalid`: a reading whose
/// values or stamps fail; replay-filter's rule words `duplicate`, `stale`, `future`, `replayed`,
/// `unanchored`), `field` the field at fault where it is known, `age` whole seconds for `stale`
/// and `future`, `error` what is wrong in words (as printed on stderr), `raw` the record as read.
public struct RejectRecord: Equatable, Sendable {
    /// The `reason` of a record that is not a reading (does not parse, or cannot be converted).
    public static let malformed = "malformed"
    /// The `reason` of a reading whose values or stamps fail (docs/design.md "Validation").
    public static let invalid = "invalid"

    /// The file name as given (`<stdin>` for standard input).
    public var source: String
    /// 1-based line the record starts on.
    public var line: Int
    /// Why, as a word (see the type's documentation).
    public var reason: String
    /// The field at fault, when known (`systolic`, `deviceTime`).
    public var field: String?
    /// What is wrong, naming the field (`systolic: 80 mmHg not above diastolic 120 mmHg`).
    public var error: String?
    /// Signed age, whole seconds truncated toward zero, for `stale` and `future`.
    public var age: Int?
    /// The record as read (invalid UTF-8 replaced; empty for a line too long to hold).
    public var raw: String

    /// Creates a record.
    public init(source: String, line: Int, reason: String, field: String? = nil, error: String? = nil,
                age: Int? = nil, raw: String) {
        self.source = source
        self.line = line
        self.reason = reason
        self.field = field
        self.error = error
        self.age = age
        self.raw = raw
    }

    /// `FILE:LINE: error` (or the reason word when there is no error text), as `cuff ingest`
    /// prints it on stderr.
    public var message: String { "\(source):\(line): \(error ?? reason)" }

    /// The `--rejects` JSON line (no newline).
    public var jsonLine: String {
        var members: [(String, JSONValue)] = [("source", .string(source)), ("line", .int(line)), ("reason", .string(reason))]
        if let field { members.append(("field", .string(field))) }
        if let age { members.append(("age", .int(age))) }
        if let error { members.append(("error", .string(error))) }
        members.append(("raw", .string(raw)))
        return JSONValue.object(members).serialized
    }
}

/// The closing counts of a filter: `cuff ingest`, `cuff listen` and `replay-filter` end with
/// one line of this shape (docs/design.md "Rejects and counts"), so one pattern reads them all.
public struct RecordCounts: Equatable, Sendable {
    /// Records read (blank lines are none).
    public var read = 0
    /// Records written to stdout (readings and passed-on cuff-failure lines).
    public var written = 0
    /// Input deliberately not read as records (`cuff ingest`), by reason.
    public var skipped: [SkipReason: Int] = [:]
    /// Readings dropped by a host rule (`replay-filter`), by reason.
    public var dropped: [DropReason: Int] = [:]
    /// Records that are not readings, or readings that fail validation (`cuff ingest`).
    public var rejected = 0
    /// Records handed to stdout that a failed write lost (exit 74).
    public var unwritten = 0
    /// Claims of unwritten lines given back to the seen-set, and unwritten lines whose claims
    /// could not be (`replay-filter`, issue 18).
    public var released = 0, unreleased = 0
    /// Of the written readings, those with no time (issue 29: never from an export whose rows
    /// carry a time; exempt from the age rule downstream, so counted) and the manual entries.
    public var origins = ReadingOrigins()

    /// Creates zero counts.
    public init() {}

    /// ` (replayed: 2, duplicate: 1)`: a count's breakdown by reason, in the reasons' declared
    /// order, zero counts left out; `""` when there is none. Every closing counts line says its
    /// reasons this way (bp-init's too).
    public static func byReason<R: RawRepresentable & CaseIterable>(_ counts: [R: Int]) -> String where R.RawValue == String {
        let parts = R.allCases.compactMap { r in counts[r].map { "\(r.rawValue): \($0)" } }
        return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }

    /// Total skipped records.
    public var skippedTotal: Int { skipped.values.reduce(0, +) }
    /// Total dropped readings.
    public var droppedTotal: Int { dropped.values.reduce(0, +) }

    /// `read 6, written 4, skipped 1 (no pressure values: 1), dropped 0, rejected 1`, then
    /// `, unwritten N`, `, released N`, `, unreleased N`, `, unstamped N`, `, manual N` when not zero.
    public var summary: String {
        var text = "read \(read), written \(written), skipped \(skippedTotal)\(Self.byReason(skipped)), "
            + "dropped \(droppedTotal)\(Self.byReason(dropped)), rejected \(rejected)"
        for (word, n) in [("unwritten", unwritten), ("released", released), ("unreleased", unreleased)] where n > 0 {
            text += ", \(word) \(n)"
        }
        return text + origins.suffix
    }
}

/// Where `CuffIngester` hands its results; the executable writes them to stdout, stderr and
/// the `--rejects` file.
public protocol IngestSink: AnyObject {
    /// A good reading, in input order.
    func write(_ reading: CuffReading) throws
    /// A cuff failure line, passed on in order (`{"error":"noReading"}`).
    func write(cuffFailure: CuffError) throws
    /// A record that was rejected.
    func reject(_ reject: RejectRecord) throws
    /// A change made to a written reading, or what was found about an input (`FILE:LINE: note: ...`).
    func note(source: String, line: Int, message: String) throws
    /// Records deliberately not read (`FILE:LINE: skipped: ...`, `FILE:LINE-LINE: skipped: ...`).
    func skipped(source: String, lines: ClosedRange<Int>, message: String) throws
    /// Called before every read of the input that could block: flush output here.
    func willRead() throws
}

/// `, unstamped N, manual M` for a closing counts line (each only when not zero): the readings
/// that carry no time (neither `measuredAt` nor `deviceTime`) and the manual entries, which
/// `cuff ingest`, `replay-filter` and `bp-init` all report.
public struct ReadingOrigins: Equatable, Sendable {
    public var unstamped = 0
    public var manual = 0

    /// Creates counts.
    public init(unstamped: Int = 0, manual: Int = 0) {
        self.unstamped = unstamped
        self.manual = manual
    }

    /// Counts one reading.
    public mutating func count(_ reading: CuffReading) {
        if reading.measuredAt == nil && reading.deviceTime == nil { unstamped += 1 }
        if reading.isManualEntry { manual += 1 }
    }

    /// `, unstamped 2, manual 1`; empty when both are zero.
    public var suffix: String {
        (unstamped > 0 ? ", unstamped \(unstamped)" : "") + (manual > 0 ? ", manual \(manual)" : "")
    }
}
