/// A record that did not become a reading: where it was, why, and its raw text.
public struct IngestReject: Equatable, Sendable {
    /// The file name as given (`stdin` for standard input).
    public var source: String
    /// 1-based line the record starts on.
    public var line: Int
    /// What is wrong, naming the field.
    public var reason: String
    /// The record as read (invalid UTF-8 replaced).
    public var raw: String

    /// Creates a reject.
    public init(source: String, line: Int, reason: String, raw: String) {
        self.source = source
        self.line = line
        self.reason = reason
        self.raw = raw
    }

    /// `FILE:LINE: reason`, as printed on stderr.
    public var message: String { "\(source):\(line): \(reason)" }

    /// The `--rejects` JSON line: source, line, reason, raw.
    public var jsonLine: String {
        JSONValue.object([("source", .string(source)), ("line", .int(line)), ("reason", .string(reason)),
                          ("raw", .string(raw))]).serialized
    }
}

/// The counts a run ends with: records read, written, skipped (by reason), rejected, and of
/// the written readings those with no time and those typed in by a person.
public struct IngestCounts: Equatable, Sendable {
    public var read = 0
    public var written = 0
    public var skipped: [SkipReason: Int] = [:]
    public var rejected = 0
    /// Of the written readings, those with no time (issue 29: never from an export whose rows
    /// carry a time; exempt from the age rule downstream, so counted) and the manual entries.
    public var origins = ReadingOrigins()

    /// Creates zero counts.
    public init() {}

    /// Total skipped records.
    public var skippedTotal: Int { skipped.values.reduce(0, +) }

    /// `read 6, written 4, skipped 1 (no pressure values: 1), rejected 1`.
    public var summary: String {
        var text = "read \(read), written \(written), skipped \(skippedTotal)"
        let reasons = SkipReason.allCases.compactMap { r in skipped[r].map { "\(r.rawValue): \($0)" } }
        if !reasons.isEmpty { text += " (" + reasons.joined(separator: ", ") + ")" }
        return text + ", rejected \(rejected)" + origins.suffix
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
    func reject(_ reject: IngestReject) throws
    /// A change made to a written reading, or what was found about an input (`FILE:LINE: note: ...`).
    func note(source: String, line: Int, message: String) throws
    /// Records deliberately not read (`FILE:LINE: skipped: ...`, `FILE:LINE-LINE: skipped: ...`).
    func skipped(source: String, lines: ClosedRange<Int>, message: String) throws
    /// Called before every read of the input that could block: flush output here.
    func willRead() throws
}

/// `, unstamped N, manual M` for a closing counts line (each only when not zero): the readings
/// that carry no time (neither `measuredAt` nor `deviceTime`) and the manual entries, which
/// `cuff ingest`, `replay-filter` and `bp-init` all report (issue 29).
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
