import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One bridge connection carrying JSON lines: a socket, or a child process's stdin/stdout.
///
/// A reader thread splits incoming bytes with the one line splitter, `LineReader` (CRLF ends a
/// line like LF; an unterminated last line at end of input is delivered; a line over
/// `maxLineBytes` is reported as `.tooLong` and skipped, the connection reads on). End of
/// stream, a reset or `close()` ends it and calls `onClose` once, promptly (a blocked read is
/// woken by `shutdown`, a child by closing its stdin and terminating it). After end of input the
/// write side stays open until `close()`, so a server can still answer what it read. Writes
/// never raise SIGPIPE: sockets use MSG_NOSIGNAL.
public final class LineConnection: Sendable {
    /// Longest line accepted (bytes, terminator excluded); a longer one is reported, not read.
    public static let maxLineBytes = LineReader.defaultMaxLineLength

    /// What the reader hands on.
    public enum Inbound: Equatable, Sendable {
        /// A line, without its terminator.
        case line(String)
        /// A line over the length bound (1-based line number, its length in bytes); skipped.
        case tooLong(line: Int, byteCount: Int)
    }

    let readFD: Int32
    /// Where the reader thread reads: `readFD`, or memory in tests.
    private let input: @Sendable () -> any ByteSource
    /// The reader's line bound (`maxLineBytes` except in tests).
    private let maxLine: Int

    /// Longest line this connection reads, bytes.
    public var maxLineLength: Int { maxLine }
    let writeFD: Int32
    let isSocket: Bool
    let child: ChildProcess?
    /// True once the write side is closed; guards the fds against reuse after close.
    private let writeState = Mutex<Bool>(false)
    /// The read fd is closed once both the reader ended and `close()` was called.
    private let lifecycle = Mutex<(started: Bool, readerDone: Bool, closeRequested: Bool)>((false, false, false))

    /// Wraps a connected socket.
    public init(socket fd: Int32) {
        readFD = fd
        writeFD = fd
        isSocket = true
        child = nil
        input = { FileDescriptorSource(fd: fd) }
        maxLine = Self.maxLineBytes
    }

    /// Wraps a pipe pair (`--stdio`, or a child's stdout and stdin); `child` is terminated on close.
    init(readFD: Int32, writeFD: Int32, child: ChildProcess? = nil) {
        self.readFD = readFD
        self.writeFD = writeFD
        isSocket = false
        self.child = child
        input = { FileDescriptorSource(fd: readFD) }
        maxLine = Self.maxLineBytes
    }

    /// Reads `bytes` handed out `chunk` bytes a read, with lines bounded at `maxLine`, and writes
    /// to `writeFD` (tests: every chunk size through the same reader as a socket's).
    init(reading bytes: [UInt8], chunk: Int, maxLine: Int = LineConnection.maxLineBytes, writeFD: Int32) {
        readFD = -1
        self.writeFD = writeFD
        isSocket = false
        child = nil
        input = { MemoryByteSource(bytes, chunk: chunk) }
        self.maxLine = maxLine
    }

    /// The standard streams of this process (`bracelet serve --stdio`).
    public static func standardStreams() -> LineConnection { LineConnection(readFD: 0, writeFD: 1) }

    /// Starts the reader thread: `onInbound` for each line or over-long line, in order, then
    /// `onClose` once.
    public func start(onInbound: @escaping @Sendable (Inbound) -> Void, onClose: @escaping @Sendable () -> Void) {
        guard lifecycle.withLock({ let was = $0.started; $0.started = true; return !was }) else { return }
        let thread = Thread { [self] in
            readLines(onInbound)
            if lifecycle.withLock({ $0.readerDone = true; return $0.closeRequested }) { closeReadSide() }
            onClose()
        }
        thread.name = "corsano-bridge-reader"
        thread.start()
    }

    /// Hands on every line until end of input; a failed read (a reset) ends the input too.
    private func readLines(_ onInbound: (Inbound) -> Void) {
        let reader = LineReader(source: input(), maxLineLength: maxLine)
        while let item = try? reader.next() {
            switch item {
            case .line(_, let bytes): onInbound(.line(String(decoding: bytes, as: UTF8.self)))
            case .tooLong(let number, let count): onInbound(.tooLong(line: number, byteCount: count))
            }
        }
    }

    /// Writes `line` and a newline. - Throws: `BraceletError.disconnected` when the peer is gone.
    public func send(_ line: String) throws {
        var bytes = Array(line.utf8)
        bytes.append(10)
        try writeState.withLock { closed in
            guard !closed else { throw BraceletError.disconnected }
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { raw in
                    isSocket ? Glibc.send(writeFD, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                             : Glibc.write(writeFD, raw.baseAddress! + offset, raw.count - offset)
                }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw BraceletError.disconnected }
                offset += n
            }
        }
    }

    /// Ends the connection: closes the write side, wakes the reader (which then calls `onClose`
    /// if it has not yet) and stops a child. Idempotent.
    public func close() {
        closeWriteSide()
        child?.terminate()
        let closeNow = lifecycle.withLock { l -> Bool in
            defer { l.closeRequested = true }
            return !l.closeRequested && (l.readerDone || !l.started)
        }
        if closeNow { closeReadSide() }
    }

    private func closeReadSide() {
        if isSocket || readFD > 2 { Glibc.close(readFD) }
    }

    private func closeWriteSide() {
        writeState.withLock { closed in
            guard !closed else { return }
            closed = true
            if isSocket { shutdown(writeFD, Int32(SHUT_RDWR)) } else if writeFD > 2 { Glibc.close(writeFD) }
        }
    }
}

/// The child process of an `exec:` bridge: reaped by a waiter thread when it exits, and sent
/// SIGTERM (its whole process group) when its connection closes while it still runs.
final class ChildProcess: Sendable {
    let pid: pid_t
    private let exited = Mutex(false)

    init(pid: pid_t) {
        self.pid = pid
        Thread { [self] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            exited.withLock { $0 = true }
        }.start()
    }

    /// Asks the child's process group to end; never signals a reaped (possibly reused) pid.
    func terminate() {
        exited.withLock { gone in if !gone { _ = kill(-pid, SIGTERM) } }
    }
}
