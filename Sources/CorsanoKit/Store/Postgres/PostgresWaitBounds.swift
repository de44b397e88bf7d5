/// Every wait on the PostgreSQL server ends (issue 28): a connection attempt, a lock held by
/// another session, a statement, and a peer that vanished without closing the connection each
/// have a bound, and running into one is exit 74 naming what waited (`PostgresConnection.storeError`).
/// SQLite's equivalent is its 10 s busy timeout.
///
/// Each bound is a libpq connection parameter or a server setting, so the user sets it where
/// PostgreSQL users already do — in the URI (`?connect_timeout=30`, `?keepalives_idle=60`,
/// `?options=-c%20lock_timeout%3D30s`), the PG* environment (`PGCONNECT_TIMEOUT`, `PGOPTIONS`),
/// or on the server (`ALTER ROLE … SET lock_timeout`) — and corsano's default applies only where
/// nothing set one: a connection parameter the URI repeats wins (libpq keeps the last value), and
/// a server setting is changed only while it is 0 (no bound). Sources: libpq "Parameter Key
/// Words", PostgreSQL "Client Connection Defaults".
public struct PostgresWaitBounds: Sendable, Equatable {
    /// Seconds a connection attempt may take (libpq `connect_timeout`).
    public var connectSeconds = 10
    /// Milliseconds a statement waits for a lock another session holds (`lock_timeout`); the
    /// same as SQLite's busy timeout.
    public var lockMilliseconds = 10_000
    /// Milliseconds one statement may run (`statement_timeout`): a large claim takes well under
    /// a second (issue 16), a `state migrate` copy of a big store a few seconds.
    public var statementMilliseconds = 60_000
    /// Seconds of silence before TCP keepalive probes start, between probes, and probes lost
    /// before the connection counts as dead (libpq `keepalives_*`): a server host that vanished
    /// is noticed within about a minute while corsano waits for an answer.
    public var keepaliveIdleSeconds = 30, keepaliveIntervalSeconds = 10, keepaliveCount = 3
    /// Milliseconds sent data may stay unacknowledged before the connection counts as dead
    /// (libpq `tcp_user_timeout`): bounds a write to a vanished server, which keepalives do not.
    public var tcpUserTimeoutMilliseconds = 60_000

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

    /// Sets lock_timeout and statement_timeout where they are 0 (no bound), and
    /// synchronous_commit to `on` where it is `off`: with `off` the server acknowledges a
    /// commit before it is on disk, so a server crash can roll back a claim whose line went out
    /// (a reading handed on twice). One round trip, two when something is set.
    /// - Throws: `PostgresFailure`.
    func apply(on connection: PostgresConnection) throws(PostgresFailure) -> Session {
        let shown = try connection.query("""
            SELECT current_setting('lock_timeout'), current_setting('statement_timeout'), current_setting('synchronous_commit')
            """)
        var session = Session(lockTimeout: shown.text(0, 0) ?? "0", statementTimeout: shown.text(0, 1) ?? "0")
        var set: [String] = []
        if session.lockTimeout == "0" {
            set.append("SET lock_timeout = \(lockMilliseconds)")
            session.lockTimeout = Self.shown(milliseconds: lockMilliseconds)
        }
        if session.statementTimeout == "0" {
            set.append("SET statement_timeout = \(statementMilliseconds)")
            session.statementTimeout = Self.shown(milliseconds: statementMilliseconds)
        }
        if shown.text(0, 2) == "off" { set.append("SET synchronous_commit = on") }
        if !set.isEmpty { try connection.execute(set.joined(separator: "; ")) }
        return session
    }

    /// A duration as the server shows one (`10s`, `1500ms`).
    static func shown(milliseconds: Int) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000)s" : "\(milliseconds)ms"
    }
}
