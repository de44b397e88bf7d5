/// Every wait on the PostgreSQL server ends: a connection attempt, a lock held by
/// another session, a statement, and a peer that vanished without closing the connection each
/// have a bound, and running into one is exit 74 naming what waited (`PostgresConnection.storeError`).
/// SQLite's equivalent is its 10 s busy timeout. A server that is busy or restarting (too many
/// connections, shutting down, starting up, refusing connections) is waited for within one more
/// bound, `storeWaitSeconds` (`--store-wait`), then 75 (docs/design.md "State store").
///
/// Each bound is a libpq connection parameter or a server setting, so the user sets it where
/// PostgreSQL users already do — in the URI (`?connect_timeout=30`, `?keepalives_idle=60`), the
/// PG* environment (`PGCONNECT_TIMEOUT`), or on the server (`ALTER ROLE … SET lock_timeout`,
/// which PgBouncer passes on; the URI's `options=` does not reach a server behind PgBouncer in
/// transaction mode) — and corsano's default applies only where nothing set one: a connection
/// parameter the URI repeats wins (libpq keeps the last value), and a server setting is raised
/// only while it is 0 (no bound). The server settings are set with `SET LOCAL` in each
/// transaction (`beginSQL`), never for the session: behind a transaction-mode pooler the next
/// transaction may run on another server connection. Sources: libpq "Parameter Key Words",
/// PostgreSQL "Client Connection Defaults", PgBouncer "Pool modes".
public struct PostgresWaitBounds: Sendable, Equatable {
    /// Seconds a connection attempt may take (libpq `connect_timeout`).
    public var connectSeconds = 10
    /// Milliseconds a statement waits for a lock another session holds (`lock_timeout`); the
    /// same as SQLite's busy timeout.
    public var lockMilliseconds = 10_000
    /// Milliseconds one statement may run (`statement_timeout`): a large claim takes well under
    /// a second, a `state migrate` copy of a big store a few seconds.
    public var statementMilliseconds = 60_000
    /// Seconds of silence before TCP keepalive probes start, between probes, and probes lost
    /// before the connection counts as dead (libpq `keepalives_*`): a server host that vanished
    /// is noticed within about a minute while corsano waits for an answer.
    public var keepaliveIdleSeconds = 30, keepaliveIntervalSeconds = 10, keepaliveCount = 3
    /// Milliseconds sent data may stay unacknowledged before the connection counts as dead
    /// (libpq `tcp_user_timeout`): bounds a write to a vanished server, which keepalives do not.
    public var tcpUserTimeoutMilliseconds = 60_000
    /// Seconds a store operation waits, retrying with jittered back-off, for a server that is
    /// busy or restarting before it gives up with 75 (`--store-wait`, `CORSANO_STORE_WAIT`).
    public var storeWaitSeconds: Double = 30
    /// Seconds the one connection a process keeps between transactions may stay idle before it
    /// is closed (a waiting run holds no server connection: docs/design.md "State store").
    public var idleCloseSeconds: Double = 3

    /// The defaults above.
    public init() {}

    /// The session's settings in force after `apply`, as the server shows them (for messages).
    struct Session: Equatable {
        var lockTimeout: String
        var statementTimeout: String
    }

    /// The libpq keywords and values given before the URI (which may override each).
    func connectionParameters(environmentSetsConnectTimeout: Bool) -> [(String, String)] {
        var parameters = [("keepalives", "1"), ("keepalives_idle", String(keepaliveIdleSeconds)),
                          ("keepalives_interval", String(keepaliveIntervalSeconds)), ("keepalives_count", String(keepaliveCount)),
                          ("tcp_user_timeout", String(tcpUserTimeoutMilliseconds))]
        if !environmentSetsConnectTimeout { parameters.insert(("connect_timeout", String(connectSeconds)), at: 0) }
        return parameters
    }

    /// The first round trip of every transaction: `BEGIN`, then in the same statement
    /// lock_timeout and statement_timeout set locally where they are 0 (no bound),
    /// synchronous_commit raised to `on` where it is `off` (with `off` the server acknowledges a
    /// commit before it is on disk, so a server crash could roll back a claim whose line went
    /// out), and the backend's pid and the transaction's id, which settle a COMMIT whose answer
    /// is lost (`pg_backend_pid()`, not libpq's `PQbackendPID`: behind PgBouncer that is the
    /// pooler's). Columns: lock_timeout, statement_timeout (as in force), backend pid, txid.
    /// `asynchronousCommit` (`--durability normal`): synchronous_commit off instead, as asked.
    func beginSQL(asynchronousCommit: Bool = false) -> String {
        func bounded(_ name: String, _ milliseconds: Int) -> String {
            "set_config('\(name)', CASE current_setting('\(name)') WHEN '0' THEN '\(Self.shown(milliseconds: milliseconds))' "
                + "ELSE current_setting('\(name)') END, true)"
        }
        return "BEGIN; SELECT " + bounded("lock_timeout", lockMilliseconds) + ", " + bounded("statement_timeout", statementMilliseconds)
            + ", pg_backend_pid(), txid_current()"
            + (asynchronousCommit ? ", set_config('synchronous_commit', 'off', true)"
                : ", set_config('synchronous_commit', CASE current_setting('synchronous_commit') WHEN 'off' THEN 'on' "
                    + "ELSE current_setting('synchronous_commit') END, true)")
    }

    /// A duration as the server shows one (`10s`, `1500ms`).
    static func shown(milliseconds: Int) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }
}
