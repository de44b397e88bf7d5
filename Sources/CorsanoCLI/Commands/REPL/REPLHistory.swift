import CReadline
import CorsanoKit
import Foundation

/// The REPL's line history in `$XDG_STATE_HOME/corsano/history` (falling back to
/// `~/.local/state/corsano/history`), read at start and appended to after every line, so that a
/// session killed hard keeps what it had typed. Capped at `limit` lines.
///
/// Readings typed at a flow's `cuff>` prompt have a list of their own, kept for the session only
/// (they belong to one patient's calibration); answers to a flow's questions go in neither.
struct REPLHistory: Sendable {
    let path: String
    static let limit: Int32 = 1000

    init(environment: [String: String]) {
        path = StateLocation.stateDirectory(environment: environment) + "/history"
    }

    /// Creates the file's directory and loads earlier sessions' lines.
    func load() {
        // 0700 / 0600 whatever the umask, as bash keeps its history: lines name patients' data.
        let directory = (path as NSString).deletingLastPathComponent
        try? PrivateFiles.makeDirectory(directory)
        try? PrivateFiles.createIfMissing(path)
        stifle_history(Self.limit)
        read_history(path)
    }

    /// Which list a prompt's lines go to and Up recalls.
    enum List {
        case commands
        case readings
    }

    /// Records `line` in the list in use (not blank ones, nor a repeat of the previous line);
    /// a command also goes to the file. A line holding a password (a PostgreSQL URI with one, a
    /// `password=` pair) goes to neither (issue 27: "passwords nowhere").
    func add(_ line: String, to list: List) {
        guard line.contains(where: { !$0.isWhitespace }), !PostgresURI.holdsPassword(line) else { return }
        if corsano_history_last_is(line) != 0 { return }
        add_history(line)
        if list == .commands { append_history(1, path) }
    }

    /// Trims the file to the last `limit` lines (call with the command list in use).
    func save() {
        history_truncate_file(path, Self.limit)
    }
}
