import CSQLite
import Synchronization

/// `-vv`'s line for one store statement: its text on one line (whitespace runs made one space,
/// cut at `limit` characters), never its parameters — a parameter may hold a profile or a
/// reading (docs/design.md "Diagnostics"). Both engines say statements this way.
enum StatementText {
    /// The longest statement text printed, characters.
    static let limit = 160

    /// `sql` as one line of at most `limit` characters.
    static func line(_ sql: String) -> String {
        let words = sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        return words.count <= limit ? words : String(words.prefix(limit - 1)) + "…"
    }

    /// `statement DURATION: SQL` for the store's `.debug` diagnostics.
    static func say(_ diagnostics: Diagnostics, _ sql: String, _ duration: String, rows: Int? = nil) {
        diagnostics.debug(.store, "statement \(duration)" + (rows.map { ", \($0) rows" } ?? "") + ": " + line(sql))
    }
}

/// SQLite's statement hooks on one connection (`sqlite3_trace_v2`): SQLITE_TRACE_STMT when a
/// statement starts, SQLITE_TRACE_PROFILE when it ends, with its unexpanded text — so `-vv` sees
/// every statement, those `sqlite3_exec` runs and the migrations too, with no parameter value
/// (SQLite "sqlite3_trace_v2"). The duration is measured here on the monotonic clock: SQLite's
/// own profile time has millisecond resolution on Unix, which says 0 for most statements.
final class SQLiteStatementTrace {
    let diagnostics: Diagnostics
    /// When each running statement started (a lock: the hook runs on whichever thread steps one).
    let started = Mutex<[Int: ContinuousClock.Instant]>([:])  // by statement address

    private init(_ diagnostics: Diagnostics) { self.diagnostics = diagnostics }

    /// Installs the hook on `db` when `diagnostics` wants `.debug`; the returned object must live
    /// as long as the connection (nil: nothing installed).
    static func install(on db: OpaquePointer, _ diagnostics: Diagnostics) -> SQLiteStatementTrace? {
        guard diagnostics.wants(.debug) else { return nil }
        let trace = SQLiteStatementTrace(diagnostics)
        sqlite3_trace_v2(db, UInt32(SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE), { event, context, statement, _ in
            guard let context, let statement else { return 0 }
            let trace = Unmanaged<SQLiteStatementTrace>.fromOpaque(context).takeUnretainedValue()
            let stmt = OpaquePointer(statement), key = Int(bitPattern: statement)
            if event == UInt32(SQLITE_TRACE_STMT) {
                // Also called at each trigger's start: the statement's own start is kept.
                trace.started.withLock { if $0[key] == nil { $0[key] = .now } }
                return 0
            }
            let start = trace.started.withLock { $0.removeValue(forKey: key) } ?? .now
            let sql = sqlite3_sql(stmt).map { String(cString: $0) } ?? "?"
            StatementText.say(trace.diagnostics, sql, Diagnostics.milliseconds(start.duration(to: .now)))
            return 0
        }, Unmanaged.passUnretained(trace).toOpaque())
        return trace
    }
}
