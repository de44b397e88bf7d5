import CorsanoKit
import Foundation

/// Where a command's state store lives (DESIGN "State store"): `--state PATH|URI`, else env
/// `CORSANO_STATE`, else `$XDG_STATE_HOME/corsano/state.sqlite3` (falling back to
/// `~/.local/state/corsano/state.sqlite3`); `--no-state` keeps it in memory for the run. A
/// `postgresql://` or `postgres://` URI puts it on a PostgreSQL server (libpq and its PG* environment).
enum StateLocation {
    /// The store file for this run; nil for `--no-state`. - Throws: `UsageError.conflict` when
    /// both `--state` and `--no-state` are given.
    static func path(_ args: ParsedCommand, environment: [String: String]) throws -> String? {
        if args.flag("no-state") {
            if args.given("state") != nil { throw UsageError.conflict("--state and --no-state exclude each other") }
            return nil
        }
        if let path = args.string("state") { return path }  // the flag, else its variable (CORSANO_STATE)
        return stateDirectory(environment: environment) + "/state.sqlite3"
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
        guard let path = try path(args, environment: ctx.environment) else { return try SQLiteStore(path: nil) }
        return try open(path: path, ctx)
    }

    /// Opens the store at `path` (a server URI, or a file whose directory is made); a new SQLite
    /// store is said once on stderr (a store that went missing starts over: issue 28).
    /// - Throws: `StoreError` naming the path or the server (never its password).
    static func open(path: String, _ ctx: CommandContext) throws -> any StateStore {
        let store = try openStore(path: path)
        if let file = store as? SQLiteStore, file.created { ctx.note("state store \(path): creating a new store") }
        return store
    }

    private static func openStore(path: String) throws -> any StateStore {
        if PostgresURI.isPostgres(path) { return try PostgresStore(uri: path) }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError.cannotOpen(path: path, message: "cannot create directory \(directory)")
            }
        }
        return try SQLiteStore(path: path)
    }

    /// Opens the store for a command that only reads it: nil when the file does not exist (or the
    /// database holds no corsano schema), so a read never creates a store (or its directory); the
    /// path comes back password-free for messages. `--no-state` gives an empty in-memory one.
    /// - Throws: `UsageError` (flags), `StoreError` naming the path (exit 74).
    static func openExisting(_ args: ParsedCommand, environment: [String: String]) throws -> (store: (any StateStore)?, path: String?) {
        guard let path = try path(args, environment: environment) else { return (try SQLiteStore(path: nil), nil) }
        if PostgresURI.isPostgres(path) {
            return (try PostgresStore.openExisting(uri: path), PostgresURI.redacted(path))
        }
        guard FileManager.default.fileExists(atPath: path) else { return (nil, path) }
        return (try SQLiteStore(path: path), path)
    }
}
