import CorsanoKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a command's state store lives (docs/design.md "State store"): `--state PATH|URI`, else env
/// `CORSANO_STATE`, else `$XDG_STATE_HOME/corsano/state.sqlite3` (falling back to
/// `~/.local/state/corsano/state.sqlite3`); `--no-state` keeps it in memory for the run. A
/// `postgresql://` or `postgres://` URI puts it on a PostgreSQL server (libpq and its PG* environment).
enum StateLocation {
    /// The store file for this run; nil for `--no-state` (`--state` with it: refused by the table).
    /// - Throws: `UsageError` for a location that names no store.
    static func path(_ args: ParsedCommand, environment: [String: String]) throws -> String? {
        if args.flag(.noState) { return nil }
        if let path = args.string(.state) { return try checked(path) }  // the flag, else its variable (CORSANO_STATE)
        return stateDirectory(environment: environment) + "/state.sqlite3"
    }

    /// The warning for a password on the command line (printed once, on stderr).
    static let passwordWarning = "warning: a password on the command line can be read by every user of this machine "
        + "(ps, /proc/PID/cmdline); leave it out of the URI and put it in ~/.pgpass or the file PGPASSFILE names "
        + "(mode 0600), or name a service in PGSERVICE (pg_service.conf)"

    /// `location` when it is a file path or a valid PostgreSQL URI. - Throws: `UsageError` (64)
    /// for a value that looks like a URI or a libpq `key=value` string but is not a valid URI,
    /// which would otherwise become a SQLite file named after it; the message never shows a password.
    static func checked(_ location: String, option: String = "state") throws -> String {
        guard PostgresURI.looksLikeConnectionString(location), let problem = PostgresURI.problem(in: location) else { return location }
        throw UsageError.badValue(option: option, value: PostgresURI.redacted(location),
                                  expected: "a file path or a postgresql://USER@HOST:PORT/DB URI (\(problem))")
    }

    /// `$XDG_STATE_HOME/corsano`, else `~/.local/state/corsano` (also home of the REPL history).
    static func stateDirectory(environment: [String: String]) -> String {
        if let xdg = environment[EnvironmentVariable.xdgStateHome.rawValue], xdg.hasPrefix("/") {
            return xdg + "/corsano"  // the spec ignores relative values
        }
        return (environment[EnvironmentVariable.home.rawValue] ?? NSHomeDirectory()) + "/.local/state/corsano"
    }

    /// Opens the store for this run, creating its directory.
    /// - Throws: `UsageError` (flags), `StoreError` naming the path (exit 74) when the directory
    ///   cannot be made or the store cannot be opened, is locked too long or is corrupt.
    static func open(_ args: ParsedCommand, _ ctx: CommandContext) throws -> any StateStore {
        guard let path = try path(args, environment: ctx.environment) else { return try SQLiteStore(path: nil, diagnostics: ctx.diagnostics) }
        return try open(path: path, ctx)
    }

    /// Opens the store at `path` (a server URI, or a file whose directory is made); a new SQLite
    /// store is said once on stderr (a store that went missing starts over: issue 28).
    /// - Throws: `StoreError` naming the path or the server (never its password).
    static func open(path: String, _ ctx: CommandContext) throws -> any StateStore {
        let store = try openStore(path: path, ctx.diagnostics, bounds: ctx.storeBounds)
        if let file = store as? SQLiteStore, file.created { ctx.note("state store \(path): creating a new store") }
        return store
    }

    private static func openStore(path: String, _ diagnostics: Diagnostics, bounds: PostgresWaitBounds) throws -> any StateStore {
        let path = try checked(path)
        if PostgresURI.isPostgres(path) { return try PostgresStore(uri: path, bounds: bounds, diagnostics: diagnostics) }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try PrivateFiles.makeDirectory(directory)  // 0700 when made: it holds health data
            } catch {
                throw StoreError.cannotOpen(path: path, message: "cannot create directory \(directory)")
            }
        }
        return try SQLiteStore(path: path, diagnostics: diagnostics)
    }

    /// Opens the store for a command that only reads it: nil when the file does not exist (or the
    /// database holds no corsano schema), so a read never creates a store (or its directory); the
    /// path comes back password-free for messages. `--no-state` gives an empty in-memory one.
    ///
    /// A SQLite store this user cannot write is read without writing: a read-only file
    /// in a writable directory opens `mode=ro`; in a directory it cannot write (a snapshot, a
    /// read-only mount, another user's) it opens `immutable=1`, and `note` says that changes a
    /// writer makes meanwhile are not seen.
    /// - Throws: `UsageError` (flags), `StoreError` naming the path (exit 74).
    /// With `readOnly` a SQLite file this user could write is opened `mode=ro` too (`fleet status`
    /// writes nothing, whoever runs it).
    static func openExisting(_ args: ParsedCommand, environment: [String: String],
                             note: (String) -> Void = { _ in }, diagnostics: Diagnostics = .none,
                             readOnly: Bool = false, bounds: PostgresWaitBounds = PostgresWaitBounds()) throws -> (store: (any StateStore)?, path: String?) {
        guard let path = try path(args, environment: environment) else { return (try SQLiteStore(path: nil, diagnostics: diagnostics), nil) }
        return try openExisting(path: path, note: note, diagnostics: diagnostics, readOnly: readOnly, bounds: bounds)
    }

    /// The 66 of a command that needs an existing store and found none at `path` (a file that is
    /// not there, a database without corsano's tables): a check fails closed, saying what it
    /// cannot tell (`consequence`, after a semicolon) and where to look.
    static func noStore(_ path: String?, _ consequence: String? = nil) -> InputError {
        let what = PostgresURI.isPostgres(path ?? "") ? "the database has no corsano tables" : "no state store there"
        return InputError.cannotOpen(path: path ?? "?", reason: what + (consequence.map { "; " + $0 } ?? "") + " (check --state or CORSANO_STATE)")
    }

    /// `openExisting` for a store named by `path` (a file or a PostgreSQL URI, already checked).
    static func openExisting(path: String, note: (String) -> Void = { _ in }, diagnostics: Diagnostics = .none,
                             readOnly: Bool = false, bounds: PostgresWaitBounds = PostgresWaitBounds()) throws -> (store: (any StateStore)?, path: String?) {
        if PostgresURI.isPostgres(path) {
            return (try PostgresStore.openExisting(uri: path, bounds: bounds, diagnostics: diagnostics), PostgresURI.redacted(path))
        }
        guard FileManager.default.fileExists(atPath: path) else {
            diagnostics.info(.store, "no store at \(path): nothing to read (a read never creates one)")
            return (nil, path)
        }
        let directory = (path as NSString).deletingLastPathComponent
        if access(directory.isEmpty ? "." : directory, W_OK) != 0 {
            note("\(path): its directory cannot be written: reading the store as an immutable snapshot "
                 + "(changes a writer makes meanwhile are not seen)")
            return (try SQLiteStore(readingOnly: path, mode: .immutable, diagnostics: diagnostics), path)
        }
        if readOnly || access(path, W_OK) != 0 { return (try SQLiteStore(readingOnly: path, mode: .readOnly, diagnostics: diagnostics), path) }
        return (try SQLiteStore(path: path, diagnostics: diagnostics), path)
    }
}
