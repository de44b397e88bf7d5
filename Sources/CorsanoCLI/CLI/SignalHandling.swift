import CorsanoKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT, SIGTERM and SIGHUP during a flow (or a filter's run): the first cancels the flow's
/// task, so it ends as `cancelledByUser` with the bracelet's plan restored and its closing events
/// written; a second exits at once (130 / 143 / 129; the plan journal repairs the bracelet at the
/// next connect). SIGHUP (the terminal closed) also makes failed writes quiet: once the terminal
/// is gone its write errors are not turned into 74. Source: docs/design.md "Exit status" and "Plan safety".
///
/// Usage (one flow per process):
///
///     let signals = SignalHandling.install()   // first thing in the command: nothing is lost
///     let result = await signals.run { await flow.run() }
///     if let status = signals.exitStatus { return status }   // 130, 143 or 129
///
/// Outside `run` the handling only records the signal (and calls `onSignal`); a signal that came
/// before `run` cancels the flow as it starts. Signals are read through `ProcessSignals`, which
/// holds them from `main`'s first instruction.
final class SignalHandling: @unchecked Sendable {
    private struct State {
        /// Until the flow's bracelet is reached a signal ends the process at once (`braceletReached`).
        var exitsAtOnce = false
        var received: Int32?
        var cancel: (@Sendable () -> Void)?
        var onSignal: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    /// False when hosted by the REPL (it keeps the signals).
    private let routed: Bool

    private init(routed: Bool) {
        self.routed = routed
        if routed {
            ProcessSignals.shared.route(ProcessSignals.stopSignals) { [weak self] signo, count in
                self?.deliver(signo, count: count)
            }
        }
    }

    /// Starts handling SIGINT, SIGTERM and SIGHUP for this process, including one that came
    /// before. Inside the REPL (`hostedByREPL`) the REPL keeps the signals: the handling only
    /// receives the ones it forwards.
    static func install() -> SignalHandling {
        guard hosted.withLock({ $0.on }) else { return SignalHandling(routed: true) }
        let handling = SignalHandling(routed: false)
        hosted.withLock { $0.current = handling }
        return handling
    }

    /// `install()` for a filter reading its inputs (`cuff ingest`, `replay-filter`): a stop
    /// signal also ends the read in progress, so the run writes what it read and its counts.
    static func installInterruptingReads() -> (SignalHandling, ReadInterrupt) {
        let signals = install()
        let interrupt = ReadInterrupt()
        signals.onSignal { interrupt.fire() }
        return (signals, interrupt)
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

    /// Makes a signal end the process at once (its status, stdout flushed) until
    /// `braceletReached()`: a command that connects first must not wait on a hanging connect,
    /// and has switched nothing yet. One that already came is acted on now.
    func exitAtOnceUntilBraceletReached() {
        let pending = state.withLock { s -> Int32? in
            s.exitsAtOnce = true
            return s.received
        }
        if let pending, routed { Self.exitNow(pending) }
    }

    /// The bracelet is identified: from now on a signal cancels the flow (which then writes
    /// `started` and `finished`) instead of ending the process.
    func braceletReached() { state.withLock { $0.exitsAtOnce = false } }

    /// The first signal received (SIGINT, SIGTERM or SIGHUP; SIGPIPE stands for a closed pipe), if any.
    var received: Int32? { state.withLock { $0.received } }

    /// Calls `body` once at the first signal (at once when one already came): a loop that blocks
    /// outside `run` (a filter reading a pipe) wakes up through it.
    func onSignal(_ body: @escaping @Sendable () -> Void) {
        let already = state.withLock { s -> Bool in
            if s.received == nil { s.onSignal.append(body) }
            return s.received != nil
        }
        if already { body() }
    }

    /// 130 after SIGINT, 143 after SIGTERM, 129 after SIGHUP, 141 after a closed pipe, nil when none came.
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

    /// Stops handling: a later stop signal ends the process by its default action.
    func uninstall() {
        guard routed else {  // hosted by the REPL: its handler stays
            Self.hosted.withLock { if $0.current === self { $0.current = nil } }
            return
        }
        ProcessSignals.shared.unroute(ProcessSignals.stopSignals)
        ProcessSignals.shared.dieOnUnroutedSignals()
    }

    private func deliver(_ signo: Int32, count: UInt) {
        if signo == SIGHUP { OutputWriter.terminalGone() }
        // Control-C at a terminal: the terminal echoed ^C after a prompt or a partial line; what
        // is written next starts on a line of its own. (The REPL's line editor ends its own line.)
        if signo == SIGINT, routed, isatty(0) == 1, isatty(2) == 1 { _ = write(2, "\n", 1) }
        let first = state.withLock { s -> (cancel: (@Sendable () -> Void)?, wake: [@Sendable () -> Void])? in
            if s.received != nil || s.exitsAtOnce { return nil }  // second signal, or before the bracelet
            s.received = signo
            defer { s.onSignal = [] }
            return (s.cancel, s.onSignal)
        }
        if let first {
            first.wake.forEach { $0() }
            first.cancel?()
            if count == 1 { return }
        }
        if !routed { return }  // hosted by the REPL: the shell stays
        // Inside `holdingExit` (claims committed, their lines not yet written) the second signal
        // waits for the section to end; a third exits at once.
        let deferred = Self.holding.withLock { h -> Bool in
            guard h.depth > 0, h.pending == nil else { return false }
            h.pending = signo
            return true
        }
        if !deferred { Self.exitNow(signo) }
    }

    /// Open `holdingExit` sections, and a second signal waiting for them to end.
    private static let holding = Mutex<(depth: Int, pending: Int32?)>((0, nil))

    /// Runs `body` (a filter's batch from its commit to its lines written) with a second stop
    /// signal held until it returns: exiting in between would leave claims committed for lines
    /// never written, and every later run would drop those readings as duplicates.
    /// A third signal still exits at once (a stdout that blocks must not trap the user).
    static func holdingExit<T>(_ body: () throws -> T) rethrows -> T {
        holding.withLock { $0.depth += 1 }
        defer {
            let pending = holding.withLock { h -> Int32? in
                h.depth -= 1
                return h.depth == 0 ? h.pending : nil
            }
            if let pending { exitNow(pending) }
        }
        return try body()
    }

    private static func exitNow(_ signo: Int32) -> Never {
        OutputWriter.stdout.flush()
        _exit(status(for: signo).rawValue)
    }

    /// 143 for SIGTERM, 129 for SIGHUP, 141 for a closed pipe (SIGPIPE), else 130.
    static func status(for signo: Int32) -> ExitStatus {
        switch signo {
        case SIGTERM: return .terminated
        case SIGHUP: return .hangup
        case SIGPIPE: return .brokenPipe
        default: return .interrupted
        }
    }
}
