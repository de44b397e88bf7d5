import CorsanoKit
import Foundation
import Synchronization

/// Reads lines a person types on stdin, one per request, for prompts during a flow (typed
/// readings, "Start another attempt?"). A dedicated thread does the blocking read, so a wait
/// ends at once on SIGINT/SIGTERM (task cancellation) or after a real-time limit.
final class TerminalLines: Sendable {
    /// What one request came to.
    enum Answer: Equatable {
        case line(String)
        /// End of input (Ctrl-D).
        case end
        case timedOut
    }

    private struct State {
        var waiter: (id: Int, continuation: CheckedContinuation<Answer, any Error>)?
        var nextID = 0
        var started = false
        /// The thread is blocked reading a line already.
        var reading = false
        var ended = false
        /// Lines typed while nobody waited (after a timeout), answered first.
        var buffered: [String] = []
    }

    private let state = Mutex(State())
    private let demand = DispatchSemaphore(value: 0)

    /// The process's stdin.
    static let stdin = TerminalLines()

    /// Writes `prompt` laid out to `prompts`, then waits for one line, at most `timeout` when given.
    /// - Throws: `CancellationError`.
    func read(prompt: String, to prompts: PromptOutput, timeout: Duration? = nil) async throws -> Answer {
        prompts.ask(prompt)
        let id = state.withLock { s -> Int in
            s.nextID += 1
            return s.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Answer, any Error>) in
                let (immediate, startThread, ask) = state.withLock { s -> (Result<Answer, any Error>?, Bool, Bool) in
                    if !s.buffered.isEmpty { return (.success(.line(s.buffered.removeFirst())), false, false) }
                    if s.ended { return (.success(.end), false, false) }
                    if Task.isCancelled { return (.failure(CancellationError()), false, false) }
                    s.waiter = (id, c)
                    defer { s.started = true; s.reading = true }
                    return (nil, !s.started, !s.reading)
                }
                if let immediate { c.resume(with: immediate); return }
                if startThread { Thread { self.readLoop() }.start() }
                if ask { demand.signal() }
                if let timeout {
                    let (seconds, attoseconds) = timeout.components
                    let nanos = Int(clamping: max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000)
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanos)) {
                        self.finish(id, with: .success(.timedOut))
                    }
                }
            }
        } onCancel: {
            finish(id, with: .failure(CancellationError()))
        }
    }

    /// Ends wait `id`, if it is still the one waiting.
    private func finish(_ id: Int, with result: Result<Answer, any Error>) {
        let c = state.withLock { s -> CheckedContinuation<Answer, any Error>? in
            guard let w = s.waiter, w.id == id else { return nil }
            s.waiter = nil
            return w.continuation
        }
        c?.resume(with: result)
    }

    /// One line per request; a line typed while nobody waits is kept for the next request.
    /// Lines come from the one line splitter; one over its bound (impossible from a terminal in
    /// canonical mode, whose lines end at 4096 bytes) is skipped.
    private func readLoop() {
        let reader = LineReader(source: FileDescriptorSource(fd: 0))
        while true {
            demand.wait()
            var line: String?
            while let item = try? reader.next() {
                if case .line(_, let bytes) = item {
                    line = String(decoding: bytes, as: UTF8.self)
                    break
                }
            }
            let c = state.withLock { s -> CheckedContinuation<Answer, any Error>? in
                s.reading = false
                if line == nil { s.ended = true }
                guard let w = s.waiter else {
                    if let line { s.buffered.append(line) }
                    return nil
                }
                s.waiter = nil
                return w.continuation
            }
            c?.resume(returning: line.map(Answer.line) ?? .end)
            if line == nil { return }
        }
    }
}
