import Foundation

/// The write end of the signal pipe, for the handler (a plain Int32: async-signal-safe).
nonisolated(unsafe) private var signalPipeFD: Int32 = -1

/// SIGINT/SIGTERM for the REPL's whole life (flows in it do not install their own, see
/// `SignalHandling.hostInREPL`): the handler writes the signal number to a pipe, a thread reads
/// it and calls `onSignal` outside signal context.
enum REPLSignals {
    /// Catches `signals` (restarting interrupted calls) and calls `onSignal` for each delivery.
    static func install(_ signals: [Int32], onSignal: @escaping @Sendable (Int32) -> Void) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        signalPipeFD = fds[1]
        let readEnd = fds[0]
        let thread = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 { onSignal(Int32(byte)) }
        }
        thread.name = "corsano-signals"
        thread.start()
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signo in
            var byte = UInt8(truncatingIfNeeded: signo)
            let saved = errno
            _ = write(signalPipeFD, &byte, 1)
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        for signo in signals { sigaction(signo, &action, nil) }
        SignalHandling.hostInREPL()
    }
}
