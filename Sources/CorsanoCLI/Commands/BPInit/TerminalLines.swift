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
        /// The request waiting for a line; one whose wait ended (time limit, cancellation)
        /// refuses it, and the line is kept for the next.
        var waiter: OneShot<Answer>?
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
        let answer = OneShot<Answer>()
        let (immediate, startThread, ask) = state.withLock { s -> (Answer?, Bool, Bool) in
            if !s.buffered.isEmpty { return (.line(s.buffered.removeFirst()), false, false) }
            if s.ended { return (.end, false, false) }
            if Task.isCancelled { return (nil, false, false) }  // no read is asked for
            s.waiter = answer
            defer { s.started = true; s.reading = true }
            return (nil, !s.started, !s.reading)
        }
        if let immediate { return immediate }
        try Task.checkCancellation()
        if startThread { Thread { self.readLoop() }.start() }
        if ask { demand.signal() }
        return try await answer.value(timeout: timeout, timedOut: { .timedOut })
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
            // To the request waiting; one whose wait already ended refuses it: then to the
            // next one waiting, or kept for the next request. Never lost.
            while true {
                let waiter = state.withLock { s -> OneShot<Answer>? in
                    s.reading = false
                    if line == nil { s.ended = true }
                    guard let w = s.waiter else {
                        if let line { s.buffered.append(line) }
                        return nil
                    }
                    s.waiter = nil
                    return w
                }
                guard let waiter, !waiter.resume(returning: line.map(Answer.line) ?? .end) else { break }
            }
            if line == nil { return }
        }
    }
}
