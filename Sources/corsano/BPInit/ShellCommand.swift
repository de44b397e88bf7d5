import Foundation
import Synchronization

/// Runs a user's command with `sh -c` (DESIGN: `--cuff-cmd`, `--cuff-paired-cmd`, `--pair-cmd`):
/// stdin from /dev/null, stdout captured, stderr passed through. Cancellable, with an optional
/// real-time limit; either ends the wait at once and terminates the shell.
enum ShellCommand {
    /// How a run ended.
    enum Outcome: Equatable {
        /// The shell exited (or was killed by a signal: 128 + signal); its whole stdout.
        case exited(status: Int32, output: [UInt8])
        /// The limit passed first; the shell was terminated.
        case timedOut
        /// The shell could not be started, with why.
        case failedToStart(String)
    }

    /// Runs `command`, waiting at most `timeout` when given. - Throws: `CancellationError`.
    static func run(_ command: String, timeout: Duration?) async throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardInput = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        let once = Once()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Outcome, any Error>) in
                once.arm(continuation)
                do {
                    try process.run()
                } catch {
                    once.resume(.success(.failedToStart(String(describing: error))))
                    return
                }
                if Task.isCancelled { process.terminate() ; once.resume(.failure(CancellationError())) }
                Thread {
                    let data = output.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus
                                                                              : process.terminationStatus
                    once.resume(.success(.exited(status: status, output: [UInt8](data))))
                }.start()
                if let timeout {
                    let (seconds, attoseconds) = timeout.components
                    let nanos = Int(clamping: max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000)
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanos)) {
                        if once.resume(.success(.timedOut)) { process.terminate() }
                    }
                }
            }
        } onCancel: {
            if once.resume(.failure(CancellationError())), process.isRunning { process.terminate() }
        }
    }

    /// Resumes a continuation exactly once, from whichever side finishes first.
    private final class Once: Sendable {
        private let slot = Mutex<(armed: CheckedContinuation<Outcome, any Error>?, pending: Result<Outcome, any Error>?)>((nil, nil))

        func arm(_ continuation: CheckedContinuation<Outcome, any Error>) {
            let early = slot.withLock { s -> Result<Outcome, any Error>? in
                if let p = s.pending { return p }
                s.armed = continuation
                return nil
            }
            if let early { continuation.resume(with: early) }
        }

        /// True when this call was the one that resumed.
        @discardableResult
        func resume(_ result: Result<Outcome, any Error>) -> Bool {
            let (continuation, first) = slot.withLock { s -> (CheckedContinuation<Outcome, any Error>?, Bool) in
                if let c = s.armed {
                    s.armed = nil
                    s.pending = result
                    return (c, true)
                }
                if s.pending != nil { return (nil, false) }
                s.pending = result  // cancelled before armed
                return (nil, true)
            }
            continuation?.resume(with: result)
            return first
        }
    }
}
