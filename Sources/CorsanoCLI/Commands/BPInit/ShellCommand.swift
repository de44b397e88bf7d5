import CorsanoKit
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs a user's command with `sh -c` (docs/design.md "Subcommands": `--cuff-cmd`, `--cuff-paired-cmd`, `--pair-cmd`):
/// stdin from /dev/null, stdout captured, stderr passed through. Cancellable, with an optional
/// real-time limit; either ends the wait at once and terminates the command.
///
/// Spawned with `posix_spawn` in its own process group, with SIGINT, SIGTERM and SIGPIPE back to
/// their defaults (this process ignores them while a flow runs, and ignored signals are
/// inherited), so SIGTERM to the group ends the shell and everything it started.
enum ShellCommand {
    /// How a run ended.
    enum Outcome: Equatable {
        /// The shell exited (or was killed by a signal: 128 + signal); its whole stdout.
        case exited(status: Int32, output: [UInt8])
        /// The limit passed first; the command was terminated.
        case timedOut
        /// The shell could not be started, with why.
        case failedToStart(String)
    }

    /// Runs `command`, waiting at most `timeout` when given. - Throws: `CancellationError`.
    static func run(_ command: String, timeout: Duration?) async throws -> Outcome {
        let once = Once<Outcome>()
        let started = Mutex<pid_t>(0)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Outcome, any Error>) in
                once.arm(continuation)
                let spawned = spawn(command)
                guard case .success(let (child, output)) = spawned else {
                    if case .failure(let why) = spawned { once.resume(.success(.failedToStart(why.message))) }
                    return
                }
                started.withLock { $0 = child }
                if Task.isCancelled { once.resume(.failure(CancellationError())) { kill(-child, SIGTERM) } }
                Thread {
                    let bytes = readAll(output)
                    var status: Int32 = 0
                    while waitpid(child, &status, 0) < 0 && errno == EINTR {}
                    let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
                    once.resume(.success(.exited(status: code, output: bytes)))
                }.start()
                if let timeout {
                    let (seconds, attoseconds) = timeout.components
                    let nanos = Int(clamping: max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000)
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanos)) {
                        once.resume(.success(.timedOut)) { kill(-child, SIGTERM) }
                    }
                }
            }
        } onCancel: {
            let pid = started.withLock { $0 }
            once.resume(.failure(CancellationError())) { if pid > 0 { kill(-pid, SIGTERM) } }
        }
    }

    private struct SpawnError: ExitStatusProviding { let message: String; var exitStatus: ExitStatus { .cuffError } }

    /// Starts `sh -c command` in a new process group; its pid and the read end of its stdout.
    private static func spawn(_ command: String) -> Result<(pid_t, Int32), SpawnError> {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return .failure(SpawnError(message: String(cString: strerror(errno)))) }
        // Close-on-exec: the child sees only its dup2'ed stdout, never the read end.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let started = ShellSpawn.start(command, stdin: nil, stdout: fds[1])
        close(fds[1])
        switch started {
        case .success(let pid):
            return .success((pid, fds[0]))
        case .failure(let failure):
            close(fds[0])
            return .failure(SpawnError(message: failure.message))
        }
    }

    /// Every byte from `fd` until end of input; closes it.
    private static func readAll(_ fd: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { bytes += chunk[0..<n] } else if n < 0, errno == EINTR { continue } else { break }
        }
        close(fd)
        return bytes
    }
}

/// Resumes a continuation exactly once, from whichever side finishes first.
final class Once<Value: Sendable>: Sendable {
    private let slot = Mutex<(armed: CheckedContinuation<Value, any Error>?, done: Bool, early: Result<Value, any Error>?)>(
        (nil, false, nil))

    /// Hands over the continuation; resumes it at once when a result came first.
    func arm(_ continuation: CheckedContinuation<Value, any Error>) {
        let early = slot.withLock { s -> Result<Value, any Error>? in
            if let e = s.early { return e }
            s.armed = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    /// True when this call was the one that resumed (or will resume, once armed). `first` runs
    /// before the waiter resumes, only for that call: once resumed, the process may exit at
    /// any moment, so a child must be signalled before.
    @discardableResult
    func resume(_ result: Result<Value, any Error>, first: () -> Void = {}) -> Bool {
        let (continuation, won) = slot.withLock { s -> (CheckedContinuation<Value, any Error>?, Bool) in
            if s.done { return (nil, false) }
            s.done = true
            if let c = s.armed {
                s.armed = nil
                return (c, true)
            }
            s.early = result
            return (nil, true)
        }
        if won { first() }
        continuation?.resume(with: result)
        return won
    }
}
