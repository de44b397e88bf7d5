#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One buffered writer per output stream: large writes for throughput, `flush()` before every
/// read that could block and at exit, so a live pipeline sees each line as it happens.
///
/// A closed pipe (EPIPE) ends the program quietly with 141, never a crash report (SIGPIPE is
/// ignored at start so `write` reports it).
final class OutputWriter: @unchecked Sendable {
    static let stdout = OutputWriter(fd: 1)
    static let stderr = OutputWriter(fd: 2, capacity: 0)

    let fd: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int
    private let lock = NSLockLite()

    init(fd: Int32, capacity: Int = 64 * 1024) {
        self.fd = fd
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    /// Whether this stream is a terminal.
    var isTerminal: Bool { isatty(fd) == 1 }

    /// Appends `text`; writes through when the buffer is full.
    func write(_ text: String) {
        lock.locked {
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= capacity { drain() }
        }
    }

    /// Appends raw bytes (a kept input line, byte for byte).
    func write(bytes: UnsafeBufferPointer<UInt8>) {
        lock.locked {
            buffer.append(contentsOf: bytes)
            if buffer.count >= capacity { drain() }
        }
    }

    /// Appends `line` and a newline.
    func line(_ line: String) { write(line + "\n") }

    /// Writes everything buffered.
    func flush() { lock.locked { drain() } }

    private func drain() {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { _exit(ExitStatus.brokenPipe.rawValue) }
                buffer.removeAll(keepingCapacity: true)
                return
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A minimal pthread mutex (Foundation-free, so the writer stays cheap to start).
final class NSLockLite: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return try body()
    }
}
