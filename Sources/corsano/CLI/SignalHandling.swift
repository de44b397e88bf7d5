import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM during a flow: the first cancels the flow's task, so it ends as
/// `cancelledByUser` with the bracelet's plan restored and its closing events written; a second
/// exits at once (130 / 143; the plan journal repairs the bracelet at the next connect).
/// Source: DESIGN "Exit status" and "Plan safety".
///
/// Usage (one flow per process):
///
///     let signals = SignalHandling.install()
///     let result = await signals.run { await flow.run() }
///     if let status = signals.exitStatus { return status }   // 130 or 143
///
/// Outside `run` the handlers only record the signal; `install()` ignores the default
/// disposition, so install it right before the flow starts.
final class SignalHandling: @unchecked Sendable {
    private struct State {
        var received: Int32?
        var cancel: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())
    /// Set once in init, then only cancelled (the sources are thread-safe).
    private let sources: [any DispatchSourceSignal]
    private static let queue = DispatchQueue(label: "corsano.signals")

    private init(signals: [Int32]) {
        var made: [any DispatchSourceSignal] = []
        for signo in signals {
            signal(signo, SIG_IGN)  // the dispatch source sees it; the default action must not kill us
            made.append(DispatchSource.makeSignalSource(signal: signo, queue: Self.queue))
        }
        sources = made
        for (source, signo) in zip(sources, signals) {
            // `data` counts the signals since the last call: two sent back to back may arrive as one event.
            source.setEventHandler { [weak self, source] in self?.deliver(signo, count: source.data) }
        }
        sources.resumeRegistered()
    }

    /// Starts handling SIGINT and SIGTERM for this process. Inside the REPL (`hostedByREPL`)
    /// the REPL keeps the signals: the handling only receives the Control-Cs it forwards.
    static func install() -> SignalHandling {
        guard hosted.withLock({ $0.on }) else { return SignalHandling(signals: [SIGINT, SIGTERM]) }
        let handling = SignalHandling(signals: [])
        hosted.withLock { $0.current = handling }
        return handling
    }

    /// The REPL owns SIGINT for its whole life (readline's prompt must survive a flow), so a
    /// command's handling must neither change the dispositions nor exit on a second signal.
    private static let hosted = Mutex<(on: Bool, current: SignalHandling?)>((false, nil))

    /// Called once by the REPL before it runs commands.
    static func hostInREPL() { hosted.withLock { $0.on = true } }

    /// A signal the REPL caught (Control-C is SIGINT): cancels the running flow, as the signal
    /// would outside the REPL.
    static func forwardInterrupt(_ signo: Int32 = SIGINT) {
        hosted.withLock { $0.current }?.deliver(signo, count: 1)
    }

    /// The first signal received (SIGINT or SIGTERM; SIGPIPE stands for a closed pipe), if any.
    var received: Int32? { state.withLock { $0.received } }

    /// 130 after SIGINT, 143 after SIGTERM, 141 after a closed pipe, nil when none came.
    var exitStatus: ExitStatus? { received.map(Self.status(for:)) }

    /// Runs `body` in a task that the first signal cancels, and returns its value. A reader
    /// closing stdout or stderr meanwhile (EPIPE) cancels it the same way (exit 141).
    func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        // EPIPE is routed here before the flow's first write (it may switch the plan at once).
        await OutputWriter.whileFlowRuns(cancel: { [weak self] in self?.readerGone() }) {
            let task = Task { await body() }
            let alreadySignalled = state.withLock { s -> Bool in
                s.cancel = { task.cancel() }
                return s.received != nil
            }
            if alreadySignalled { task.cancel() }
            let value = await task.value
            state.withLock { $0.cancel = nil }
            return value
        }
    }

    /// The reader closed an output pipe during the flow: cancel it like a first signal (its
    /// output is dropped, the plan restored), never exit at once. After a signal it changes nothing.
    private func readerGone() {
        let cancel = state.withLock { s -> (@Sendable () -> Void)? in
            guard s.received == nil else { return nil }
            s.received = SIGPIPE
            return s.cancel
        }
        cancel?()
    }

    /// Stops handling: the default dispositions come back.
    func uninstall() {
        if sources.isEmpty {  // hosted by the REPL: its handler stays
            Self.hosted.withLock { if $0.current === self { $0.current = nil } }
            return
        }
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    private func deliver(_ signo: Int32, count: UInt) {
        let cancel = state.withLock { s -> (@Sendable () -> Void)?? in
            if s.received != nil { return .none }  // second signal
            s.received = signo
            return count > 1 ? .none : .some(s.cancel)
        }
        guard let cancel else {
            if sources.isEmpty { return }  // hosted by the REPL: the shell stays
            OutputWriter.stdout.flush()
            _exit(Self.status(for: signo).rawValue)
        }
        cancel?()
    }

    /// 143 for SIGTERM, 141 for a closed pipe (SIGPIPE), else 130.
    static func status(for signo: Int32) -> ExitStatus {
        switch signo {
        case SIGTERM: return .terminated
        case SIGPIPE: return .brokenPipe
        default: return .interrupted
        }
    }
}

extension [any DispatchSourceSignal] {
    /// Resumes every source and returns once each is registered with the kernel (at most 5 s).
    /// resume() registers asynchronously and the signal's disposition is SIG_IGN until then, so a
    /// signal sent in between was dropped: a fast virtual-clock flow, or `bracelet serve` stopped
    /// right after it printed where it listens, missed its SIGTERM and ran on.
    func resumeRegistered() {
        let registered = DispatchGroup()
        for source in self {
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
        }
        _ = registered.wait(timeout: .now() + 5)
    }
}
