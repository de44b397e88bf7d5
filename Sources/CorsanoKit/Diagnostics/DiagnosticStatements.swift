import CSQLite

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

/// SQLite's profile hook on one connection (`sqlite3_trace_v2`, SQLITE_TRACE_PROFILE): SQLite
/// itself measures each statement (nanoseconds, its own clock) and hands its unexpanded text, so
/// `-vv` sees every statement — those `sqlite3_exec` runs and the migrations too — with no
/// parameter value (SQLite "sqlite3_trace_v2").
final class SQLiteStatementTrace {
    let diagnostics: Diagnostics

    private init(_ diagnostics: Diagnostics) { self.diagnostics = diagnostics }

    /// Installs the hook on `db` when `diagnostics` wants `.debug`; the returned object must live
    /// as long as the connection (nil: nothing installed).
    static func install(on db: OpaquePointer, _ diagnostics: Diagnostics) -> SQLiteStatementTrace? {
        guard diagnostics.wants(.debug) else { return nil }
        let trace = SQLiteStatementTrace(diagnostics)
        sqlite3_trace_v2(db, UInt32(SQLITE_TRACE_PROFILE), { _, context, statement, nanoseconds in
            guard let context, let statement, let nanoseconds else { return 0 }
            let trace = Unmanaged<SQLiteStatementTrace>.fromOpaque(context).takeUnretainedValue()
            let sql = sqlite3_sql(OpaquePointer(statement)).map { String(cString: $0) } ?? "?"
            let ns = nanoseconds.assumingMemoryBound(to: Int64.self).pointee
            StatementText.say(trace.diagnostics, sql, Diagnostics.milliseconds(Double(ns) / 1e6))
            return 0
        }, Unmanaged.passUnretained(trace).toOpaque())
        return trace
    }
}
