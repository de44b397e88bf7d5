import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One bridge connection carrying JSON lines: a socket, or a child process's stdin/stdout.
///
/// A reader thread splits incoming bytes into lines; end of stream, a reset or `close()` ends it
/// and calls `onClose` once, promptly (a blocked read is woken by `shutdown`, a child by
/// closing its stdin and terminating it). After end of input the write side stays open until
/// `close()`, so a server can still answer what it read. Writes never raise SIGPIPE: sockets use
/// MSG_NOSIGNAL.
public final class LineConnection: Sendable {
    /// Longest line accepted (bytes); a longer one is a protocol error that closes the connection.
    public static let maxLineBytes = 1 << 20

    let readFD: Int32
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
    }

    /// Wraps a pipe pair (`--stdio`, or a child's stdout and stdin); `child` is terminated on close.
    init(readFD: Int32, writeFD: Int32, child: ChildProcess? = nil) {
        self.readFD = readFD
        self.writeFD = writeFD
        isSocket = false
        self.child = child
    }

    /// The standard streams of this process (`bracelet serve --stdio`).
    public static func standardStreams() -> LineConnection { LineConnection(readFD: 0, writeFD: 1) }

    /// Starts the reader thread: `onLine` for each line (without its newline), then `onClose` once.
    public func start(onLine: @escaping @Sendable (String) -> Void, onClose: @escaping @Sendable () -> Void) {
        guard lifecycle.withLock({ let was = $0.started; $0.started = true; return !was }) else { return }
        let thread = Thread { [self] in
            readLines(onLine)
            if lifecycle.withLock({ $0.readerDone = true; return $0.closeRequested }) { closeReadSide() }
            onClose()
        }
        thread.name = "corsano-bridge-reader"
        thread.start()
    }

    private func readLines(_ onLine: (String) -> Void) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            var start = 0
            for i in 0..<n where buffer[i] == 10 {
                pending.append(contentsOf: buffer[start..<i])
                onLine(String(decoding: pending, as: UTF8.self))
                pending.removeAll(keepingCapacity: true)
                start = i + 1
            }
            pending.append(contentsOf: buffer[start..<n])
            if pending.count > Self.maxLineBytes { return }
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
