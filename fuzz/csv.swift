// libFuzzer target: CSV bytes (header + records). The first byte picks a chunk size; the rest
// is fed through the record splitter in that chunk size and whole, and both must read the same.
// Must never trap.

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
    var reader = CSVReadingReader()
    var out: [String] = []
    let take: (CSVOutcome) -> Void = { outcome in
        switch outcome {
        case .row(let line, _, .success(.reading(let r)), let note):
            _ = ReadingValidator.standard.validate(r)
            var bytes: [UInt8] = []
            r.appendJSONLine(to: &bytes)
            out.append("\(line) " + String(decoding: bytes, as: UTF8.self) + (note.map { " note " + $0 } ?? ""))
        case .row(let line, _, .success(let other), _): out.append("\(line) \(other)")
        case .row(let line, _, .failure(let issue), _): out.append("\(line) reject \(issue.reason)")
        case .skipped(let lines, let count, let why, _): out.append("\(lines) skip \(count) \(why.rawValue)")
        case .header(let table): out.append("\(table.line) header \(table.layout)")
        }
    }
    let record: (CSVRawRecord) -> Void = { reader.read($0, take) }
    var i = 0
    while i < bytes.count {
        splitter.feed(bytes[i..<min(bytes.count, i + chunk)], record)
        i += chunk
    }
    splitter.finish(record)
    reader.finish(take)
    return out
}
