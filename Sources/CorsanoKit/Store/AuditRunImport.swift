/// A store whose audit run row is inserted by one statement that leaves a held id alone: what
/// `auditImport` needs of SQLite and PostgreSQL alike (`state migrate`, docs/design.md "Audit chain").
protocol AuditRunInserting: StateStore {
    /// Inserts `run`'s row (not its readings) unless its id is held; true when inserted.
    /// - Throws: `StoreError`.
    func insertRun(_ run: AuditRun) throws -> Bool
}

extension AuditRunInserting {
    /// The run row, then each of its readings; nothing when the id is held (false). Callers run
    /// it inside one transaction, so an import is whole or absent. - Throws: `StoreError`.
    func insertRunWithReadings(_ run: AuditRun) throws -> Bool {
        guard try insertRun(run) else { return false }
        for reading in run.readings { try auditRecord(run: run.run, reading) }
        return true
    }
}

extension SQLiteStore: AuditRunInserting {}
extension PostgresStore: AuditRunInserting {}
