/// The store's schema as forward migrations; `user_version` records how many ran.
///
/// Append a migration for each schema change; never edit one that shipped. Each later issue adds
/// its tables here (seen-set, plan journal, audit log, last profile). `PostgresSchema` keeps the
/// same tables for PostgreSQL.
enum SQLiteSchema {
    static let migrations: [String] = [
        // 1: replay seen-set, per scope. key = instant AND systolic, diastolic, pulse, stored
        // as (seconds, SeenKey.packedWord) so the B-tree compares two integers; keys without a
        // packed form (implausible values) spell their fields out in seen_reading_wide. Scopes
        // are numbered; a missing pulse there is has_pulse = 0 (NULL cannot be in a unique key).
        """
        CREATE TABLE seen_scope (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
        CREATE TABLE seen_reading (
            scope INTEGER NOT NULL, seconds INTEGER NOT NULL, packed INTEGER NOT NULL,
            PRIMARY KEY (scope, seconds, packed)
        ) WITHOUT ROWID;
        CREATE TABLE seen_reading_wide (
            scope INTEGER NOT NULL, seconds INTEGER NOT NULL, nanos INTEGER NOT NULL,
            systolic INTEGER NOT NULL, diastolic INTEGER NOT NULL,
            has_pulse INTEGER NOT NULL, pulse INTEGER NOT NULL,
            PRIMARY KEY (scope, seconds, nanos, systolic, diastolic, has_pulse, pulse)
        ) WITHOUT ROWID;
        """,
        // 2: plan journal: one open entry per bracelet switched into the NIBP-calibration plan.
        """
        CREATE TABLE plan_journal (
            serial TEXT NOT NULL PRIMARY KEY, previous_plan TEXT NOT NULL, flow TEXT NOT NULL,
            pid INTEGER NOT NULL, opened_at TEXT NOT NULL
        );
        """,
        // 3: audit log: one row per flow run, one per reading fed to the bracelet (`corsano history`).
        """
        CREATE TABLE audit_run (
            run TEXT PRIMARY KEY, flow TEXT NOT NULL,
            bracelet_serial TEXT NOT NULL, bracelet_model TEXT NOT NULL, bracelet_firmware TEXT NOT NULL,
            started_seconds INTEGER NOT NULL, started_at TEXT NOT NULL, ended_at TEXT,
            config TEXT NOT NULL, result TEXT
        );
        CREATE INDEX audit_run_started ON audit_run (started_seconds);
        CREATE INDEX audit_run_serial ON audit_run (bracelet_serial, started_seconds);
        CREATE TABLE audit_reading (
            run TEXT NOT NULL REFERENCES audit_run (run), attempt INTEGER NOT NULL, idx INTEGER NOT NULL,
            accepted INTEGER NOT NULL, manual INTEGER NOT NULL, reading TEXT NOT NULL,
            PRIMARY KEY (run, attempt, idx)
        ) WITHOUT ROWID;
        """,
        // 4: the last profile pushed to (or verified on) each bracelet, by serial.
        """
        CREATE TABLE pushed_profile (
            serial TEXT PRIMARY KEY, height INTEGER NOT NULL, weight INTEGER NOT NULL,
            wrist TEXT NOT NULL, gender TEXT NOT NULL, unit TEXT NOT NULL, birthdate TEXT NOT NULL,
            skin_tone INTEGER NOT NULL, hair_density TEXT NOT NULL, pushed_at TEXT NOT NULL
        );
        """,
        // 5: whether the cuff reported each fed reading's MAP (FHIR exports MAP only when reported);
        // NULL in rows written before: unknown.
        """
        ALTER TABLE audit_reading ADD COLUMN map_reported INTEGER;
        """,
        // 6: the journal's owner is gateway + pid + process start time + boot id, with a lease
        // (seconds since the epoch on the store's clock, renewed by the run) that another gateway
        // judges; audit runs carry their gateway. '' = recorded before gateways: this machine.
        """
        ALTER TABLE plan_journal ADD COLUMN gateway TEXT NOT NULL DEFAULT '';
        ALTER TABLE plan_journal ADD COLUMN start_time INTEGER;
        ALTER TABLE plan_journal ADD COLUMN boot_id TEXT;
        ALTER TABLE plan_journal ADD COLUMN lease_until REAL NOT NULL DEFAULT 0;
        ALTER TABLE audit_run ADD COLUMN gateway TEXT NOT NULL DEFAULT '';
        CREATE INDEX audit_run_gateway ON audit_run (gateway, started_seconds);
        """,
        // 7: the audit log's hash chain: one record per change, only ever appended.
        // An existing store's chain starts at its first append after this (a `chainStart` record).
        """
        CREATE TABLE audit_chain (
            seq INTEGER PRIMARY KEY, kind TEXT NOT NULL, run TEXT NOT NULL, body TEXT NOT NULL,
            prev TEXT NOT NULL, hash TEXT NOT NULL, mac TEXT, key_id TEXT
        );
        """,
        // 8: multi-set calibrations: one record per calibration, at most one open per
        // bracelet (the partial unique index: two gateways never open two).
        """
        CREATE TABLE calibration (id TEXT PRIMARY KEY, serial TEXT NOT NULL, status TEXT NOT NULL, body TEXT NOT NULL);
        CREATE UNIQUE INDEX calibration_open ON calibration (serial) WHERE status = 'open';
        """,
        // 9: each fed reading's record as it was encoded (`FedCuffReading.json`, issue 24), which
        // `history` prints as stored; NULL in rows written before (shown from their columns).
        """
        ALTER TABLE audit_reading ADD COLUMN record TEXT;
        """,
        // 10: each scope's seen rows counted and checksummed (`StoreSeenSet+Digest`), kept by every
        // commit and release, checked before a record is handed on: a damaged store is refused,
        // not believed. Filled here from the rows as they are.
        """
        CREATE TABLE seen_digest (
            scope INTEGER PRIMARY KEY, packed_rows INTEGER NOT NULL, packed_sum INTEGER NOT NULL,
            wide_rows INTEGER NOT NULL, wide_sum INTEGER NOT NULL
        );
        INSERT INTO seen_digest (scope, packed_rows, packed_sum, wide_rows, wide_sum)
        SELECT id, (SELECT count(*) FROM seen_reading WHERE scope = id),
               (SELECT coalesce(sum(\(StoreSeenSet.packedRowSum)), 0) FROM seen_reading WHERE scope = id),
               (SELECT count(*) FROM seen_reading_wide WHERE scope = id),
               (SELECT coalesce(sum(\(StoreSeenSet.wideRowSum)), 0) FROM seen_reading_wide WHERE scope = id)
        FROM seen_scope;
        """,
    ]

    static func migrate(_ store: SQLiteStore) throws {
        let version = try store.prepare("PRAGMA user_version").rows().first?.first?.int ?? 0
        if version > Int64(migrations.count) {
            throw StoreError.newerSchema(path: store.path, version: Int(version))
        }
        guard version < Int64(migrations.count) else { return }
        try store.transaction {
            // Re-read inside the write lock: another process may have migrated meanwhile.
            let current = Int(try store.prepare("PRAGMA user_version").rows().first?.first?.int ?? 0)
            for index in current..<migrations.count {
                try store.execute(migrations[index])
                try store.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }
}
