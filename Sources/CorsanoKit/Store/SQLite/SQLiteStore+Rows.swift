import CSQLite

/// The `StateStore` rows in SQLite (tables of `SQLiteSchema`). The store's clock for leases is
/// SQLite's own `julianday('now')`, as seconds since the epoch.
extension SQLiteStore {
    /// SQL for the store's now in seconds since the epoch.
    static let now = "((julianday('now') - 2440587.5) * 86400.0)"

    // MARK: Seen-set

    public func seenSet(scope: String) throws -> any SeenSet {
        try StoreSeenSet(store: self, scope: scope)
    }

    public func setDurability(_ durability: StoreDurability) throws {
        try locked { try execute(durability == .full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL") }
    }

    public func seenScopes() throws -> [String] {
        try locked {
            try prepare("""
                SELECT name FROM seen_scope s WHERE EXISTS (SELECT 1 FROM seen_reading WHERE scope = s.id)
                    OR EXISTS (SELECT 1 FROM seen_reading_wide WHERE scope = s.id) ORDER BY name
                """).rows().compactMap { $0.first?.text }
        }
    }

    public func seenKeys(scope: String) throws -> [SeenKey] {
        try locked {
            let packed = try prepare("""
                SELECT seconds, packed FROM seen_reading WHERE scope = (SELECT id FROM seen_scope WHERE name = ?1)
                ORDER BY seconds, packed
                """).rows([.text(scope)]).map { row -> SeenKey in
                    guard let seconds = row[0].int, let word = row[1].int,
                          let key = SeenKey(seconds: seconds, packedWord: UInt64(bitPattern: word)) else {
                        throw StoreError.corrupt(path: path, message: "seen_reading row of scope \(scope) is unreadable")
                    }
                    return key
                }
            let wide = try prepare("""
                SELECT seconds, nanos, systolic, diastolic, has_pulse, pulse FROM seen_reading_wide
                WHERE scope = (SELECT id FROM seen_scope WHERE name = ?1) ORDER BY seconds, nanos
                """).rows([.text(scope)]).map { row -> SeenKey in
                    let v = row.map { $0.int }
                    guard v.count == 6, let s = v[0], let n = v[1].flatMap({ Int32(exactly: $0) }), (0..<1_000_000_000).contains(n),
                          let sys = v[2], let dia = v[3], let has = v[4], let pulse = v[5] else {
                        throw StoreError.corrupt(path: path, message: "seen_reading_wide row of scope \(scope) is unreadable")
                    }
                    return SeenKey(measuredAt: Instant(secondsSinceEpoch: s, nanoseconds: n), systolic: Int(sys),
                                   diastolic: Int(dia), pulse: has == 0 ? nil : Int(pulse))
                }
            return packed + wide
        }
    }

    // MARK: Plan journal

    public func journalOpen(_ entry: PlanJournal.Entry, leaseSeconds: Double) throws -> PlanJournal.Entry {
        try locked {
            try prepare("""
                INSERT OR IGNORE INTO plan_journal (serial, previous_plan, flow, pid, opened_at, gateway, start_time,
                                                    boot_id, lease_until)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, \(Self.now) + ?9)
                """).run([.text(entry.serial), .text(entry.previousPlan.name), .text(entry.flow),
                          .int(Int64(entry.owner.pid)), .text(RFC3339.format(entry.openedAt)), .text(entry.owner.gateway),
                          entry.owner.startTime.map { .int(Int64(bitPattern: $0)) } ?? .null,
                          entry.owner.bootID.map { .text($0) } ?? .null, .double(leaseSeconds)])
            return try journalEntries(serial: entry.serial).first ?? entry
        }
    }

    public func journalEntries(serial: String?) throws -> [PlanJournal.Entry] {
        try locked {
            try prepare("""
                SELECT serial, previous_plan, flow, pid, opened_at, gateway, start_time, boot_id,
                       lease_until - \(Self.now), lease_until
                FROM plan_journal WHERE ?1 IS NULL OR serial = ?1 ORDER BY serial
                """).rows([serial.map { .text($0) } ?? .null]).map { row in
                    // A row that cannot be read is corruption, never skipped: skipping it let the
                    // next run delete the row holding the true previous plan.
                    guard row.count == 10, let serial = row[0].text, let plan = row[1].text, let flow = row[2].text,
                          let pid = row[3].int, let at = row[4].text.flatMap(RFC3339.parseInstant),
                          let gateway = row[5].text else {
                        throw StoreError.corrupt(path: path, message: "plan_journal row of serial \(row.first?.text ?? "?") is unreadable "
                                                 + "(left as it is; fix or delete it, then run 'corsano bracelet repair')")
                    }
                    let owner = PlanJournal.Owner(gateway: gateway, pid: Int32(truncatingIfNeeded: pid),
                                                  startTime: row[6].int.map { UInt64(bitPattern: $0) }, bootID: row[7].text)
                    return PlanJournal.Entry(serial: serial, previousPlan: BraceletPlan(plan), flow: flow, owner: owner,
                                             openedAt: at, leaseRemaining: row[8].double,
                                             leaseEndsAt: row[9].double.flatMap(PlanJournal.Entry.leaseEnd))
                }
        }
    }

    public func journalRenew(serial: String, owner: PlanJournal.Owner, leaseSeconds: Double) throws -> Bool {
        try locked {
            try prepare("""
                UPDATE plan_journal SET lease_until = \(Self.now) + ?4
                WHERE serial = ?1 AND gateway = ?2 AND pid = ?3
                """).run([.text(serial), .text(owner.gateway), .int(Int64(owner.pid)), .double(leaseSeconds)]) == 1
        }
    }

    public func journalClose(serial: String) throws {
        try locked { _ = try prepare("DELETE FROM plan_journal WHERE serial = ?1").run([.text(serial)]) }
    }

    public func journalExpire(gateway: String) throws -> Int {
        try locked {
            try prepare("UPDATE plan_journal SET lease_until = \(Self.now) WHERE gateway = ?1 AND lease_until > \(Self.now)")
                .run([.text(gateway)])
        }
    }

    // MARK: Audit log

    public func auditBegin(_ run: AuditRun) throws {
        _ = try insertRun(run)
    }

    func insertRun(_ run: AuditRun) throws -> Bool {
        try locked {
            try prepare("""
                INSERT OR IGNORE INTO audit_run (run, flow, gateway, bracelet_serial, bracelet_model, bracelet_firmware,
                                                 started_seconds, started_at, ended_at, config, result)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).run([.text(run.run), .text(run.flow), .text(run.gateway ?? ""), .text(run.bracelet.serial),
                          .text(run.bracelet.model), .text(run.bracelet.firmware), .int(run.startedSeconds),
                          .text(run.startedAt), run.endedAt.map { .text($0) } ?? .null, .text(run.configJSON),
                          run.resultJSON.map { .text($0) } ?? .null]) == 1
        }
    }

    public func auditRecord(run: String, _ reading: AuditReading) throws {
        try locked {
            _ = try prepare("""
                INSERT OR REPLACE INTO audit_reading (run, attempt, idx, accepted, manual, reading, map_reported, record)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """).run([.text(run), .int(Int64(reading.attempt)), .int(Int64(reading.index)), .int(reading.accepted ? 1 : 0),
                          .int(reading.manual ? 1 : 0), .text(reading.readingJSON), reading.mapReported.map { .int($0 ? 1 : 0) } ?? .null,
                          reading.recordJSON.map { .text($0) } ?? .null])
        }
    }

    public func auditFinish(run: String, endedAt: String, resultJSON: String) throws {
        try locked {
            _ = try prepare("UPDATE audit_run SET ended_at = ?, result = ? WHERE run = ?")
                .run([.text(endedAt), .text(resultJSON), .text(run)])
        }
    }

    public func auditRuns(_ filter: AuditFilter) throws -> [AuditRun] {
        try locked {
            let rows = try prepare("""
                SELECT run, flow, gateway, bracelet_serial, bracelet_model, bracelet_firmware, started_at, ended_at,
                       config, result
                FROM audit_run WHERE (?1 IS NULL OR started_seconds >= ?1) AND (?2 IS NULL OR bracelet_serial = ?2)
                                 AND (?3 IS NULL OR gateway = ?3) AND (?4 IS NULL OR run = ?4)
                ORDER BY started_seconds, rowid
                """).rows([filter.since.map { .int($0.secondsSinceEpoch) } ?? .null, filter.serial.map { .text($0) } ?? .null,
                           filter.gateway.map { .text($0) } ?? .null, filter.run.map { .text($0) } ?? .null])
            let readings = try prepare(
                "SELECT attempt, idx, accepted, manual, reading, map_reported, record FROM audit_reading WHERE run = ? ORDER BY attempt, idx")
            return try rows.map { row in
                let run = row[0].text ?? ""
                let fed = try readings.rows([.text(run)]).map { r in
                    AuditReading(attempt: Int(r[0].int ?? 0), index: Int(r[1].int ?? 0), accepted: r[2].int == 1,
                                 manual: r[3].int == 1, readingJSON: r[4].text ?? "{}", mapReported: r[5].int.map { $0 == 1 },
                                 recordJSON: r[6].text)
                }
                return AuditRun(run: run, flow: row[1].text ?? "",
                                bracelet: BraceletIdentity(model: row[4].text ?? "", firmware: row[5].text ?? "",
                                                           serial: row[3].text ?? ""),
                                startedAt: row[6].text ?? "", endedAt: row[7].text, configJSON: row[8].text ?? "{}",
                                resultJSON: row[9].text, readings: fed, gateway: row[2].text.flatMap { $0.isEmpty ? nil : $0 })
            }
        }
    }

    public func auditImport(_ run: AuditRun) throws -> Bool {
        try transaction { try insertRunWithReadings(run) }
    }

    // MARK: Audit chain

    public func auditChainTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(body)  // BEGIN IMMEDIATE: the write lock is taken before the head is read
    }

    public func auditChainHead() throws -> AuditChainRecord? {
        try locked { try chainRecords(where: "ORDER BY seq DESC LIMIT 1").first }
    }

    public func auditChainInsert(_ record: AuditChainRecord) throws {
        try locked {
            _ = try prepare("INSERT INTO audit_chain (seq, kind, run, body, prev, hash, mac, key_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                .run([.int(record.seq), .text(record.kind), .text(record.run), .text(record.body), .text(record.prev),
                      .text(record.hash), record.mac.map { .text($0) } ?? .null, record.keyID.map { .text($0) } ?? .null])
        }
    }

    public func auditChain() throws -> [AuditChainRecord] {
        try locked { try chainRecords(where: "ORDER BY seq") }
    }

    private func chainRecords(where clause: String) throws -> [AuditChainRecord] {
        try prepare("SELECT seq, kind, run, body, prev, hash, mac, key_id FROM audit_chain " + clause).rows().map { r in
            AuditChainRecord(seq: r[0].int ?? 0, kind: r[1].text ?? "", run: r[2].text ?? "", body: r[3].text ?? "",
                             prev: r[4].text ?? "", hash: r[5].text ?? "", mac: r[6].text, keyID: r[7].text)
        }
    }

    // MARK: Profiles

    @discardableResult
    public func profileSave(_ profile: UserProfile, serial: String, pushedAt: String, onlyIfAbsent: Bool) throws -> Bool {
        let conflict = ProfileStore.conflictClause(onlyIfAbsent: onlyIfAbsent)
        return try locked {
            try prepare("""
                INSERT INTO pushed_profile (serial, height, weight, wrist, gender, unit, birthdate, skin_tone,
                                            hair_density, pushed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (serial) \(conflict)
                """).run([
                    .text(serial), .int(Int64(profile.heightCm)), .int(Int64(profile.weightKg)),
                    .text(profile.wrist.rawValue), .text(profile.gender.rawValue), .text(profile.unit.rawValue),
                    .text(profile.birthdate), .int(Int64(profile.skinTone)), .text(profile.hairDensity.rawValue),
                    .text(pushedAt),
                ]) == 1
        }
    }

    public func profileLoad(serial: String) throws -> UserProfile? {
        try profileRows(serial: serial).first?.profile
    }

    public func profiles() throws -> [StoredProfile] { try profileRows(serial: nil) }

    private func profileRows(serial: String?) throws -> [StoredProfile] {
        try locked {
            try prepare("""
                SELECT serial, height, weight, wrist, gender, unit, birthdate, skin_tone, hair_density, pushed_at
                FROM pushed_profile WHERE ?1 IS NULL OR serial = ?1 ORDER BY serial
                """).rows([serial.map { .text($0) } ?? .null]).map { row in
                    guard row.count == 10, let serial = row[0].text, let pushedAt = row[9].text,
                          let profile = UserProfile.fromColumns(
                            height: row[1].int, weight: row[2].int, wrist: row[3].text, gender: row[4].text, unit: row[5].text,
                            birthdate: row[6].text, skinTone: row[7].int, hairDensity: row[8].text) else {
                        throw StoreError.corrupt(path: path, message: "pushed_profile row for \(row.first?.text ?? "?") is unreadable")
                    }
                    return StoredProfile(serial: serial, profile: profile, pushedAt: pushedAt)
                }
        }
    }
}

// MARK: Multi-set calibrations

extension SQLiteStore {
    public func calibrationOpen(serial: String) throws -> MultiSetCalibration? {
        try calibrationRows(where: "serial = ?1 AND status = 'open'", [.text(serial)]).first
    }

    public func calibrationSave(_ calibration: MultiSetCalibration) throws {
        try locked {
            _ = try prepare("""
                INSERT INTO calibration (id, serial, status, body) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (id) DO UPDATE SET status = excluded.status, body = excluded.body
                """).run([.text(calibration.id), .text(calibration.serial), .text(calibration.status.rawValue),
                          .text(CalibrationRecord.text(calibration))])
        }
    }

    public func calibrations(openOnly: Bool) throws -> [MultiSetCalibration] {
        try calibrationRows(where: openOnly ? "status = 'open'" : "1", [])
    }

    private func calibrationRows(where condition: String, _ parameters: [StoreValue]) throws -> [MultiSetCalibration] {
        try locked {
            try prepare("SELECT id, body FROM calibration WHERE \(condition) ORDER BY serial, rowid").rows(parameters).map { row in
                try CalibrationRecord.decode(row.count == 2 ? row[1].text : nil, id: row.first?.text, location: path)
            }
        }
    }
}
