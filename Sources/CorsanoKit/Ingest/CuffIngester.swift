import Foundation

/// Reads cuff records (jsonl, BLE capture lines, CSV) from byte sources and hands every one to
/// a sink as a reading, a skip, or a reject: nothing is lost silently (docs/design.md
/// "Host-side cuff rules"). Memory stays bounded whatever the input size (one line or record at a time).
public final class CuffIngester {
    /// Finishing steps shared by all formats (time basis, validation, MAP).
    public private(set) var normalizer: IngestNormalizer
    /// Stop at the first reject (`--strict`).
    public let strict: Bool
    /// Counts so far, over every source.
    public internal(set) var counts = RecordCounts()
    let sink: any IngestSink
    var stopped = false
    /// Where the ingester says what it decided at `-v`: each input's format and CSV layout, the
    /// time basis (docs/design.md "Diagnostics").
    public var diagnostics: Diagnostics = .none
    /// Copies an Apple Health export read from a pipe (its every remaining byte) to a private
    /// temporary file the command layer makes, so it is read twice as a regular file is: its
    /// pulse joined, a ZIP read in place (docs/design.md "Cuff input formats"). nil: a pipe is
    /// read once, without pulse. - Throws: the command's error when the copy cannot be written (74).
    public var spool: ((inout any ByteSource) throws -> any RandomAccessSource)?

    /// Creates an ingester writing to `sink`.
    public init(normalizer: IngestNormalizer, strict: Bool = false, sink: any IngestSink) {
        self.normalizer = normalizer
        self.strict = strict
        self.sink = sink
    }

    /// True once `--strict` stopped the run at a reject.
    public var stoppedAtReject: Bool { stopped }

    /// How each input is read beyond its format (CSV options, the text encoding).
    public struct Options: Sendable {
        /// Header row, date order and layout of CSV inputs.
        public var csv: CSVOptions
        /// The text encoding (`--encoding`); nil reads UTF-8, or UTF-16 when a BOM says so.
        public var encoding: TextEncoding?
        /// Read CSV data rows through `CSVFastRowReader` where it applies (off: the full reader
        /// only, for cross-checks).
        public var csvFastPath: Bool

        /// Creates options.
        public init(csv: CSVOptions = CSVOptions(), encoding: TextEncoding? = nil, csvFastPath: Bool = true) {
            self.csv = csv
            self.encoding = encoding
            self.csvFastPath = csvFastPath
        }
    }

    /// The CSV layout of each CSV input read so far (`layout: omron-connect` in the summary).
    public private(set) var layouts: [(source: String, layout: String)] = []

    /// Ingests one input named `name` (for messages) in `format`, or detected when nil.
    /// - Throws: `IngestError.unknownFormat` when detection fails, `IngestError.unreadable` when
    ///   the source fails, `IngestError.undecodable` at bytes the encoding cannot read, and
    ///   whatever the sink throws.
    ///
    /// `file` is the same input read at any offset, when it is a regular file: an Apple Health
    /// export.zip needs it; an export.xml is then read a second time for the pulse join.
    public func ingest(_ source: any ByteSource, name: String, format: IngestFormat?, options: Options = Options(),
                       file: (any RandomAccessSource)? = nil) throws {
        guard !stopped else { return }
        do {
            var input: any ByteSource = source
            var file = file
            let head = try readHead(&input)
            if ZipArchive.isZip(head), format == nil || format == .applehealth {
                if file == nil, let spool {
                    var whole: any ByteSource = PrefixedByteSource(prefix: head, rest: input)
                    file = try spool(&whole)
                }
                sayTimeBasis(name, .applehealth)
                return try ingestAppleHealthZip(file, name: name)
            }
            // A UTF-16 BOM or --encoding: everything after this sees UTF-8 (and the same lines).
            var validateUTF8 = true
            if let (bom, length) = TextEncoding.fromBOM(head), bom != .utf8 {
                input = TranscodingByteSource(PrefixedByteSource(prefix: Array(head.dropFirst(length)), rest: input),
                                              encoding: bom, startOffset: length)
                validateUTF8 = false
            } else if let encoding = options.encoding, encoding != .utf8, TextEncoding.fromBOM(head) == nil {
                input = TranscodingByteSource(PrefixedByteSource(prefix: head, rest: input), encoding: encoding)
                validateUTF8 = false
            } else {
                input = PrefixedByteSource(prefix: head, rest: input)
            }
            var chosen = format
            if format == nil {
                let (prefix, lines) = try sniff(&input, name: name)
                input = PrefixedByteSource(prefix: prefix, rest: input)
                // A document format (an Apple Health export.zip or .xml, a Google Fit Takeout file)
                // is told by its first bytes, before the not-text check (a zip is binary).
                if let document = IngestFormat.detect(document: prefix) {
                    chosen = document
                } else {
                    // Not text: said once, bytes escaped, never echoed raw to a terminal (65).
                    if validateUTF8, IngestFormat.isBinary(prefix) {
                        throw IngestError.notText(source: name, firstBytes: IngestFormat.escaped(prefix.prefix(32)))
                    }
                    guard let firstLine = lines.first else { return }
                    guard let detected = IngestFormat.detect(firstLine: firstLine)
                        ?? (lines.dropFirst().contains { IngestFormat.detect(firstLine: $0) == .csv } ? .csv : nil) else {
                        throw IngestError.unknownFormat(source: name, firstLine: IngestFormat.escaped(firstLine.prefix(80)))
                    }
                    chosen = detected
                }
            }
            diagnostics.info(.ingest, "\(name): format \((chosen ?? .jsonl).rawValue) "
                             + (format == nil ? "(detected from its first bytes)" : "(as given)"))
            sayTimeBasis(name, chosen ?? .jsonl)
            switch chosen ?? .jsonl {
            case .jsonl, .ble: try ingestLines(input, name: name, ble: chosen == .ble)
            case .applehealth:
                if file == nil, let spool {
                    let spooled = try spool(&input)
                    (input, file) = (spooled.stream(), spooled)
                }
                try ingestAppleHealth(input, name: name, file: file)
            case .googlefit: try ingestGoogleFit(input, name: name)
            case .csv: try ingestCSV(input, name: name, options: options.csv, validateUTF8: validateUTF8, fastPath: options.csvFastPath)
            }
        } catch let error as ByteSourceError {
            guard case .readFailed(let code) = error else { throw error }
            throw IngestError.unreadable(source: name, errno: code)
        } catch let issue as TextDecodingIssue {
            throw IngestError.undecodable(source: name, offset: issue.offset, detail: issue.detail)
        }
    }

    /// A JSON document given as JSON lines — pretty-printed (its first line a lone `{`) or an
    /// array (`[`) — would be refused line by line, each "not valid JSON": it is refused once,
    /// naming the format to use (docs/design.md "Cuff input formats"). - Throws: `IngestError.malformed` (65).
    static func refuseJSONDocument(_ line: UnsafeRawBufferPointer, first: UInt8, source: String, line number: Int) throws {
        let trimmed = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        guard first == UInt8(ascii: "[") || trimmed == "{" else { return }
        throw IngestError.malformed(source: source, line: number, detail: "a JSON document (" + (first == UInt8(ascii: "[") ? "an array" : "one object over several lines")
            + "), not JSON lines (one reading object per line): write one reading per line, e.g. jq -c '" + (first == UInt8(ascii: "[") ? ".[]" : ".")
            + "' FILE | corsano cuff ingest --from jsonl -")
    }

    /// Says (-v) how the input's stamps become real time: a document format's stamps carry their
    /// own (Apple Health: a UTC offset on every date; Google Fit: Unix time), so neither the zone
    /// nor the clock anchor applies; other formats' naive stamps go through the anchor or the zone.
    private func sayTimeBasis(_ name: String, _ format: IngestFormat) {
        switch format {
        case .applehealth:
            diagnostics.info(.ingest, "\(name): stamps carry their own UTC offsets (Apple Health writes one on every date); "
                             + "the zone and the clock anchor are not used")
        case .googlefit:
            diagnostics.info(.ingest, "\(name): stamps are Unix time (UTC); the zone and the clock anchor are not used")
        case .jsonl, .ble, .csv:
            diagnostics.info(.ingest, "\(name): naive cuff stamps read " + (normalizer.basis.anchor.map {
                "with the clock anchor (cuff \($0.device) = \(RFC3339.format($0.phone))); manual entries in zone "
            } ?? "in zone ") + normalizer.basis.zone.identifier)
        }
    }

    /// The first bytes of the input (up to 4 KiB, fewer only at its end), for its BOM.
    private func readHead(_ source: inout any ByteSource) throws -> [UInt8] {
        var head = [UInt8](repeating: 0, count: 4096)
        var filled = 0
        while filled < 4 {
            try sink.willRead()
            let n = try head.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            if n == 0 { break }
            filled += n
        }
        return Array(head[0..<filled])
    }

    /// Reads until 64 KiB or the end; returns every byte read and the lines in them that are
    /// not blank or `#` comments, in order (the first decides the format; a CSV header may
    /// follow preamble lines).
    private func sniff(_ source: inout any ByteSource, name: String) throws -> ([UInt8], [[UInt8]]) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var ended = false
        while !ended && bytes.count < 64 * 1024 {
            try sink.willRead()
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { ended = true } else { bytes += chunk[0..<n] }
            // Stop as soon as the complete lines decide: the first one alone, or a CSV header
            // after preamble lines (a live pipe is not held until 64 KiB arrive).
            let complete = Self.contentLines(bytes, includeUnterminated: false)
            if IngestFormat.detect(document: bytes) != nil { break }
            if let first = complete.first, IngestFormat.detect(firstLine: first) != nil
                || complete.dropFirst().contains(where: { IngestFormat.detect(firstLine: $0) == .csv }) { break }
        }
        return (bytes, Self.contentLines(bytes, includeUnterminated: ended))
    }

    /// The non-blank, non-comment lines of `bytes`; a last line without a line break only
    /// when `includeUnterminated`.
    static func contentLines(_ bytes: [UInt8], includeUnterminated: Bool) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var start = 0
        for i in bytes.indices where bytes[i] == 10 || bytes[i] == 13 {
            let line = Array(bytes[start..<i])
            if !isBlankOrComment(line) { lines.append(line) }
            start = i + 1
        }
        if includeUnterminated, start < bytes.count {
            let rest = Array(bytes[start...])
            if !isBlankOrComment(rest) { lines.append(rest) }
        }
        return lines
    }

    static func isBlankOrComment(_ line: [UInt8]) -> Bool {
        var content = line[...]
        if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        guard let first = content.first(where: { $0 != 32 && $0 != 9 }) else { return true }
        return first == UInt8(ascii: "#")
    }

    private func ingestLines(_ source: any ByteSource, name: String, ble: Bool) throws {
        let reader = LineReader(source: source)
        reader.willRead = { [sink] in try sink.willRead() }
        var capture = BLECaptureReader()
        var content = false
        while !stopped, let item = try reader.next() {
            switch item {
            case .line(let number, var bytes):
                if number == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                    bytes = UnsafeRawBufferPointer(rebasing: bytes.dropFirst(3))  // UTF-8 BOM
                }
                if !ble, !content, let first = bytes.first(where: { $0 != 32 && $0 != 9 && $0 != 13 }) {
                    content = true
                    try Self.refuseJSONDocument(bytes, first: first, source: name, line: number)
                }
                // Hot path: a reading line goes straight to `accept`, no record/outcome wrapping
                // (copying those enums cost more than parsing); other lines take the general path.
                if !ble, case .success(.reading(var reading)) = ReadingLineParser.parse(bytes) {
                    try accept(&reading, source: name, line: number) { String(decoding: bytes, as: UTF8.self) }
                    continue
                }
                guard ble else {
                    try handle(Self.jsonRecord(bytes), source: name, line: number) { String(decoding: bytes, as: UTF8.self) }
                    continue
                }
                for outcome in capture.read(bytes, number: number) {
                    switch outcome {
                    case .record(let record):
                        try handle(record, source: name, line: number) { String(decoding: bytes, as: UTF8.self) }
                    case .skipped(let why, let message):
                        counts.read += 1
                        counts.skipped[why, default: 0] += 1
                        if let message { try sink.skipped(source: name, lines: number...number, message: message) }
                    }
                }
            case .tooLong(let number, let count):
                try handle(.failure(IngestIssue("line: \(count) bytes, longer than \(reader.maxLineLength)")),
                           source: name, line: number) { "" }
            }
        }
        // A 0x2B36 record whose last segment never came is lost data: said, at its first line.
        if ble, !stopped, let (line, issue) = capture.finish() {
            try handle(.failure(issue), source: name, line: line) { "" }
        }
    }

    /// CSV: whole lines from a buffer; each data row goes to the fast path when the table is
    /// open, and to the record splitter and the full reader otherwise (or when the fast path
    /// declines it). Memory: the buffer, one held record, and rows held for the date order.
    private func ingestCSV(_ source: any ByteSource, name: String, options: CSVOptions, validateUTF8: Bool, fastPath: Bool) throws {
        var source = source
        var splitter = CSVRecordSplitter()
        var reader = CSVReadingReader(options: options)
        // Named in the summary however the file ends (a failed write on stdout stops it early).
        defer { if reader.header != nil { layouts.append((name, reader.layout?.name ?? CSVLayout.genericName)) } }
        var fast: CSVFastRowReader?
        var validator = UTF8Validator()
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var filled = 0  // bytes in buffer
        var base = 0    // input offset of buffer[0]
        var fastBuilt = !fastPath
        let take: (CSVOutcome) throws -> Void = { [unowned self] outcome in
            guard !self.stopped else { return }
            try self.handleCSV(outcome, source: name)
        }
        let record: (CSVRawRecord) throws -> Void = { try reader.read($0, take) }
        // Reads the complete lines of buffer[0..<limit]; returns where the unread rest starts.
        func lines(upTo limit: Int) throws -> Int {
            try buffer.withUnsafeBytes { all in
                var pos = 0
                while pos < limit, !stopped {
                    guard let hit = memchr(all.baseAddress! + pos, 10, limit - pos) else { break }
                    let lf = UnsafeRawPointer(hit) - all.baseAddress!
                    let end = lf + 1
                    if !fastBuilt, reader.readyForFastRows, let header = reader.header {
                        fast = CSVFastRowReader(header: header, delimiter: reader.delimiter, layout: reader.layout)
                        fastBuilt = true
                    }
                    if splitter.atRecordStart, reader.readyForFastRows, fast != nil {
                        var rowEnd = lf
                        if rowEnd > pos, all[rowEnd - 1] == 13 { rowEnd -= 1 }
                        let row = UnsafeRawBufferPointer(rebasing: all[pos..<rowEnd])
                        if row.count <= splitter.maxRecordBytes, var reading = fast!.read(row) {
                            let line = splitter.nextLine
                            splitter.skipLine()
                            reader.noteFastRow(line: line)
                            try accept(&reading, source: name, line: line) { String(decoding: row, as: UTF8.self) }
                            pos = end
                            continue
                        }
                    }
                    try splitter.feed(UnsafeRawBufferPointer(rebasing: all[pos..<end]), record)
                    pos = end
                }
                return pos
            }
        }
        while !stopped {
            try sink.willRead()
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            if n == 0 { break }
            if validateUTF8 {
                do {
                    try buffer.withUnsafeBytes { try validator.feed(UnsafeRawBufferPointer(rebasing: $0[filled..<filled + n])) }
                } catch let issue as TextDecodingIssue {
                    // The lines before the offending one are read; that line and the rest are not.
                    _ = try lines(upTo: issue.offset - base)
                    try reader.finish(take)
                    throw issue
                }
            }
            filled += n
            let pos = try lines(upTo: filled)
            if pos == 0, filled == buffer.count {
                // No line end in a full buffer (a huge record, bare CR line ends): the splitter takes it.
                try splitter.feed(buffer[0..<filled], record)
                base += filled
                filled = 0
            } else if pos > 0 {
                buffer.withUnsafeMutableBytes { b in
                    if filled > pos { b.baseAddress!.copyMemory(from: b.baseAddress! + pos, byteCount: filled - pos) }
                }
                base += pos
                filled -= pos
            }
        }
        if filled > 0, !stopped { try splitter.feed(buffer[0..<filled], record) }
        try splitter.finish(record)
        try reader.finish(take)
        if validateUTF8, !stopped { try validator.finish() }
    }

    /// Counts and routes one CSV outcome.
    private func handleCSV(_ outcome: CSVOutcome, source: String) throws {
        switch outcome {
        case .row(let line, let raw, let result, let note):
            if case .success(.skipped(let why)) = result {
                counts.read += 1
                counts.skipped[why, default: 0] += 1
                try sink.skipped(source: source, lines: line...line, message: why.rawValue)
                return
            }
            try handle(result, source: source, line: line, extraNote: note) { String(decoding: raw, as: UTF8.self) }
        case .skipped(let lines, let count, let reason, let detail):
            counts.read += count
            counts.skipped[reason, default: 0] += count
            try sink.skipped(source: source, lines: lines, message: "\(count) \(count == 1 ? "line" : "lines") \(reason.rawValue) (\(detail))")
        case .header(let table):
            diagnostics.info(.ingest, "\(source):\(table.line): CSV header; layout \(table.layout)"
                             + (table.layout == CSVLayout.genericName ? " (no vendor layout's signature columns are all present)"
                                : " (its header carries every signature column of that layout)")
                             + (table.ownTime.map {
                                 switch $0 {
                                 case .zoneColumn(let name): "; each row's stamp read in the zone its \(name) cell names, not the run's zone"
                                 case .utc: "; its naive stamps are UTC (the layout's), not in the run's zone"
                                 }
                             } ?? ""))
            if !table.ignored.isEmpty {
                try sink.note(source: source, line: table.line, message: "columns ignored: " + table.ignored.joined(separator: ", "))
            }
        case .note(let line, let message):
            try sink.note(source: source, line: line, message: message)
        }
    }

    /// Counts and routes one record's result.
    private func handle(_ result: Result<IngestRecord, IngestIssue>, source: String, line: Int,
                        extraNote: String? = nil, raw: () -> String) throws {
        switch result {
        case .success(.none):
            return
        case .success(.reading(var reading)):
            try accept(&reading, source: source, line: line, extraNote: extraNote, raw: raw)
        case .success(.cuffFailure(let failure)):
            counts.read += 1
            try sink.write(cuffFailure: failure)
            counts.written += 1
        case .success(.skipped(let why)):
            counts.read += 1
            counts.skipped[why, default: 0] += 1
        case .failure(let issue):
            counts.read += 1
            try reject(issue, source: source, line: line, raw: raw)
        }
    }

    /// Finishes, counts and writes (or rejects) one reading.
    func accept(_ reading: inout CuffReading, source: String, line: Int, extraNote: String? = nil,
                        raw: () -> String) throws {
        counts.read += 1
        switch normalizer.finish(reading: &reading) {
        case .keep(let note):
            if let extraNote { try sink.note(source: source, line: line, message: extraNote) }
            if let note { try sink.note(source: source, line: line, message: note) }
            try sink.write(reading)
            counts.written += 1
            counts.origins.count(reading)
        case .reject(let issue):
            try reject(issue, as: RejectRecord.invalid, source: source, line: line, raw: raw)
        }
    }

    /// Counts and hands on a rejected record: `malformed` when it did not become a reading,
    /// `invalid` when the reading failed (docs/design.md "Rejects and counts").
    func reject(_ issue: IngestIssue, as reason: String = RejectRecord.malformed, source: String, line: Int,
                raw: () -> String) throws {
        counts.rejected += 1
        try sink.reject(RejectRecord(source: source, line: line, reason: reason, field: issue.field, error: issue.reason, raw: raw()))
        if strict { stopped = true }
    }
}
