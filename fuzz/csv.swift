// libFuzzer target: CSV bytes (preamble, header, records, trailer). The first byte picks a chunk
// size; the rest is fed through the record splitter in that chunk size and whole, and both must
// read the same. Every data row the full reader reads is also given to the byte-level fast path
// (CSVFastRowReader), which must either decline it or give exactly the full reader's reading
// (never accept a row the full reader rejects or skips). Must never trap.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let chunk = Int(data[0] % 16) + 1
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let whole = read(bytes, chunk: max(1, bytes.count))
    let chunked = read(bytes, chunk: chunk)
    precondition(whole == chunked, "chunked CSV read differs from whole read")
    return 0
}

private func read(_ bytes: [UInt8], chunk: Int) -> [String] {
    var splitter = CSVRecordSplitter(maxRecordBytes: 512)
    var reader = CSVReadingReader(options: CSVOptions(holdLimit: 2048, headerSearchLimit: 1024))
    var fast: CSVFastRowReader?
    var out: [String] = []
    var pending: [CSVOutcome] = []
    let take: (CSVOutcome) -> Void = { pending.append($0) }
    func drain() {
        if fast == nil, let header = reader.header {
            fast = CSVFastRowReader(header: header, delimiter: reader.delimiter, layout: reader.layout)
        }
        for outcome in pending {
            switch outcome {
            case .row(let line, let raw, let result, let note):
                // A record cut at the limit is only its start: the full reader rejects it whole.
                let quick = raw.count >= 512 ? nil : fast.flatMap { f -> CuffReading? in
                    var f = f
                    return raw.withUnsafeBytes { f.read($0) }
                }
                switch result {
                case .success(.reading(let r)):
                    _ = ReadingValidator.standard.validate(r)
                    precondition(quick == nil || (quick == r && note == nil), "fast path reads line \(line) differently")
                    var json: [UInt8] = []
                    r.appendJSONLine(to: &json)
                    out.append("\(line) " + String(decoding: json, as: UTF8.self) + (note.map { " note " + $0 } ?? ""))
                case .success(let other):
                    precondition(quick == nil, "fast path reads line \(line), which the full reader skips")
                    out.append("\(line) \(other)")
                case .failure(let issue):
                    precondition(quick == nil, "fast path reads line \(line), which the full reader rejects: \(issue.reason)")
                    out.append("\(line) reject \(issue.reason)")
                }
            case .skipped(let lines, let count, let why, _): out.append("\(lines) skip \(count) \(why.rawValue)")
            case .header(let table): out.append("\(table.line) header \(table.layout) \(table.ignored)")
            case .note(let line, let message): out.append("\(line) note \(message)")
            }
        }
        pending.removeAll()
    }
    let record: (CSVRawRecord) -> Void = { reader.read($0, take) }
    var i = 0
    while i < bytes.count {
        splitter.feed(bytes[i..<min(bytes.count, i + chunk)], record)
        drain()
        i += chunk
    }
    splitter.finish(record)
    reader.finish(take)
    drain()
    return out
}
