#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Input that can be read at any offset: a regular file (an Apple Health export.zip, whose
/// directory is at its end; an export.xml read twice for the pulse join).
public protocol RandomAccessSource: AnyObject {
    /// Size in bytes.
    var size: Int64 { get }
    /// Reads up to `buffer.count` bytes at `offset`; returns how many (0 at the end).
    /// - Throws: `ByteSourceError.readFailed`.
    func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension RandomAccessSource {
    /// Reads exactly `count` bytes at `offset`; nil when the file ends first.
    public func bytes(at offset: Int64, count: Int) throws -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        var out = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = try out.withUnsafeMutableBytes {
                try read(at: offset + Int64(filled), into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            if n == 0 { return nil }
            filled += n
        }
        return out
    }

    /// A sequential source over `offset..<offset+length` (to the end when nil).
    public func stream(from offset: Int64 = 0, length: Int64? = nil) -> RangeByteSource {
        RangeByteSource(file: self, offset: offset, end: length.map { offset + $0 } ?? size)
    }
}

/// A byte range of a `RandomAccessSource` read in order.
public struct RangeByteSource: ByteSource {
    let file: any RandomAccessSource
    var offset: Int64
    let end: Int64

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let want = Int(min(Int64(buffer.count), max(0, end - offset)))
        guard want > 0 else { return 0 }
        let n = try file.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
        offset += Int64(n)
        return n
    }
}

/// A regular file's descriptor read with `pread(2)` (the descriptor's own offset is untouched).
/// Does not own or close it.
public final class FileDescriptorRandomAccess: RandomAccessSource {
    public let fd: Int32
    public let size: Int64

    /// The random access to `fd` when it is a regular file, else nil (a pipe, a terminal).
    public init?(fd: Int32) {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        self.fd = fd
        size = Int64(st.st_size)
    }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = pread(fd, base, buffer.count, off_t(offset))
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw ByteSourceError.readFailed(errno: errno)
        }
    }
}

/// Bytes in memory as a random-access source (tests).
public final class MemoryRandomAccess: RandomAccessSource {
    private let bytes: [UInt8]
    public var size: Int64 { Int64(bytes.count) }

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func read(at offset: Int64, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard offset >= 0, offset < Int64(bytes.count) else { return 0 }
        let n = min(buffer.count, bytes.count - Int(offset))
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + Int(offset), byteCount: n) }
        return n
    }
}
