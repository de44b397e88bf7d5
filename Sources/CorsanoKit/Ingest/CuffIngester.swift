/// Reads cuff records (jsonl, BLE capture lines, CSV) from byte sources and hands every one to
/// a sink as a reading, a skip, or a reject: nothing is lost silently (DESIGN "Host-side cuff
/// rules"). Memory stays bounded whatever the input size (one line or record at a time).
public final class CuffIngester {
    /// Finishing steps shared by all formats (time basis, validation, MAP).
    public private(set) var normalizer: IngestNormalizer
    /// Stop at the first reject (`--strict`).
    public let strict: Bool
    /// Counts so far, over every source.
    public private(set) var counts = IngestCounts()
    private let sink: any IngestSink
    private var stopped = false

    /// Creates an ingester writing to `sink`.
    public init(normalizer: IngestNormalizer, strict: Bool = false, sink: any IngestSink) {
        self.normalizer = normalizer
        self.strict = strict
        self.sink = sink
    }

    /// True once `--strict` stopped the run at a reject.
    public var stoppedAtReject: Bool { stopped }

    /// Ingests one input named `name` (for messages) in `format`, or detected when nil.
    /// - Throws: `IngestError.unknownFormat` when detection fails, `IngestError.unreadable` when
    ///   the source fails, and whatever the sink throws.
    public func ingest(_ source: any ByteSource, name: String, format: IngestFormat?) throws {
        guard !stopped else { return }
        var input: any ByteSource = source
        var chosen = format
        if format == nil {
            let (prefix, firstLine) = try sniff(&input, name: name)
            input = PrefixedByteSource(prefix: prefix, rest: input)
            guard let firstLine else { return }
            guard let detected = IngestFormat.detect(firstLine: firstLine) else {
                throw IngestError.unknownFormat(source: name, firstLine: String(decoding: firstLine.prefix(80), as: UTF8.self))
            }
            chosen = detected
        }
        do {
            switch chosen ?? .jsonl {
            case .jsonl, .ble: try ingestLines(input, name: name, ble: chosen == .ble)
            case .csv: try ingestCSV(input, name: name)
            }
        } catch let error as ByteSourceError {
            guard case .readFailed(let code) = error else { throw error }
            throw IngestError.unreadable(source: name, errno: code)
        }
    }

    /// Reads until the first line that is not blank or a `#` comment (bounded at 64 KiB);
    /// returns every byte read and that line (nil when the input has none).
    private func sniff(_ source: inout any ByteSource, name: String) throws -> ([UInt8], [UInt8]?) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var lineStart = 0
        var ended = false
        while true {
            var i = lineStart
            while i < bytes.count {
                if bytes[i] == 10 || bytes[i] == 13 {
                    let line = Array(bytes[lineStart..<i])
                    if !Self.isBlankOrComment(line) { return (bytes, line) }
                    lineStart = i + 1
                }
                i += 1
            }
            if ended || bytes.count >= 64 * 1024 {
                let rest = Array(bytes[lineStart...])
                return (bytes, Self.isBlankOrComment(rest) ? nil : rest)
            }
            try sink.willRead()
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { ended = true } else { bytes += chunk[0..<n] }
        }
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
        while !stopped, let item = try reader.next() {
            switch item {
            case .line(let number, var bytes):
                if number == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                    bytes = UnsafeRawBufferPointer(rebasing: bytes.dropFirst(3))  // UTF-8 BOM
                }
                // Hot path: a reading line goes straight to `accept`, no record/outcome wrapping
                // (copying those enums cost more than parsing); other lines take the general path.
                if !ble, case .success(.reading(var reading)) = ReadingLineParser.parse(bytes) {
                    try accept(&reading, source: name, line: number) { String(decoding: bytes, as: UTF8.self) }
                    continue
                }
                let record = ble ? Self.bleRecord(bytes) : Self.jsonRecord(bytes)
                try handle(record, source: name, line: number) { String(decoding: bytes, as: UTF8.self) }
            case .tooLong(let number, let count):
                try handle(.failure(IngestIssue("line: \(count) bytes, longer than \(reader.maxLineLength)")),
                           source: name, line: number) { "" }
            }
        }
    }

    private func ingestCSV(_ source: any ByteSource, name: String) throws {
        var source = source
        var splitter = CSVRecordSplitter()
        var reader = CSVReadingReader()
        var buffer = [UInt8](repeating: 0, count: LineReader.defaultChunkSize)
        let take: (CSVRawRecord) throws -> Void = { [unowned self] record in
            guard !self.stopped else { return }
            let result = Result<IngestRecord, IngestIssue> { () throws(IngestIssue) in try reader.read(record) }
            try self.handle(result, source: name, line: record.line) { String(decoding: record.bytes, as: UTF8.self) }
        }
        while !stopped {
            try sink.willRead()
            let n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            try splitter.feed(buffer[0..<n], take)
        }
        try splitter.finish(take)
    }

    /// Counts and routes one record's result.
    private func handle(_ result: Result<IngestRecord, IngestIssue>, source: String, line: Int,
                        raw: () -> String) throws {
        switch result {
        case .success(.none):
            return
        case .success(.reading(var reading)):
            try accept(&reading, source: source, line: line, raw: raw)
        case .success(.cuffFailure(let failure)):
            counts.read += 1
            try sink.write(cuffFailure: failure)
            counts.written += 1
        case .success(.skipped(let why)):
            counts.read += 1
            counts.skipped[why, default: 0] += 1
        case .failure(let issue):
            counts.read += 1
            try reject(issue.reason, source: source, line: line, raw: raw)
        }
    }

    /// Finishes, counts and writes (or rejects) one reading.
    private func accept(_ reading: inout CuffReading, source: String, line: Int, raw: () -> String) throws {
        counts.read += 1
        switch normalizer.finish(reading: &reading) {
        case .keep(let note):
            if let note { try sink.note(source: source, line: line, message: note) }
            try sink.write(reading)
            counts.written += 1
        case .reject(let reason):
            try reject(reason, source: source, line: line, raw: raw)
        }
    }

    private func reject(_ reason: String, source: String, line: Int, raw: () -> String) throws {
        counts.rejected += 1
        try sink.reject(IngestReject(source: source, line: line, reason: reason, raw: raw()))
        if strict { stopped = true }
    }
}
