import CorsanoKit
import Foundation

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
        try Task.checkCancellation()
        let (child, output): (pid_t, Int32)
        switch spawn(command) {
        case .success(let started): (child, output) = started
        case .failure(let why): return .failedToStart(why.message)
        }
        // The child's exit, the time limit or a cancellation: the first one answers; the other
        // two terminate the group before the wait ends (the process may exit right after).
        let exit = OneShot<Outcome>()
        Thread {
            let bytes = readAll(output)
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            exit.resume(returning: .exited(status: code, output: bytes))
        }.start()
        return try await exit.value(timeout: timeout, timedOut: { .timedOut }) { kill(-child, SIGTERM) }
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
