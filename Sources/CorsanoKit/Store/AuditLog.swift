/// The audit log in the state store: what each bracelet was calibrated against (DESIGN "State
/// store"; seed: `didCollectReadings` is "exactly when knowing what was fed to the bracelet matters").
///
/// One row per run (bracelet, start and end on the run's clock, effective config, result) and one
/// per reading fed, with its attempt, index, the firmware's verdict and whether it was typed in.
public final class AuditLog: @unchecked Sendable {
    private let store: StateStore

    /// Opens the log in `store` (its tables come with the store's migrations).
    public init(store: StateStore) { self.store = store }

    /// Records the start of `run`. - Throws: `StoreError`.
    public func begin(run: String, flow: String, bracelet: BraceletIdentity, at: Instant, config: JSONValue) throws {
        try store.prepare("""
            INSERT INTO audit_run (run, flow, bracelet_serial, bracelet_model, bracelet_firmware,
                                   started_seconds, started_at, config) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).run([.text(run), .text(flow), .text(bracelet.serial), .text(bracelet.model), .text(bracelet.firmware),
                      .int(at.secondsSinceEpoch), .text(RFC3339.format(at)), .text(config.serialized)])
    }

    /// Records one reading fed to the bracelet. - Throws: `StoreError`.
    /// `mapReported`: whether the cuff reported the MAP the reading carries (nil: not known).
    public func record(run: String, attempt: Int, index: Int, accepted: Bool, manual: Bool, reading: JSONValue,
                       mapReported: Bool? = nil) throws {
        try store.prepare("""
            INSERT OR REPLACE INTO audit_reading (run, attempt, idx, accepted, manual, reading, map_reported)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
            .run([.text(run), .int(Int64(attempt)), .int(Int64(index)), .int(accepted ? 1 : 0), .int(manual ? 1 : 0),
                  .text(reading.serialized), mapReported.map { .int($0 ? 1 : 0) } ?? .null])
    }

    /// Records how `run` ended. - Throws: `StoreError`.
    public func finish(run: String, at: Instant, result: JSONValue) throws {
        try store.prepare("UPDATE audit_run SET ended_at = ?, result = ? WHERE run = ?")
            .run([.text(RFC3339.format(at)), .text(result.serialized), .text(run)])
    }

    /// The runs that started at or after `since` (on their run's clock), on bracelet `serial`
    /// when given, oldest first, each with its readings in order. - Throws: `StoreError`.
    public func runs(since: Instant? = nil, serial: String? = nil) throws -> [AuditRun] {
        let rows = try store.prepare("""
            SELECT run, flow, bracelet_serial, bracelet_model, bracelet_firmware, started_at, ended_at, config, result
            FROM audit_run WHERE (?1 IS NULL OR started_seconds >= ?1) AND (?2 IS NULL OR bracelet_serial = ?2)
            ORDER BY started_seconds, rowid
            """).rows([since.map { .int($0.secondsSinceEpoch) } ?? .null, serial.map { .text($0) } ?? .null])
        let readings = try store.prepare(
            "SELECT attempt, idx, accepted, manual, reading, map_reported FROM audit_reading WHERE run = ? ORDER BY attempt, idx")
        return try rows.map { row in
            let run = row[0].text ?? ""
            let fed = try readings.rows([.text(run)]).map { r in
                AuditReading(attempt: Int(r[0].int ?? 0), index: Int(r[1].int ?? 0), accepted: r[2].int == 1,
                             manual: r[3].int == 1, readingJSON: r[4].text ?? "{}", mapReported: r[5].int.map { $0 == 1 })
            }
            return AuditRun(run: run, flow: row[1].text ?? "",
                            bracelet: BraceletIdentity(model: row[3].text ?? "", firmware: row[4].text ?? "", serial: row[2].text ?? ""),
                            startedAt: row[5].text ?? "", endedAt: row[6].text, configJSON: row[7].text ?? "{}",
                            resultJSON: row[8].text, readings: fed)
        }
    }
}

/// One run as the audit log holds it; JSON fields are kept as their stored text.
public struct AuditRun: Equatable, Sendable {
    public var run: String
    public var flow: String
    public var bracelet: BraceletIdentity
    /// Start and end on the run's clock, RFC 3339; `endedAt` nil when the run was killed.
    public var startedAt: String
    public var endedAt: String?
    /// The effective config and the result object, as JSON text; result nil when the run was killed.
    public var configJSON: String
    public var resultJSON: String?
    public var readings: [AuditReading]
    /// The gateway that ran it, where the store records one.
    public var gateway: String? = nil
}

/// One reading fed during a run: its place, the firmware's verdict, whether typed in, the reading as fed (JSON text).
public struct AuditReading: Equatable, Sendable {
    public var attempt: Int
    public var index: Int
    public var accepted: Bool
    public var manual: Bool
    public var readingJSON: String
    /// Whether the cuff reported the MAP in `readingJSON` (false: derived by the seed's rule;
    /// nil: not recorded — rows written before the store kept it).
    public var mapReported: Bool? = nil
}
