import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The write end of the stop-signal pipe, for the handler (a plain Int32: async-signal-safe).
nonisolated(unsafe) private var stopSignalPipe: Int32 = -1

/// The stop signals (SIGINT, SIGTERM, SIGHUP) of the whole process, from its first instruction:
/// none is ever dropped (issue 18: a signal in the first ~10 ms used to be ignored, and the run
/// carried on).
///
/// `main` blocks them before anything else runs, so a signal sent early stays pending and no
/// thread started later takes one with the default action. `start()` installs a handler that
/// only writes the signal's number to a pipe, then starts one thread that unblocks the signals
/// for itself (so pending ones are delivered there, to the handler) and reads the pipe. Any
/// thread that gets a signal later (Dispatch parks the main thread in `sigsuspend` with nothing
/// blocked) runs the same handler: never the default action. Each signal goes to the route a
/// command set for it (`route`); a signal with no route waits until a command routes it, or,
/// once `dieOnUnroutedSignals()` was called (a command that does not handle signals, or one
/// whose handling ended), ends the process with the signal's default action.
///
/// Children start with nothing blocked (`ShellSpawn`).
final class ProcessSignals: Sendable {
    /// SIGINT, SIGTERM and SIGHUP.
    static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// What receives a routed signal: the signal and how many arrived since the last event.
    typealias Route = @Sendable (_ signo: Int32, _ count: UInt) -> Void

    private struct State {
        var routes: [Int32: Route] = [:]
        /// Signals that came with no route, in order, until one is set or dying is allowed.
        var waiting: [(signo: Int32, count: UInt)] = []
        var dieWhenUnrouted = false
    }

    private let state = Mutex(State())
    /// The read end of the signal pipe; -1 until `start()` made it.
    private let readEnd = Mutex<Int32>(-1)

    /// The process's one instance; `start()` it right after `blockStopSignals()`.
    static let shared = ProcessSignals()

    /// The stop signals as a set.
    private static var stopSet: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signo in stopSignals { sigaddset(&set, signo) }
        return set
    }

    /// Blocks the stop signals in the calling thread: call it as `main`'s first statement, before
    /// any other thread exists, so every thread inherits the mask.
    static func blockStopSignals() {
        var set = stopSet
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Installs the handler and starts the thread that takes the signals; one already pending is
    /// delivered at once.
    func start() {
            var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return }  // then the signals stay blocked: deferred, never default
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        stopSignalPipe = fds[1]
        readEnd.withLock { $0 = fds[0] }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signo in
            var byte = UInt8(truncatingIfNeeded: signo)
            let saved = errno
            _ = write(stopSignalPipe, &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for signo in Self.stopSignals { sigaction(signo, &action, nil) }
        let reader = Unmanaged.passRetained(Reader(signals: self, fd: fds[0]))
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { raw in
            Unmanaged<Reader>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, reader.toOpaque()) == 0 else {
            reader.release()
            return
        }
        pthread_detach(thread)
    }

    /// The thread that takes the stop signals: it alone has them unblocked until the process ends.
    private final class Reader {
        let signals: ProcessSignals, fd: Int32
        init(signals: ProcessSignals, fd: Int32) { (self.signals, self.fd) = (signals, fd) }

        func run() {
            var set = ProcessSignals.stopSet
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            var byte: UInt8 = 0
            while true {
                let n = read(fd, &byte, 1)
                if n < 0, errno == EINTR { continue }
                guard n == 1 else { return }
                if byte == 0 {
                    signals.settled.signal()
                } else {
                    signals.received(Int32(byte), count: 1)
                }
            }
        }
    }

    /// Sends `signals` to `route` from now on, including any of them that came with no route yet.
    func route(_ signals: [Int32], to route: @escaping Route) {
        let replay = state.withLock { s -> [(signo: Int32, count: UInt)] in
            for signo in signals { s.routes[signo] = route }
            let matching = s.waiting.filter { signals.contains($0.signo) }
            s.waiting.removeAll { signals.contains($0.signo) }
            return matching
        }
        for waiting in replay { route(waiting.signo, waiting.count) }
    }

    /// Removes the routes of `signals`.
    func unroute(_ signals: [Int32]) {
        state.withLock { s in for signo in signals { s.routes[signo] = nil } }
    }

    /// Waits until every stop signal the handler took was acted on (at exit: a signal that came
    /// as the work ended is not dropped), then `dieOnUnroutedSignals()`.
    func settle() {
        // A marker after every byte the handler wrote: once the reader thread has passed it,
        // each signal taken so far was acted on (the socket keeps order).
        if readEnd.withLock({ $0 }) >= 0 {
            var marker: UInt8 = 0
            if write(stopSignalPipe, &marker, 1) == 1 { _ = settled.wait(timeout: .now() + 2) }
        }
        // One sent but not yet taken by any thread (the reader not scheduled yet) is still
        // pending for the process: take it here (this thread has the signals blocked).
        var set = Self.stopSet
        var now = timespec(tv_sec: 0, tv_nsec: 0)
        while case let signo = sigtimedwait(&set, nil, &now), signo > 0 { received(signo, count: 1) }
        dieOnUnroutedSignals()
    }

    /// Signalled by the reader thread when it reads `settle()`'s marker.
    private let settled = DispatchSemaphore(value: 0)

    /// From now on a stop signal with no route ends the process by its default action; one that
    /// already came with no route does so now.
    func dieOnUnroutedSignals() {
        let first = state.withLock { s -> Int32? in
            s.dieWhenUnrouted = true
            return s.waiting.first?.signo
        }
        if let first { Self.die(of: first) }
    }

    private func received(_ signo: Int32, count: UInt) {
        let route = state.withLock { s -> Route? in
            if let route = s.routes[signo] { return route }
            if !s.dieWhenUnrouted { s.waiting.append((signo, count)) }
            return nil
        }
        if let route { return route(signo, count) }
        if state.withLock({ $0.dieWhenUnrouted }) { Self.die(of: signo) }
    }

    /// Ends the process as `signo`'s default action would (the shell sees the signal).
    static func die(of signo: Int32) -> Never {
        signal(signo, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signo)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(signo)
        _exit(128 + signo)
    }
}
