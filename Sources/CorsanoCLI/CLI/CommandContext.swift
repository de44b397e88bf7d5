import CorsanoKit

#if canImport(Glibc)
import Glibc
#endif

/// What a command may touch of the process: streams, environment, terminals. Built once in
/// `main`; the core sees none of it, only what a command hands it.
struct CommandContext: @unchecked Sendable {
    var stdout: OutputWriter = .stdout
    var stderr: OutputWriter = .stderr
    var environment: [String: String]
    var stdinIsTerminal: Bool
    var stdoutIsTerminal: Bool
    var stderrIsTerminal: Bool = false
    /// Asks the person one line (prompt in; the typed line, or nil at end of input or Control-C).
    /// Set by the interactive REPL, whose line editor owns the terminal, so that flows can still
    /// ask retry questions there; nil elsewhere.
    var ask: (@Sendable (String) async -> String?)? = nil

    static func process() -> CommandContext {
        var env: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            p += 1
        }
        return CommandContext(environment: env, stdinIsTerminal: isatty(0) == 1, stdoutIsTerminal: isatty(1) == 1,
                              stderrIsTerminal: isatty(2) == 1)
    }

    /// The time bounds of a PostgreSQL store this command opens; `--store-wait` (or
    /// `CORSANO_STORE_WAIT`) sets `storeWaitSeconds` (`CommandRunner.context`).
    var storeBounds = PostgresWaitBounds()

    /// `--quiet`: notes and closing counts are not printed (`note`); errors and reports of
    /// rejected or dropped records still are.
    var quiet = false

    /// `-v`/`--verbose` (or `CORSANO_VERBOSE`): the most detailed diagnostic printed —
    /// `.notice` by default, `.info` at `-v`, `.debug` at `-vv` (docs/design.md "Diagnostics").
    var verbosity: DiagnosticLevel = .notice

    /// The core's sink for this run: notices as `note` (not at `--quiet`), decisions (`-v`) and
    /// exchanges (`-vv`) as `corsano: CATEGORY: message`, all on stderr through `diagnose`.
    var diagnostics: Diagnostics {
        let ctx = self
        return Diagnostics(level: quiet ? nil : verbosity) { diagnostic in
            if diagnostic.level == .notice { return ctx.note(diagnostic.message) }
            ctx.diagnose(diagnostic.category.rawValue + ": " + diagnostic.message)
        }
    }

    /// Prints `message` on stderr as `corsano: message` unless `--quiet`: what a run did
    /// (counts), what it assumed, what it repaired, what it waits for.
    func note(_ message: String) {
        guard !quiet else { return }
        diagnose(message)
    }

    /// Prints `message` on stderr as `corsano: message`, its control characters escaped
    /// (messages quote file names, cells and what a bridge said: issue 27). At a terminal it
    /// goes through the one wrapper (`writeText`): never split inside a word, right-to-left when
    /// the message is.
    func diagnose(_ message: String) {
        stdout.flush()
        writeText("corsano: " + TerminalText.escaped(message, keepingNewlines: true, keepingIsolates: true),
                  rightToLeft: TextLayout.startsRightToLeft(message))
    }

    /// The current wall-clock instant (only the executable reads the wall clock).
    static func wallClock() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Instant(secondsSinceEpoch: Int64(ts.tv_sec), nanoseconds: Int32(ts.tv_nsec))
    }
}
