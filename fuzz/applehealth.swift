// libFuzzer target: Apple Health export.xml through `HealthXMLScanner` and `AppleHealthReader`
// (both passes), and export.zip through `ZipArchive` and `ZipEntryStream` (zlib inflate). Must
// never trap; what the reader makes of a document must not depend on how the bytes arrive (one
// read, or three bytes at a time: buffer refills, constructs split across reads); the pulse pass
// must answer only for keys it was asked about.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppleHealth(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if ZipArchive.isZip(bytes) {
        guard let archive = try? ZipArchive(MemoryRandomAccess(bytes)) else { return 0 }
        for entry in archive.entries.prefix(4) {
            guard let stream = try? archive.open(entry) else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            var total = 0
            while let n = try? buffer.withUnsafeMutableBytes({ try stream.read(into: $0) }), n > 0 {
                total += n
                precondition(Int64(total) <= entry.uncompressedSize, "inflated past the directory's size")
            }
        }
        return 0
    }
    func run(_ chunk: Int) -> ([String], Set<AppleHealthReader.JoinKey>) {
        var items: [String] = []
        var keys: Set<AppleHealthReader.JoinKey> = []
        do {
            let tally = try AppleHealthReader.readBloodPressure(MemoryByteSource(bytes, chunk: chunk), bufferSize: 4096) { item in
                items.append("\(item.line) \(item.result) \(item.raw)")
                if case .success = item.result, let key = item.joinKey { keys.insert(key) }
            }
            items.append("\(tally)")
        } catch {
            items.append("error \(error)")
        }
        return (items, keys)
    }
    let (whole, keys) = run(.max)
    let (split, _) = run(3)
    precondition(whole == split, "chunked read differs:\n\(whole)\n\(split)")
    if let pulses = try? AppleHealthReader.heartRates(MemoryByteSource(bytes, chunk: 7), wanted: keys, bufferSize: 4096) {
        precondition(pulses.keys.allSatisfy(keys.contains), "a pulse for a key not asked about")
    }
    return 0
}
