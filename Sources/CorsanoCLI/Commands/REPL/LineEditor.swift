import CReadline
import Foundation
import Synchronization

/// GNU readline on a thread of its own, in its callback ("alternate") interface, so that a flow
/// running on the Swift concurrency pool can print above the line being typed and be interrupted.
///
/// The editor thread is the only one that calls readline. It polls three descriptors: the
/// terminal (while a line is asked for), a pipe carrying command output, which it prints above
/// the prompt, and a wake pipe written by other threads and by the SIGINT handler.
/// Readline is process-global, so there is one editor (`shared`); its C callbacks reach it there.
final class LineEditor: @unchecked Sendable {
    /// What a request for a line ends with.
    enum Event: Equatable {
        case line(String)
        /// Control-D on an empty line (or the terminal closed).
        case endOfInput
        /// Control-C, for a request made with `interruptEnds`.
        case interrupted
    }

    /// What a prompt asks for, which decides Control-C, TAB and history.
    enum Kind: Equatable {
        /// `corsano>`: a command line. Control-C clears the line; TAB completes commands; the
        /// command history.
        case command
        /// A flow's `cuff>`: a typed reading. Control-C ends it (the flow is cancelled); no
        /// completion; the readings' own history.
        case reading
        /// A flow's question (`Start another attempt?`), shown in place of a `cuff>` prompt until
        /// answered. Control-C ends it; no completion, no history.
        case question

        var interruptEnds: Bool { self != .command }

        /// The history list its lines go to and Up recalls; nil for none.
        var history: REPLHistory.List? {
            switch self {
            case .command: return .commands
            case .reading: return .readings
            case .question: return nil
            }
        }
    }

    struct Request {
        let prompt: String
        let kind: Kind
        let done: @Sendable (Event) -> Void
        var interruptEnds: Bool { kind.interruptEnds }
    }

    nonisolated(unsafe) static var shared: LineEditor?

    /// Where commands write: printed above the prompt by the editor thread.
    let outputWriteEnd: Int32
    let outputReadEnd: Int32
    let wakeReadEnd: Int32
    private let wakeWriteEnd: Int32
    private let lock = Mutex(())
    private var pending: Request?
    /// A flow's question (`ask`), shown in place of the `cuff>` prompt until answered.
    private var question: Request?
    /// Signalled by the editor thread when it has finished.
    let finished = DispatchSemaphore(value: 0)
    /// False outside a running command: a flow's prompt (`interruptEnds`) then ends at once.
    private var flowPromptsOpen = false
    /// Called on the editor thread for every Control-C (the REPL cancels a running command).
    private let onInterrupt: @Sendable () -> Void
    let history: REPLHistory

    // Editor-thread state: only the editor thread touches these.
    var active: Request?
    /// The `cuff>` prompt put aside while a question is shown.
    var suspended: Request?
    var partialOutput: [UInt8] = []
    /// The history list readline holds now (the other is put aside, see `useHistory`).
    var historyInUse: REPLHistory.List = .commands
    /// Where prompts, echo and the output shown above the line go: standard output, or standard
    /// error when standard output is not a terminal (then it carries only JSON lines).
    let terminalFD: Int32

    init(history: REPLHistory, terminalFD: Int32 = 1, onInterrupt: @escaping @Sendable () -> Void) throws {
        self.terminalFD = terminalFD
        var out: [Int32] = [0, 0], wake: [Int32] = [0, 0]
        guard pipe(&out) == 0, pipe(&wake) == 0 else { throw EditorError.cannotStart("pipe: \(String(cString: strerror(errno)))") }
        (outputReadEnd, outputWriteEnd) = (out[0], out[1])
        (wakeReadEnd, wakeWriteEnd) = (wake[0], wake[1])
        _ = fcntl(wakeWriteEnd, F_SETFL, fcntl(wakeWriteEnd, F_GETFL) | O_NONBLOCK)
        self.history = history
        self.onInterrupt = onInterrupt
    }

    enum EditorError: Error, CustomStringConvertible {
        case cannotStart(String)
        var description: String { switch self { case .cannotStart(let why): why } }
    }

    /// Starts the editor thread and takes SIGINT over (readline's own signal handling is off).
    func start() {
        LineEditor.shared = self
        Self.installSignalHandler(wakeFD: wakeWriteEnd)
        configureReadline()
        let thread = Thread { [self] in loop() }
        thread.name = "corsano-readline"
        thread.start()
    }

    /// Asks for one line at `prompt`; returns when it is entered, at Control-D, or (for a flow's
    /// prompts, `kind.interruptEnds`) at Control-C. At a command prompt Control-C clears the line
    /// and asks again. A `.question` takes the terminal from a `cuff>` prompt being shown, which
    /// comes back once the question is answered.
    func readLine(prompt: String, kind: Kind) async -> Event {
        await withCheckedContinuation { (continuation: CheckedContinuation<Event, Never>) in
            let request = Request(prompt: prompt, kind: kind, done: { continuation.resume(returning: $0) })
            let refused = lock.locked { () -> Bool in
                if kind.interruptEnds, !flowPromptsOpen { return true }
                if kind == .question { question = request } else { pending = request }
                return false
            }
            if refused { request.done(.interrupted) } else { wake(0x72) }
        }
    }

    /// A command starts: its flow may ask for lines (`interruptEnds` requests).
    func openFlowPrompts() { lock.locked { flowPromptsOpen = true } }

    /// A command ended: a flow prompt still asked for or showing ends `.interrupted`, and no new
    /// one is shown until the next command.
    func closeFlowPrompts() {
        let dropped = lock.locked { () -> [Request] in
            flowPromptsOpen = false
            var dropped = question.map { [$0] } ?? []
            question = nil
            if let p = pending, p.interruptEnds {
                pending = nil
                dropped.append(p)
            }
            return dropped
        }
        for request in dropped { request.done(.interrupted) }
        wake(0x63)
    }

    /// Ends the line being asked for as if Control-D was typed (SIGTERM at the prompt).
    func endInput() { wake(0x74) }

    /// Stops the editor thread after it has printed all pending output, and waits for it.
    func stop() {
        wake(0x71)
        finished.wait()
    }

    /// The request waiting to be shown (taken by the editor thread).
    func takePending() -> Request? {
        lock.locked { defer { pending = nil }; return pending }
    }

    /// The flow's question waiting to be shown (taken by the editor thread).
    func takeQuestion() -> Request? {
        lock.locked { defer { question = nil }; return question }
    }

    /// Runs the REPL's Control-C callback.
    func onInterruptCallback() { onInterrupt() }

    private func wake(_ byte: UInt8) {
        var b = byte
        _ = write(wakeWriteEnd, &b, 1)
    }
}
