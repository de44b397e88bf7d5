#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a `LineReader` gets its bytes: a file descriptor, a pipe, or memory in tests.
public protocol ByteSource {
    /// Reads at most `buffer.count` bytes into `buffer`; returns how many, 0 at end of input.
    /// May block (a live pipe). - Throws: `ByteSourceError` when the read fails.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Why reading input failed.
public enum ByteSourceError: Error, Equatable, Sendable {
    /// `read(2)` failed with this errno.
    case readFailed(errno: Int32)
}

extension ByteSourceError: CustomStringConvertible {
    /// The system's text for the errno (`Is a directory`), so an interpolated error reads as
    /// words rather than a Swift case dump.
    public var description: String {
        switch self {
        case .readFailed(let code): return String(cString: strerror(code))
        }
    }
}

/// Reads a file descriptor with `read(2)`, retrying on EINTR. Does not own or close the descriptor.
public struct FileDescriptorSource: ByteSource {
    /// The descriptor read from.
    public let fd: Int32

    /// Creates a source over `fd` (0 for stdin).
    public init(fd: Int32) { self.fd = fd }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = systemRead(fd, base, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw ByteSourceError.readFailed(errno: errno)
        }
    }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
#else
private let systemRead = Darwin.read
#endif

/// Bytes held in memory, handed out at most `chunk` bytes a read (tests feed every chunk size).
public struct MemoryByteSource: ByteSource {
    private let bytes: [UInt8]
    private let chunk: Int
    private var offset = 0

    /// Creates a source over `bytes` that returns at most `chunk` (>= 1) bytes per read.
    public init(_ bytes: [UInt8], chunk: Int = .max) {
        self.bytes = bytes
        self.chunk = max(1, chunk)
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let n = min(buffer.count, chunk, bytes.count - offset)
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { src in
            buffer.baseAddress!.copyMemory(from: src.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
    }
}
