import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Bumped by the SIGWINCH handler; a `TerminalWidth` re-reads the size when it changed.
private let resizeGeneration = Atomic<Int>(0)
/// A descriptor the SIGWINCH handler also writes a `w` to (the REPL's wake pipe), or -1.
private let resizeWakeFD = Atomic<Int32>(-1)

/// The columns of the terminal that text is laid out for: `COLUMNS` when it is set to a positive
/// number (as GNU ls and man do), else the terminal's own width (`TIOCGWINSZ`, read again after
/// every SIGWINCH), else 80 (a pipe, a file).
final class TerminalWidth: Sendable {
    /// Columns assumed when there is no terminal to ask and no `COLUMNS`.
    static let fallback = 80

    private let fd: Int32
    private let fixed: Int?
    private let cached = Mutex<(generation: Int, columns: Int)?>(nil)

    /// The width of the terminal on `fd` (stdout or stderr), or `columns` (the `COLUMNS`
    /// variable) when that is a positive number.
    init(fd: Int32, columns: String?) {
        self.fd = fd
        fixed = columns.flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        if fixed == nil { Self.watchResizes() }
    }

    /// A fixed width (tests, and text laid out for no terminal in particular).
    init(columns: Int) {
        fd = -1
        fixed = columns
    }

    /// The current number of columns.
    var columns: Int {
        if let fixed { return fixed }
        let generation = resizeGeneration.load(ordering: .acquiring)
        return cached.withLock { c in
            if let c, c.generation == generation { return c.columns }
            let columns = Self.query(fd) ?? Self.fallback
            c = (generation, columns)
            return columns
        }
    }

    /// The width the kernel reports for the terminal on `fd`, nil when it is no terminal.
    static func query(_ fd: Int32) -> Int? {
        guard fd >= 0 else { return nil }
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Also wakes `fd` with a `w` byte on every SIGWINCH (the REPL's editor thread, which tells
    /// readline); -1 stops it.
    static func wakeOnResize(_ fd: Int32) {
        resizeWakeFD.store(fd, ordering: .releasing)
        watchResizes()
    }

    private static let installed = Mutex(false)

    /// Installs the SIGWINCH handler once: it only bumps a counter and writes one byte to a pipe,
    /// both async-signal-safe.
    private static func watchResizes() {
        let first = installed.withLock { done -> Bool in defer { done = true }; return !done }
        guard first else { return }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in
            let saved = errno
            resizeGeneration.add(1, ordering: .releasing)
            let fd = resizeWakeFD.load(ordering: .acquiring)
            if fd >= 0 {
                var byte: UInt8 = 0x77  // "w"
                _ = write(fd, &byte, 1)
            }
            errno = saved
        }
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(SIGWINCH, &action, nil)
    }
}
