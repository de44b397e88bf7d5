/// The PostgreSQL store's schema as forward migrations: the tables of `SQLiteSchema` (as they
/// stand after its migration 6) in PostgreSQL's types. `corsano_schema.version` records how many
/// ran. Migrations run inside one transaction holding an advisory lock, so two processes
/// (on any gateways) opening a fresh database at once are safe: the second waits, then finds
/// the work done. Append a migration for each change; never edit one that shipped.
enum PostgresSchema {
    /// The advisory lock key (`pg_advisory_xact_lock`): "corsano" in ASCII.
    static let lockKey: Int64 = 0x636F_7273_616E_6F

    static let migrations: [String] = [
        // 1: seen-set (packed keys, and wide ones for implausible values), plan journal with
        // owner and lease on the server's clock, audit log with gateway, last profiles.
        """
        CREATE TABLE seen_scope (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL UNIQUE);
        CREATE TABLE seen_reading (
            scope bigint NOT NULL, seconds bigint NOT NULL, packed bigint NOT NULL,
            PRIMARY KEY (scope, seconds, packed)
        );
        CREATE TABLE seen_reading_wide (
            scope bigint NOT NULL, seconds bigint NOT NULL, nanos integer NOT NULL,
            systolic bigint NOT NULL, diastolic bigint NOT NULL, has_pulse boolean NOT NULL, pulse bigint NOT NULL,
            PRIMARY KEY (scope, seconds, nanos, systolic, diastolic, has_pulse, pulse)
        );
        CREATE TABLE plan_journal (
            serial text PRIMARY KEY, previous_plan text NOT NULL, flow text NOT NULL,
            gateway text NOT NULL, pid integer NOT NULL, start_time bigint, boot_id text,
            opened_at text NOT NULL, lease_until timestamptz NOT NULL
        );
        CREATE TABLE audit_run (
            seq bigint GENERATED ALWAYS AS IDENTITY, run text PRIMARY KEY, flow text NOT NULL, gateway text NOT NULL,
            bracelet_serial text NOT NULL, bracelet_model text NOT NULL, bracelet_firmware text NOT NULL,
            started_seconds bigint NOT NULL, started_at text NOT NULL, ended_at text,
            config text NOT NULL, result text
        );
        CREATE INDEX audit_run_started ON audit_run (started_seconds, seq);
        CREATE INDEX audit_run_serial ON audit_run (bracelet_serial, started_seconds);
        CREATE INDEX audit_run_gateway ON audit_run (gateway, started_seconds);
        CREATE TABLE audit_reading (
            run text NOT NULL REFERENCES audit_run (run), attempt integer NOT NULL, idx integer NOT NULL,
            accepted boolean NOT NULL, manual boolean NOT NULL, reading text NOT NULL, map_reported boolean,
            PRIMARY KEY (run, attempt, idx)
        );
        CREATE TABLE pushed_profile (
            serial text PRIMARY KEY, height integer NOT NULL, weight integer NOT NULL,
            wrist text NOT NULL, gender text NOT NULL, unit text NOT NULL, birthdate text NOT NULL,
            skin_tone integer NOT NULL, hair_density text NOT NULL, pushed_at text NOT NULL
        );
        """,
        // 2: the audit log's hash chain, as `SQLiteSchema` migration 7.
        """
        CREATE TABLE audit_chain (
            seq bigint PRIMARY KEY, kind text NOT NULL, run text NOT NULL, body text NOT NULL,
            prev text NOT NULL, hash text NOT NULL, mac text, key_id text
        );
        """,
        // 3: multi-set calibrations, as `SQLiteSchema` migration 8.
        """
        CREATE TABLE calibration (seq bigint GENERATED ALWAYS AS IDENTITY, id text PRIMARY KEY, serial text NOT NULL,
                                  status text NOT NULL, body text NOT NULL);
        CREATE UNIQUE INDEX calibration_open ON calibration (serial) WHERE status = 'open';
        """,
        // 4: each fed reading's record as encoded, as `SQLiteSchema` migration 9.
        """
        ALTER TABLE audit_reading ADD COLUMN record text;
        """,
    ]

    /// The advisory lock key of audit chain appends (`pg_advisory_xact_lock`): "corsaudt" in ASCII.
    static let auditChainLockKey: Int64 = 0x636F_7273_6175_6474

    /// Brings the database up to `migrations.count`. Run it inside a transaction
    /// (`PostgresStore.transaction`): the advisory lock is held to its end.
    /// - Throws: `PostgresFailure`, `StoreError.newerSchema`.
    static func migrate(_ connection: PostgresConnection) throws {
        _ = try connection.query("SELECT pg_advisory_xact_lock($1)", [String(lockKey)])
        try connection.execute("CREATE TABLE IF NOT EXISTS corsano_schema (version integer NOT NULL)")
        let current = try connection.query("SELECT version FROM corsano_schema")
        var version = current.rowCount > 0 ? Int(current.int(0, 0) ?? 0) : 0
        if current.rowCount == 0 { try connection.execute("INSERT INTO corsano_schema VALUES (0)") }
        if version > migrations.count {
            throw StoreError.newerSchema(path: connection.location, version: version)
        }
        while version < migrations.count {
            try connection.execute(migrations[version])
            version += 1
            _ = try connection.query("UPDATE corsano_schema SET version = $1", [String(version)])
        }
    }

    /// True when the database holds a corsano schema (a read never creates one).
    static func exists(_ connection: PostgresConnection) throws -> Bool {
        try connection.query("SELECT to_regclass('corsano_schema') IS NOT NULL").bool(0, 0) ?? false
    }
}
