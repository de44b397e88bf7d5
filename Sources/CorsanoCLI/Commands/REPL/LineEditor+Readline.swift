import CReadline
import Foundation

/// The wake pipe's write end, for the SIGINT handler (a plain Int32: async-signal-safe).
nonisolated(unsafe) private var signalWakeFD: Int32 = -1

/// readline's settings and the process's SIGINT/SIGWINCH handling while the REPL runs.
extension LineEditor {
    /// readline does not catch signals (the editor does, see `installSignalHandler`); TAB asks
    /// `REPLCompletion`; words break at blanks and `=` (`--clock=vi` completes `vi`).
    func configureReadline() {
        corsano_rl_configure { text, start, end in
            REPLCompletion.attempt(text: text, start: start, end: end)
        }
        if terminalFD == 2 { corsano_rl_output_to_stderr() }
    }

    /// SIGINT (read through `ProcessSignals`, blocked since `main` began) writes a byte to the
    /// wake pipe; the editor thread acts on it. SIGWINCH is `TerminalWidth`'s (a handler writing
    /// to the same pipe), which also lays out the commands' text for the new width.
    static func installSignalHandler(wakeFD: Int32) {
        signalWakeFD = wakeFD
        TerminalWidth.wakeOnResize(wakeFD)
        ProcessSignals.shared.route([SIGINT]) { _, _ in
            var byte: UInt8 = 0x69  // "i"
            _ = write(wakeFD, &byte, 1)
        }
    }

    /// Puts the REPL's SIGINT handler back (a command may have changed the disposition).
    static func reclaimSignals() {
        guard signalWakeFD >= 0 else { return }
        installSignalHandler(wakeFD: signalWakeFD)
    }
}
