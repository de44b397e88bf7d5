import Synchronization

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
    /// The reader was told to stop (`ReadInterrupt`: a stop signal); nothing more is read.
    case interrupted
}

extension ByteSourceError: CustomStringConvertible {
    /// The system's text for the errno (`Is a directory`), so an interpolated error reads as
    /// words rather than a Swift case dump.
    public var description: String {
        switch self {
        case .readFailed(let code): return String(cString: strerror(code))
        case .interrupted: return "reading stopped"
        }
    }
}

/// Reads a file descriptor with `read(2)`, retrying on EINTR. Does not own or close the descriptor.
public struct FileDescriptorSource: ByteSource {
    /// The descriptor read from.
    public let fd: Int32
    /// Ends reading with `ByteSourceError.interrupted` once fired, even while a read waits.
    public let interrupt: ReadInterrupt?
    /// The end was read: a terminal's Control-D is one read of 0 bytes, and asking the terminal
    /// again would wait for a second one, so the end is kept, not read twice.
    private var ended = false

    /// Creates a source over `fd` (0 for stdin); `interrupt` stops it (a stop signal).
    public init(fd: Int32, interrupt: ReadInterrupt? = nil) {
        self.fd = fd
        self.interrupt = interrupt
    }

    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0, !ended else { return 0 }
        if let interrupt { try interrupt.wait(forReadable: fd) }
        while true {
            let n = systemRead(fd, base, buffer.count)
            if n == 0 { ended = true }
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw ByteSourceError.readFailed(errno: errno)
        }
    }
}

/// Stops reads in progress and to come (a stop signal's handler fires it from another thread):
/// a read waiting on a pipe wakes up, and every read throws `ByteSourceError.interrupted`.
public final class ReadInterrupt: Sendable {
    private let fired = Atomic<Bool>(false)
    /// The self-pipe a waiting read polls beside its input; -1 when none could be made (then
    /// only reads that have not started yet are stopped).
    private let wakeRead: Int32, wakeWrite: Int32

    /// A new, unfired interrupt.
    public init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        } else {
            fds = [-1, -1]
        }
        (wakeRead, wakeWrite) = (fds[0], fds[1])
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// Stops reading; safe from any thread, once or more.
    public func fire() {
        guard !fired.exchange(true, ordering: .sequentiallyConsistent), wakeWrite >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// True once fired.
    public var isFired: Bool { fired.load(ordering: .sequentiallyConsistent) }

    /// Returns when `fd` can be read without waiting; throws `.interrupted` once fired.
    func wait(forReadable fd: Int32) throws {
        guard !isFired else { throw ByteSourceError.interrupted }
        guard wakeRead >= 0 else { return }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        while true {
            let n = poll(&fds, 2, -1)
            if n < 0, errno == EINTR { continue }
            // poll failing (it should not) leaves the read to tell: no wait is lost.
            if isFired { throw ByteSourceError.interrupted }
            return
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
