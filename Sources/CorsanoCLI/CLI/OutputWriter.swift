import CorsanoKit
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One buffered writer per output stream: large writes for throughput, `flush()` before every
/// read that could block and at exit, so a live pipeline sees each line as it happens.
///
/// A failed write is never ignored (docs/design.md "Exit status"):
/// - EPIPE (the reader closed the pipe; SIGPIPE is ignored at start so `write` reports it) ends
///   the program quietly with 141 at once, unless a flow runs: then the flow is cancelled like a
///   signal would (`whileFlowRuns`) so it restores the bracelet's plan, and the exit is 141 after.
/// - Any other error (ENOSPC, EIO...) is remembered with its errno; the process ends with 74 and
///   `corsano: STREAM: strerror` (see `OutputWriter.exitStatus(after:)`).
/// In both cases everything after the failure is dropped, counting the lines lost.
final class OutputWriter: @unchecked Sendable {
    static let stdout = OutputWriter(fd: 1)
    static let stderr = OutputWriter(fd: 2, capacity: 0)

    let fd: Int32
    /// The stream's name in messages: `stdout`, `stderr` or a file's path.
    let name: String
    private var buffer: [UInt8] = []
    private let capacity: Int
    private let lock = Mutex(())
    /// Set at the first failed write: output is dropped from then on.
    private var failure: Int32?
    private var linesDropped = 0

    init(fd: Int32, capacity: Int = 64 * 1024, name: String? = nil) {
        self.fd = fd
        self.capacity = capacity
        self.name = name ?? (fd == 1 ? "stdout" : fd == 2 ? "stderr" : "fd \(fd)")
        buffer.reserveCapacity(capacity)
    }

    /// Whether this stream is a terminal.
    var isTerminal: Bool { isatty(fd) == 1 }

    /// Whether a write failed (EPIPE included): output is being dropped, a loop producing it may stop.
    var hasFailed: Bool { lock.locked { failure != nil } }

    /// Lines handed to this writer that never reached the stream (a write failed).
    var droppedLines: Int { lock.locked { linesDropped } }

    /// Appends `text`; writes through when the buffer is full.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    /// Appends raw bytes (a kept input line, byte for byte).
    func write(bytes: UnsafeBufferPointer<UInt8>) {
        let readerGone = lock.locked { () -> Bool in
            if failure != nil {
                linesDropped += Self.newlines(bytes)
                return false
            }
            buffer.append(contentsOf: bytes)
            return buffer.count >= capacity && drain()
        }
        if readerGone { Self.flowCancel.withLock { $0 }?() }
    }

    /// Appends `line` and a newline.
    func line(_ line: String) { write(line + "\n") }

    /// Writes everything buffered.
    func flush() {
        if lock.locked({ drain() }) { Self.flowCancel.withLock { $0 }?() }
    }

    /// Writes the buffer out. Returns true when the reader closed the pipe while a flow runs
    /// (the caller cancels the flow once the lock is released).
    private func drain() -> Bool {
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                let quiet = Self.failures.withLock { $0.terminalGone }
                if code == EPIPE, !quiet, Self.flowCancel.withLock({ $0 }) == nil { _exit(ExitStatus.brokenPipe.rawValue) }
                failure = code
                linesDropped += buffer.withUnsafeBufferPointer { Self.newlines(UnsafeBufferPointer(rebasing: $0[offset...])) }
                buffer = []
                if quiet { return false }  // the terminal is gone (SIGHUP): its write errors are expected
                Self.record(stream: name, errno: code)
                return code == EPIPE
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
        return false
    }

    private static func newlines(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    // MARK: Process-wide state (one process, one exit status)

    /// What cancels the running flow when a reader closes its pipe; nil outside a flow.
    private static let flowCancel = Mutex<(@Sendable () -> Void)?>(nil)
    /// The first failed write of the process: a closed pipe, and the first other error.
    private static let failures = Mutex<(readerGone: Bool, first: OutputFailure?, terminalGone: Bool)>((false, nil, false))

    /// SIGHUP came: the terminal is gone, so later failed writes are dropped quietly, not turned
    /// into 74 or 141; the exit is 129.
    static func terminalGone() { failures.withLock { $0.terminalGone = true } }

    private static func record(stream: String, errno code: Int32) {
        failures.withLock { f in
            if code == EPIPE { f.readerGone = true } else if f.first == nil { f.first = OutputFailure(stream: stream, errno: code) }
        }
    }

    /// Runs `body` (a flow) with EPIPE on any writer calling `cancel` instead of exiting, so the
    /// flow can restore the bracelet's plan (docs/design.md "Plan safety"); output is dropped after it.
    static func whileFlowRuns<T>(cancel: @escaping @Sendable () -> Void, _ body: () async -> T) async -> T {
        flowCancel.withLock { $0 = cancel }
        // A flow blocked at a held step or waiting for the cuff writes nothing for a while: the
        // reader's going would be noticed only at the next write. Watch for it.
        let watch = ReaderWatch.start(fd: stdout.fd) {
            failures.withLock { $0.readerGone = true }
            cancel()
        }
        let value = await body()
        watch?.stop()
        flowCancel.withLock { $0 = nil }
        return value
    }

    /// Whether a reader closed its pipe during a flow (the process ends with 141).
    static var readerGone: Bool { failures.withLock { $0.readerGone } }

    /// The first write that failed with an error other than EPIPE.
    static var firstFailure: OutputFailure? { failures.withLock { $0.first } }
}

/// A write to an output stream failed (exit 74): `stdout: No space left on device`.
struct OutputFailure: DiagnosticError, Equatable {
    let stream: String
    let errno: Int32

    var message: String { "\(stream): \(String(cString: strerror(errno)))" }
}

/// Watches a pipe or socket we write to for its reader's going (poll reports POLLERR on a pipe's
/// write end, POLLHUP on a socket) while nothing is written, on a thread of its own.
final class ReaderWatch: @unchecked Sendable {
    private let stopped = Mutex(false)

    /// Starts watching `fd` when it is a pipe or socket (a terminal's hangup is SIGHUP's), and
    /// calls `gone` once if its reader goes before `stop()`.
    static func start(fd: Int32, gone: @escaping @Sendable () -> Void) -> ReaderWatch? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFIFO || kind == S_IFSOCK else { return nil }
        let watch = ReaderWatch()
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Job(watch: watch, fd: fd, gone: gone))
        guard pthread_create(&thread, nil, { raw in
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            job.run()
            return nil
        }, box.toOpaque()) == 0 else {
            box.release()
            return nil
        }
        pthread_detach(thread)
        return watch
    }

    /// Stops watching (the thread ends within one poll interval).
    func stop() { stopped.withLock { $0 = true } }

    var isStopped: Bool { stopped.withLock { $0 } }

    private final class Job {
        let watch: ReaderWatch, fd: Int32, gone: @Sendable () -> Void
        init(watch: ReaderWatch, fd: Int32, gone: @escaping @Sendable () -> Void) { (self.watch, self.fd, self.gone) = (watch, fd, gone) }

        func run() {
            var p = pollfd(fd: fd, events: 0, revents: 0)
            while !watch.isStopped {
                p.revents = 0
                let n = poll(&p, 1, 100)
                if n > 0, p.revents & Int16(POLLERR | POLLHUP) != 0 {
                    if !watch.isStopped { gone() }
                    return
                }
            }
        }
    }
}