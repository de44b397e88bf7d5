/// A byte source that first hands out bytes already read (to detect the format), then the rest.
public struct PrefixedByteSource: ByteSource {
    private var prefix: [UInt8]
    private var offset = 0
    private var rest: any ByteSource

    /// Creates a source that yields `prefix`, then reads `rest`.
    public init(prefix: [UInt8], rest: any ByteSource) {
        self.prefix = prefix
        self.rest = rest
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset < prefix.count else { return try rest.read(into: buffer) }
        let n = min(buffer.count, prefix.count - offset)
        guard n > 0, let base = buffer.baseAddress else { return 0 }
        prefix.withUnsafeBytes { src in
            if let from = src.baseAddress { base.copyMemory(from: from + offset, byteCount: n) }
        }
        offset += n
        return n
    }
}
