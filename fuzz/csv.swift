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
    let take: (CSVRawRecord) -> Void = { record in
        do throws(IngestIssue) {
            switch try reader.read(record) {
            case .reading(let r):
                _ = ReadingValidator.standard.validate(r)
                var line: [UInt8] = []
                r.appendJSONLine(to: &line)
                out.append("\(record.line) " + String(decoding: line, as: UTF8.self))
            case .skipped(let why): out.append("\(record.line) skip \(why.rawValue)")
            case .none, .cuffFailure: out.append("\(record.line) none")
            }
        } catch {
            out.append("\(record.line) reject \(error.reason)")
        }
    }
    var i = 0
    while i < bytes.count {
        splitter.feed(bytes[i..<min(bytes.count, i + chunk)], take)
        i += chunk
    }
    splitter.finish(take)
    return out
}
