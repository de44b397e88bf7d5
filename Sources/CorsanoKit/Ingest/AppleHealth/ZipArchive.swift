import CZlib

/// Why a ZIP file could not be read (the reason names the structure; exit 65).
public struct ZipError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// The central directory of a ZIP file read in place (PKWARE APPNOTE 6.3.10: end of central
/// directory record 4.3.16, ZIP64 locator and record 4.3.14-15, central headers 4.3.12, ZIP64
/// extended information 4.5.3, data descriptors 4.3.9): entries are found from the directory at
/// the end of the file, so a local header's zero sizes (bit 3, a data descriptor follows the
/// data) are never needed; sizes and offsets past 4 GiB come from the ZIP64 fields.
public struct ZipArchive {
    /// One file of the archive.
    public struct Entry: Equatable, Sendable {
        public var name: String
        /// 0 stored, 8 deflated.
        public var method: UInt16
        public var flags: UInt16
        public var crc32: UInt32
        public var compressedSize: Int64
        public var uncompressedSize: Int64
        public var localHeaderOffset: Int64
    }

    public let file: any RandomAccessSource
    public let entries: [Entry]

    /// True when `head` starts with a ZIP local file header (`PK\3\4`).
    public static func isZip(_ head: some Collection<UInt8>) -> Bool { head.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    /// Reads the directory of `file`.
    /// - Throws: `ZipError` when the structure is not a ZIP's; `ByteSourceError` when reading fails.
    public init(_ file: any RandomAccessSource) throws {
        self.file = file
        let tailLength = Int(min(file.size, 22 + 0xFFFF))
        guard tailLength >= 22, let tail = try file.bytes(at: file.size - Int64(tailLength), count: tailLength) else {
            throw ZipError("no end of central directory record (not a ZIP file, or truncated)")
        }
        guard let eocd = (0...(tailLength - 22)).reversed().first(where: { Self.u32(tail, $0) == 0x0605_4B50 }) else {
            throw ZipError("no end of central directory record (not a ZIP file, or truncated)")
        }
        let eocdOffset = file.size - Int64(tailLength - eocd)
        var count = Int64(Self.u16(tail, eocd + 10))
        var cdSize = Int64(Self.u32(tail, eocd + 12))
        var cdOffset = Int64(Self.u32(tail, eocd + 16))
        if count == 0xFFFF || cdSize == 0xFFFF_FFFF || cdOffset == 0xFFFF_FFFF {
            // ZIP64: the locator sits just before the end record.
            guard eocdOffset >= 20, let locator = try file.bytes(at: eocdOffset - 20, count: 20),
                  Self.u32(locator, 0) == 0x0706_4B50 else { throw ZipError("ZIP64 fields without a ZIP64 locator") }
            let recordOffset = Int64(bitPattern: Self.u64(locator, 8))
            guard let record = try file.bytes(at: recordOffset, count: 56), Self.u32(record, 0) == 0x0606_4B50 else {
                throw ZipError("the ZIP64 end of central directory record is missing")
            }
            count = Int64(bitPattern: Self.u64(record, 32))
            cdSize = Int64(bitPattern: Self.u64(record, 40))
            cdOffset = Int64(bitPattern: Self.u64(record, 48))
        }
        // Compared without adding: ZIP64 fields are any 64-bit values (no overflow traps).
        guard cdOffset >= 0, cdSize >= 0, cdOffset <= file.size, cdSize <= file.size - cdOffset, cdSize < 1 << 30,
              count >= 0, count <= cdSize / 46,
              let directory = try file.bytes(at: cdOffset, count: Int(cdSize)) else {
            throw ZipError("the central directory lies outside the file")
        }
        var entries: [Entry] = []
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= directory.count, Self.u32(directory, p) == 0x0201_4B50 else {
                throw ZipError("central directory entry \(entries.count + 1) is damaged")
            }
            let nameLength = Int(Self.u16(directory, p + 28)), extraLength = Int(Self.u16(directory, p + 30))
            let commentLength = Int(Self.u16(directory, p + 32))
            guard p + 46 + nameLength + extraLength + commentLength <= directory.count else {
                throw ZipError("central directory entry \(entries.count + 1) is damaged")
            }
            var entry = Entry(name: String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self),
                              method: Self.u16(directory, p + 10), flags: Self.u16(directory, p + 8),
                              crc32: Self.u32(directory, p + 16), compressedSize: Int64(Self.u32(directory, p + 20)),
                              uncompressedSize: Int64(Self.u32(directory, p + 24)),
                              localHeaderOffset: Int64(Self.u32(directory, p + 42)))
            // ZIP64 extended information: only the fields whose 32-bit value is all ones, in order.
            var e = p + 46 + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let id = Self.u16(directory, e), size = Int(Self.u16(directory, e + 2))
                guard e + 4 + size <= extraEnd else { break }
                if id == 1 {
                    var f = e + 4
                    func next() throws -> Int64 {
                        guard f + 8 <= e + 4 + size else { throw ZipError("ZIP64 extra field of \(entry.name) is too short") }
                        defer { f += 8 }
                        return Int64(bitPattern: Self.u64(directory, f))
                    }
                    if entry.uncompressedSize == 0xFFFF_FFFF { entry.uncompressedSize = try next() }
                    if entry.compressedSize == 0xFFFF_FFFF { entry.compressedSize = try next() }
                    if entry.localHeaderOffset == 0xFFFF_FFFF { entry.localHeaderOffset = try next() }
                }
                e += 4 + size
            }
            entries.append(entry)
            p += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// The entry's contents as a stream: stored or inflated, the CRC-32 and size checked at its end.
    /// - Throws: `ZipError` for encryption, another method, a damaged local header.
    public func open(_ entry: Entry) throws -> ZipEntryStream {
        guard entry.flags & 1 == 0 else { throw ZipError("\(entry.name) is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw ZipError("\(entry.name) is compressed with method \(entry.method) (only stored and deflate are read)")
        }
        guard entry.localHeaderOffset >= 0, entry.localHeaderOffset <= file.size - 30,
              let local = try file.bytes(at: entry.localHeaderOffset, count: 30), Self.u32(local, 0) == 0x0403_4B50 else {
            throw ZipError("the local header of \(entry.name) is missing")
        }
        let dataOffset = entry.localHeaderOffset + 30 + Int64(Self.u16(local, 26)) + Int64(Self.u16(local, 28))
        guard entry.compressedSize >= 0, entry.uncompressedSize >= 0, entry.compressedSize <= file.size - dataOffset else {
            throw ZipError("\(entry.name) extends past the end of the file")
        }
        return try ZipEntryStream(entry: entry, data: file.stream(from: dataOffset, length: entry.compressedSize))
    }

    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(b, i)) | UInt32(u16(b, i + 2)) << 16 }
    static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }
}

/// One ZIP entry read in order: stored bytes, or raw deflate inflated with zlib (RFC 1951),
/// its CRC-32 and size checked when it ends (a damaged archive is not read as a short one).
public final class ZipEntryStream: ByteSource {
    private var data: RangeByteSource
    private let entry: ZipArchive.Entry
    private var stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private let inputSize = 64 * 1024
    private let input: UnsafeMutablePointer<UInt8>
    private var crc: uLong = 0
    private var produced: Int64 = 0
    private var finished = false
    private var inputEnded = false

    init(entry: ZipArchive.Entry, data: RangeByteSource) throws {
        self.entry = entry
        self.data = data
        stream.initialize(to: z_stream())
        input = .allocate(capacity: inputSize)
        crc = crc32(0, nil, 0)
        if entry.method == 8 {
            guard inflateInit2_(stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                stream.deallocate()
                input.deallocate()
                throw ZipError("zlib could not start inflating")
            }
        }
    }

    deinit {
        if entry.method == 8 { inflateEnd(stream) }
        stream.deallocate()
        input.deallocate()
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !finished, let out = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let count = min(buffer.count, Int(UInt32.max))
        var n = 0
        if entry.method == 0 {
            n = try data.read(into: UnsafeMutableRawBufferPointer(start: out, count: count))
            if n == 0 { try end() }
        } else {
            stream.pointee.next_out = out.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(count)
            while stream.pointee.avail_out == uInt(count) {
                if stream.pointee.avail_in == 0, !inputEnded {
                    let got = try data.read(into: UnsafeMutableRawBufferPointer(start: input, count: inputSize))
                    if got == 0 { inputEnded = true }
                    stream.pointee.next_in = input
                    stream.pointee.avail_in = uInt(got)
                }
                let status = inflate(stream, Z_NO_FLUSH)
                if status == Z_STREAM_END {
                    n = count - Int(stream.pointee.avail_out)
                    crc = crc32(crc, out.assumingMemoryBound(to: Bytef.self), uInt(n))
                    produced += Int64(n)
                    try end()
                    return n
                }
                guard status == Z_OK || (status == Z_BUF_ERROR && !inputEnded) else {
                    throw ZipError("\(entry.name): the compressed data is damaged"
                                   + (inputEnded ? " (it ends early)" : " (zlib \(status))"))
                }
            }
            n = count - Int(stream.pointee.avail_out)
        }
        if n > 0 {
            crc = crc32(crc, out.assumingMemoryBound(to: Bytef.self), uInt(n))
            produced += Int64(n)
            // Never more than the directory says (a damaged size, or a bomb): stop at once.
            if produced > entry.uncompressedSize { try end() }
        }
        return n
    }

    private func end() throws {
        finished = true
        guard produced == entry.uncompressedSize else {
            throw ZipError("\(entry.name): \(produced) bytes inflated, the directory says \(entry.uncompressedSize)")
        }
        guard UInt32(truncatingIfNeeded: crc) == entry.crc32 else { throw ZipError("\(entry.name): CRC-32 mismatch (damaged archive)") }
    }
}
