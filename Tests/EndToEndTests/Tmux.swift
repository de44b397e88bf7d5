import Foundation
import Testing
import TestSupport

/// A terminal for end-to-end REPL tests: `corsano` runs in a detached tmux session on a private
/// server; keys go in with send-keys, the screen comes back with capture-pane. Waits poll the
/// screen against a deadline instead of sleeping.
final class Tmux {
    let server = "corsano-test-\(UUID().uuidString.prefix(8))"
    let stateHome: URL

    /// Starts `corsano ARGS` in a terminal of `columns` x `rows` (120x40) with its own
    /// XDG_STATE_HOME (or `stateHome`); with `stdout`, its standard output goes to that file.
    convenience init(_ args: [String], stateHome: URL? = nil, env: [String: String] = [:], columns: Int = 120, rows: Int = 40,
         stdout: URL? = nil) throws {
        try self.init(program: [Corsano.binary.path] + args, stateHome: stateHome, env: env, columns: columns, rows: rows, stdout: stdout)
    }

    /// Starts the REPL (`corsano repl --no-state`, then `more`) as `init(_:)` does and waits for
    /// its first prompt.
    static func repl(_ more: [String] = [], stateHome: URL? = nil, stdout: URL? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> Tmux {
        let term = try Tmux(["repl", "--no-state"] + more, stateHome: stateHome, stdout: stdout)
        try term.waitFor("corsano>", sourceLocation: sourceLocation)
        return term
    }

    /// In the REPL: queues the typed reading `reading` (`cuff add READING`) and waits until the REPL
    /// says it is queued, with `waiting` readings then waiting for the next bp-init when given.
    func queue(_ reading: String, waiting: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try send("cuff add \(reading)", "Enter")
        try waitFor("queued \(reading) (manual)" + (waiting.map { " (\($0) waiting for the next bp-init)" } ?? ""),
                    sourceLocation: sourceLocation)
    }

    /// Starts `program` (its path, then its arguments) as `init(_:)` starts corsano: a shell,
    /// for the completion tests.
    init(program: [String], stateHome: URL? = nil, env: [String: String] = [:], columns: Int = 120, rows: Int = 40,
         stdout: URL? = nil) throws {
        self.stateHome = stateHome ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("corsano-tmux-\(UUID().uuidString)")
        var environment = ["XDG_STATE_HOME": self.stateHome.path, "TERM": "xterm", "NO_COLOR": "1",
                           "HOME": self.stateHome.path, "LANG": "C.UTF-8"]
        for (k, v) in env { environment[k] = v }
        let exports = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quote($0.value))" }.joined(separator: " ")
        let command = "env \(exports) \(program.map(Self.quote).joined(separator: " "))"
            + (stdout.map { " >" + Self.quote($0.path) } ?? "")
            + "; echo \"[exited $?]\"; sleep 60"
        // The tmux server outlives this call and keeps every descriptor it inherits, so tmux runs
        // through system(3) with plain files, never pipes a reader waits on.
        #expect(try tmux(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", command]).status == 0, "tmux new-session failed")
    }

    deinit {
        _ = try? tmux(["kill-server"])
        // tmux leaves its socket file behind.
        let dir = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(dir)/tmux-\(getuid())/\(server)")
    }

    /// Types `keys` (tmux key names like `Tab`, `Enter`, `C-c`, `Up`; other words are literal).
    func send(_ keys: String...) throws {
        try send(keys: keys)
    }

    /// Types `keys`, as `send(_:)`.
    func send(keys: [String]) throws {
        for key in keys {
            let named = ["Tab", "Enter", "C-c", "C-d", "C-u", "Up", "Down", "Escape"].contains(key)
            _ = try tmux(["send-keys", "-t", "0"] + (named ? [key] : ["-l", "--", key]))
        }
    }

    /// The visible screen, trailing blank lines dropped.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-t", "0"]).stdout
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).replacing(/\s+$/, with: "") }
            .joined(separator: "\n").replacing(/\n+$/, with: "")
    }

    /// Everything written since the start, scrollback included, with the rows the terminal
    /// wrapped by itself joined again (`capture-pane -J`): a row here wider than the terminal
    /// is a line the program failed to wrap.
    func transcript() throws -> [String] {
        try tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", "0"]).stdout
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).replacing(/\s+$/, with: "") }
    }

    /// Changes the terminal's size (the program gets SIGWINCH).
    func resize(columns: Int, rows: Int = 40) throws {
        _ = try tmux(["resize-window", "-t", "0", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// Polls the screen until `predicate` holds; fails the test with the screen after `timeout` s.
    @discardableResult
    func waitFor(_ what: String, timeout: Double = 15, sourceLocation: SourceLocation = #_sourceLocation,
                 _ predicate: (String) -> Bool) throws -> String {
        var last = ""
        if try Wait.until(seconds: timeout, poll: 0.03, { last = try screen(); return predicate(last) }) { return last }
        Issue.record("timed out waiting for \(what); screen:\n\(last)", sourceLocation: sourceLocation)
        return last
    }

    /// Waits until the screen contains `text`.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 15, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try waitFor("'\(text)'", timeout: timeout, sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// The pid of the program running in the pane (the child of the pane's shell).
    func programID() throws -> pid_t? {
        let shell = try tmux(["list-panes", "-t", "0", "-F", "#{pane_pid}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return children?.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// Waits until the screen ends with `prompt` (the program waits for a line there), then
    /// types `line` and Enter.
    func answer(_ prompt: String, with line: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try waitFor("the prompt '\(prompt)'", sourceLocation: sourceLocation) { $0.hasSuffix(prompt) }
        if !line.isEmpty { try send(line) }
        try send("Enter")
    }

    /// Waits until the program in the pane has exited and returns its exit status (nil on a timeout).
    func exitStatus(timeout: Double = 30, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int32? {
        let screen = try waitFor("the program to exit", timeout: timeout, sourceLocation: sourceLocation) {
            $0.contains("[exited ")
        }
        guard let match = screen.firstMatch(of: /\[exited (\d+)\]/) else { return nil }
        return Int32(match.1)
    }

    /// The last non-empty line of the screen.
    func lastLine() throws -> String {
        try screen().split(separator: "\n").last.map(String.init) ?? ""
    }

    private func tmux(_ args: [String]) throws -> (status: Int32, stdout: String) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        // The server (and the shell of each pane) starts with this environment: without what
        // corsano reads, as every process a test starts (`Corsano.inherited`).
        let unset = ProcessInfo.processInfo.environment.keys.filter(Corsano.isScrubbed).sorted().flatMap { ["-u", $0] }
        // And the test run's one audit key, as every other process of the run.
        let line = (["env"] + unset + ["XDG_CONFIG_HOME=" + Corsano.sharedConfigHome, "tmux", "-L", server] + args)
            .map(Self.quote).joined(separator: " ")
        let status = system(line + " </dev/null >\(Self.quote(out.path)) 2>&1")
        let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        return (status, text)
    }

    static func quote(_ s: String) -> String { "'" + s.replacing("'", with: "'\\''") + "'" }
}
