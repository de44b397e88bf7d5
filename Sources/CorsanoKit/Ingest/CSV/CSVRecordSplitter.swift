/// One CSV record as raw bytes, with the physical line it starts on (1-based).
public struct CSVRawRecord: Equatable, Sendable {
    /// Line of the record's first byte; CRLF, LF and bare CR each end a line.
    public var line: Int
    /// The record's bytes without its line end (quoted line breaks kept), at most the limit.
    public var bytes: [UInt8]
    /// True when the record was longer than the limit and `bytes` holds only its start.
    public var overflowed: Bool
    /// Line of the record's last byte (later than `line` when a quoted cell holds line breaks).
    public var lastLine: Int

    /// Creates a record.
    public init(line: Int, bytes: [UInt8], overflowed: Bool = false, lastLine: Int? = nil) {
        self.line = line
        self.bytes = bytes
        self.overflowed = overflowed
        self.lastLine = lastLine ?? line
    }
}

/// Splits a CSV byte stream into records, fed in chunks of any size.
///
/// Handles a UTF-8 BOM at the start, CRLF, LF and bare CR line ends, line breaks inside quoted
/// cells (RFC 4180 §2.6), `""` escapes, and a last record without a line end (`finish`). Empty
/// lines are no records. A record longer than `maxRecordBytes` is cut (and flagged), so an
/// unclosed quote cannot make memory grow with the input.
public struct CSVRecordSplitter: Sendable {
    /// Longest record kept, bytes.
    public let maxRecordBytes: Int
    private var current: [UInt8] = []
    private var overflowed = false
    private var line = 1
    private var recordLine = 1
    private var inQuotes = false
    private var justClosedQuote = false
    private var fieldStart = true
    private var previousWasCR = false
    private var bomMatched = 0
    private var pastStart = false

    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Creates a splitter.
    public init(maxRecordBytes: Int = 64 * 1024) { self.maxRecordBytes = maxRecordBytes }

    /// Feeds the next chunk; `emit` gets each record completed by it, in order.
    public mutating func feed(_ chunk: some Sequence<UInt8>, _ emit: (CSVRawRecord) throws -> Void) rethrows {
        for b in chunk {
            if !pastStart {
                // Hold bytes while they could still be the BOM; replay them when they are not.
                if b == Self.bom[bomMatched] {
                    bomMatched += 1
                    if bomMatched == Self.bom.count { pastStart = true }
                    continue
                }
                pastStart = true
                for held in Self.bom.prefix(bomMatched) { try consume(held, emit) }
            }
            try consume(b, emit)
        }
    }

    /// True between records (nothing of a record held): a whole line may then be read by
    /// the fast path and counted with `skipLine` instead of being fed.
    public var atRecordStart: Bool { pastStart && current.isEmpty && !overflowed && !inQuotes && !previousWasCR }

    /// The line the next byte is on.
    public var nextLine: Int { line }

    /// Counts one line read elsewhere (at `atRecordStart`, ending with LF or CRLF).
    public mutating func skipLine() { line += 1 }

    /// Ends the stream: emits the last record when it had no line end.
    public mutating func finish(_ emit: (CSVRawRecord) throws -> Void) rethrows {
        if !pastStart {
            pastStart = true
            for held in Self.bom.prefix(bomMatched) { try consume(held, emit) }
        }
        try endRecord(emit)
    }

    private mutating func consume(_ b: UInt8, _ emit: (CSVRawRecord) throws -> Void) rethrows {
        let isCR = b == 13, isLF = b == 10
        defer {
            if isCR || (isLF && !previousWasCR) { line += 1 }
            previousWasCR = isCR
        }
        if inQuotes {
            if b == 34 { inQuotes = false; justClosedQuote = true }
            append(b)
            return
        }
        if isCR || isLF {
            try endRecord(emit)
            return
        }
        if b == 34 && (fieldStart || justClosedQuote) {
            inQuotes = true
        }
        justClosedQuote = false
        // Either candidate delimiter starts a field: the delimiter is only known from the header.
        fieldStart = b == 44 || b == 59 || b == 9 || (fieldStart && b == 32)
        append(b)
    }

    private mutating func append(_ b: UInt8) {
        if current.isEmpty && !overflowed { recordLine = line }
        if current.count < maxRecordBytes { current.append(b) } else { overflowed = true }
    }

    private mutating func endRecord(_ emit: (CSVRawRecord) throws -> Void) rethrows {
        defer {
            current.removeAll(keepingCapacity: true)
            overflowed = false
            inQuotes = false
            justClosedQuote = false
            fieldStart = true
        }
        guard !current.isEmpty else { return }
        try emit(CSVRawRecord(line: recordLine, bytes: current, overflowed: overflowed, lastLine: line))
    }
}
