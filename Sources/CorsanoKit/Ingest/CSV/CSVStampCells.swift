/// What a CSV cell holds when it holds a time stamp: the rule that makes a column a stamp column
/// by its cells, whatever its name (issue 29: a header's names do not decide; a column the alias
/// table does not know is never dropped while its cells carry the readings' time).
///
/// Only stamps between 2000-01-01 and 2100-01-01 count, so record ids, counters and serial
/// numbers (`1234567890` is 2009 in Unix seconds, but `42` or `20261121` are not stamps) do not.
public enum CSVStampKind: String, Sendable, CaseIterable {
    /// A date and a time of day in one cell (`2026/11/21 21:12`, `Nov 21, 2026 21:12`, RFC 3339).
    case dateTime = "date-times"
    /// A date alone (`21/11/2026`, `2026-11-21`).
    case date = "dates"
    /// A time of day alone (`21:12`, `9:12 PM`).
    case time = "times of day"
    /// Unix time in seconds (10 digits).
    case epochSeconds = "Unix seconds"
    /// Unix time in milliseconds (13 digits).
    case epochMilliseconds = "Unix milliseconds"

    /// The `--column` role that reads a column of this kind.
    public var role: String {
        switch self {
        case .dateTime, .epochSeconds, .epochMilliseconds: return "datetime"
        case .date: return "date"
        case .time: return "time"
        }
    }

    /// 2000-01-01T00:00:00Z and 2100-01-01T00:00:00Z in Unix seconds: the span a stamp must fall in.
    static let span: Range<Int64> = 946_684_800..<4_102_444_800

    /// The kind of stamp `text` holds, or nil when it holds none (or one outside 2000-2099).
    public static func of(_ text: String) -> CSVStampKind? {
        let t = text.trimmingBlanks
        guard t.utf8.count >= 4, t.utf8.count <= 64 else { return nil }
        if t.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            guard let v = Int64(t) else { return nil }
            if t.utf8.count == 10, span.contains(v) { return .epochSeconds }
            if t.utf8.count == 13, span.contains(v / 1000) { return .epochMilliseconds }
            return nil
        }
        if let instant = RFC3339.parseInstant(t) { return span.contains(instant.secondsSinceEpoch) ? .dateTime : nil }
        var scanner = TimestampScanner(Array(t.utf8))
        let start = scanner
        if let parts = scanner.date() {
            let year: Int
            switch parts {
            case .known(let y, _, _), .yearLast(_, _, let y): year = y
            }
            guard (2000...2099).contains(year) else { return nil }
            if scanner.atEnd { return .date }
            guard scanner.dateTimeSeparator(), scanner.timeOfDay() != nil, scanner.atEnd else { return nil }
            return .dateTime
        }
        scanner = start
        guard let (h, m, s) = scanner.timeOfDay(), scanner.atEnd, h < 24, m < 60, s < 61 else { return nil }
        return .time
    }
}

/// Reads the first rows of a table and tells which of the columns it watches hold stamps in
/// most rows (more than half of the rows read; `sampleRows` at most). Decides early once every
/// watched column's answer cannot change.
public struct CSVStampSampler: Sendable {
    /// A watched column found to hold stamps.
    public struct Found: Equatable, Sendable {
        /// 0-based column index.
        public let column: Int
        /// The kind most of its stamp cells are.
        public let kind: CSVStampKind
        /// Rows whose cell held a stamp, and rows read.
        public let stamps: Int, rows: Int
        /// The first stamp cell, as written (for the message).
        public let example: String
    }

    /// Rows read before the answer is final (16).
    public static let sampleRows = 16

    private let watched: [Int]
    private var counts: [[CSVStampKind: Int]]
    private var examples: [String?]
    private(set) var rows = 0

    /// Watches the columns `columns` (0-based).
    public init(columns: [Int]) {
        watched = columns
        counts = Array(repeating: [:], count: columns.count)
        examples = Array(repeating: nil, count: columns.count)
    }

    /// True when nothing is watched.
    public var isEmpty: Bool { watched.isEmpty }

    /// Reads one data row's cells.
    public mutating func add(_ cells: [String]) {
        guard !decided else { return }
        rows += 1
        for (n, column) in watched.enumerated() where column < cells.count {
            guard let kind = CSVStampKind.of(cells[column]) else { continue }
            counts[n][kind, default: 0] += 1
            if examples[n] == nil { examples[n] = cells[column].trimmingBlanks }
        }
    }

    /// True when more rows cannot change the answer.
    public var decided: Bool {
        if rows >= Self.sampleRows { return true }
        let half = Self.sampleRows / 2
        return counts.allSatisfy { c in
            let stamps = c.values.reduce(0, +)
            return stamps > half || rows - stamps >= half
        }
    }

    /// The watched columns holding stamps in more than half of the rows read, in column order.
    public var found: [Found] {
        guard rows > 0 else { return [] }
        return watched.enumerated().compactMap { n, column in
            let stamps = counts[n].values.reduce(0, +)
            guard stamps * 2 > rows, let kind = counts[n].max(by: { ($0.value, $1.key.rawValue) < ($1.value, $0.key.rawValue) })?.key
            else { return nil }
            return Found(column: column, kind: kind, stamps: stamps, rows: rows, example: examples[n] ?? "")
        }
    }
}
