import CorsanoKit
import Foundation
import TestSupport
import Testing

/// Both state stores keep the same semantics: the same contract runs against a SQLite
/// file and against a database on the throwaway PostgreSQL server (which must start: a test that
/// cannot reach it fails, it is not skipped).
@Suite struct StateStoreContractTests {
    enum Engine: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// A fresh store location: a SQLite file, or a new database's URI.
    static func freshLocation(_ engine: Engine) throws -> String {
        switch engine {
        case .sqlite:
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-contract-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            return dir.appendingPathComponent("state.sqlite3").path
        case .postgres:
            return try ThrowawayPostgres.shared().createDatabase().uri
        }
    }

    static func open(_ location: String) throws -> any StateStore {
        PostgresURI.isPostgres(location) ? try PostgresStore(uri: location) : try SQLiteStore(path: location)
    }

    static func key(_ second: Int64, _ systolic: Int = 120, pulse: Int? = 60, nanos: Int32 = 0) -> SeenKey {
        SeenKey(measuredAt: Instant(secondsSinceEpoch: 1_795_000_000 + second, nanoseconds: nanos), systolic: systolic,
                diastolic: 80, pulse: pulse)
    }

    @Test(arguments: Engine.allCases)
    func aClaimIsWonByExactlyOneConnection(engine: Engine) throws {
        let location = try Self.freshLocation(engine)
        let a = try Self.open(location).seenSet(scope: "default")
        let b = try Self.open(location).seenSet(scope: "default")
        let k = Self.key(0), other = Self.key(60)
        // A key without a packed form (systolic beyond the packing) goes through the wide table.
        let wide = Self.key(120, 5000, pulse: nil)
        #expect(try a.insert(k) == true)
        #expect(try a.insert(k) == false)
        #expect(try a.insert(wide) == true)
        #expect(try b.contains(k) == false)
        #expect(try b.insert(k) == true)
        #expect(try b.insert(other) == true)
        #expect(try b.insert(wide) == true)
        #expect(try a.commitPending() == [])
        #expect(try b.commitPending() == [k, wide])
        #expect(try a.contains(other) == true)
        #expect(try a.contains(wide) == true)
        #expect(try b.commitPending() == [])
        let scopeB = try Self.open(location).seenSet(scope: "m2")
        #expect(try scopeB.insert(k) == true)
        #expect(try scopeB.commitPending() == [], "scopes are separate")
    }

    /// `containedKeys` answers for many keys what `contains` answers for one: keys another
    /// writer committed, this set's committed and open claims, wide keys; not unseen keys or
    /// other scopes' keys.
    @Test(arguments: Engine.allCases)
    func containedKeysAnswersAsContainsDoes(engine: Engine) throws {
        let location = try Self.freshLocation(engine)
        let other = try Self.open(location).seenSet(scope: "s")
        let elsewhere = try Self.open(location).seenSet(scope: "t")
        let seen = try Self.open(location).seenSet(scope: "s")
        let byOther = (0..<300).map { Self.key(Int64($0) * 7) } + [Self.key(9_000, 5000, pulse: nil)]
        let committed = [Self.key(1), Self.key(9_001, 4000)]
        let open = [Self.key(2), Self.key(9_002, 3000, pulse: nil)]
        let unseen = [Self.key(3), Self.key(4, 121), Self.key(7, pulse: nil), Self.key(9_003, 5000, pulse: nil)]
        for key in byOther { _ = try other.insert(key) }
        #expect(try other.commitPending().isEmpty)
        for key in unseen { _ = try elsewhere.insert(key) }
        #expect(try elsewhere.commitPending().isEmpty)
        for key in committed { _ = try seen.insert(key) }
        #expect(try seen.commitPending().isEmpty)
        for key in open { _ = try seen.insert(key) }
        let asked = (byOther + committed + open + unseen).shuffled()
        let expected = Set(byOther + committed + open)
        #expect(try seen.containedKeys(asked) == expected)
        #expect(try Set(asked.filter { try seen.contains($0) }) == expected)
        #expect(try seen.containedKeys([]).isEmpty)
    }

    @Test(arguments: Engine.allCases)
    func aLargeBatchReportsOnlyTheKeysAnotherWriterHeld(engine: Engine) throws {
        let location = try Self.freshLocation(engine)
        let first = try Self.open(location).seenSet(scope: "s")
        for second in stride(from: Int64(0), to: 20_000, by: 2) { _ = try first.insert(Self.key(second)) }
        #expect(try first.commitPending().isEmpty)
        let second = try Self.open(location).seenSet(scope: "s")
        for s in Int64(0)..<20_000 { #expect(try second.insert(Self.key(s, nanos: 0)) == true) }
        let lost = try second.commitPending()
        #expect(lost.count == 10_000)
        #expect(lost == Set(stride(from: Int64(0), to: 20_000, by: 2).map { Self.key($0) }))
    }

    @Test(arguments: Engine.allCases)
    func theJournalKeepsTheOwnerAndALeaseOnTheStoresClock(engine: Engine) throws {
        let store = try Self.open(Self.freshLocation(engine))
        let owner = PlanJournal.Owner(gateway: "gw-a", pid: 4242, startTime: 987_654, bootID: "b00t")
        let journal = PlanJournal(store: store, leaseSeconds: 30)
        let entry = PlanJournal.Entry(serial: "SIM-1", previousPlan: BraceletPlan("monitoring"), flow: "bp-init",
                                      owner: owner, openedAt: Instant(secondsSinceEpoch: 1_795_000_000))
        #expect(try journal.open(entry) == entry)
        let other = PlanJournal.Entry(serial: "SIM-1", previousPlan: BraceletPlan("sleep"), flow: "bp-init",
                                      owner: PlanJournal.Owner(gateway: "gw-b", pid: 1), openedAt: Instant(secondsSinceEpoch: 1_795_000_100))
        #expect(try journal.open(other) == entry, "an open entry is kept")
        let read = try #require(try journal.entry(serial: "SIM-1"))
        #expect(read.owner == owner)
        let left = try #require(read.leaseRemaining)
        #expect(left > 25 && left <= 30)
        // Another gateway sees a live lease; the same gateway judges by the process instead.
        let me = PlanJournal.Owner(gateway: "gw-b", pid: 7)
        #expect(PlanJournal.isHeld(read, me: me, isAlive: { _ in false }))
        #expect(!PlanJournal.isHeld(read, me: PlanJournal.Owner(gateway: "gw-a", pid: 7), isAlive: { _ in false }))
        // A lease of 0 runs out at once; renewing moves it again.
        #expect(try PlanJournal(store: store, leaseSeconds: 0).renew(serial: "SIM-1", owner: owner))
        let expired = try #require(try journal.entry(serial: "SIM-1"))
        #expect((expired.leaseRemaining ?? 1) <= 0)
        #expect(!PlanJournal.isHeld(expired, me: me, isAlive: { _ in true }))
        #expect(try journal.renew(serial: "SIM-1", owner: owner))
        #expect((try journal.entry(serial: "SIM-1")?.leaseRemaining ?? 0) > 25)
        #expect(try journal.renew(serial: "SIM-1", owner: me) == false, "only the owner renews")
        try journal.close(serial: "SIM-1")
        #expect(try journal.openEntries() == [])
        #expect(try journal.renew(serial: "SIM-1", owner: owner) == false)
    }

    /// A reading fed to the bracelet, unstamped.
    static func fed(_ systolic: Int, manual: Bool) -> CuffReading {
        CuffReading(systolic: systolic, diastolic: 80, pulse: 70, measuredAt: nil, isManualEntry: manual)
    }

    @Test(arguments: Engine.allCases)
    func auditRunsCarryTheirGatewayAndFilterByIt(engine: Engine) throws {
        let store = try Self.open(Self.freshLocation(engine))
        let bracelet = BraceletIdentity(model: "287-2", firmware: "7.4", serial: "SIM-1")
        for (run, gateway, second) in [("r1", "gw-a", 0), ("r2", "gw-b", 60), ("r3", "gw-a", 120)] {
            let log = AuditLog(store: store, gateway: gateway)
            let at = Instant(secondsSinceEpoch: 1_795_000_000 + Int64(second))
            try log.begin(run: run, flow: .bpInit, bracelet: bracelet, at: at, config: .object([("maxAttempts", .int(3))]))
            try log.record(run: run, FedCuffReading(attempt: 1, index: 1, reading: Self.fed(120, manual: false), braceletAccepted: true))
            try log.record(run: run, FedCuffReading(attempt: 1, index: 1, reading: Self.fed(121, manual: true), braceletAccepted: false))
            try log.finish(run: run, at: at, result: .object([("kind", .string("success"))]))
        }
        let log = AuditLog(store: store)
        #expect(try log.runs().map(\.run) == ["r1", "r2", "r3"])
        #expect(try log.runs(gateway: "gw-a").map(\.run) == ["r1", "r3"])
        #expect(try log.runs(since: Instant(secondsSinceEpoch: 1_795_000_001), gateway: "gw-a").map(\.run) == ["r3"])
        let run = try #require(try log.runs(gateway: "gw-b").first)
        #expect(run.gateway == "gw-b")
        // The later row replaced the first; the record is kept as it was encoded, the columns read off it.
        let fed = FedCuffReading(attempt: 1, index: 1, reading: Self.fed(121, manual: true), braceletAccepted: false)
        #expect(run.readings == [AuditReading(fed)])
        #expect(run.readings.first?.recordJSON == fed.json.serialized)
        #expect(run.readings.first.map { [$0.accepted, $0.manual, $0.mapReported == false] } == [false, true, true])
        #expect(run.configJSON == #"{"maxAttempts":3}"#)
        #expect(run.resultJSON == #"{"kind":"success"}"#)
    }

    /// The fed-reading record is encoded once (`FedCuffReading.json`): the `measurement` event
    /// carries it, the `readings` event lists it, and the store keeps that text.
    @Test(arguments: Engine.allCases)
    func theFedReadingRecordIsStoredAsEncoded(engine: Engine) throws {
        let store = try Self.open(Self.freshLocation(engine))
        let sink = AuditLogSink(log: AuditLog(store: store), bracelet: BraceletIdentity(model: "287-2", firmware: "7.4", serial: "SIM-1"))
        let at = Instant(secondsSinceEpoch: 1_795_000_000)
        let reading = CuffReading(systolic: 121, diastolic: 79, pulse: 64, measuredAt: at, provenance: [ProvenanceField(name: "cuff", rawJSON: #"{"id":"A"}"#)])
        let fed = [FedCuffReading(attempt: 1, index: 1, reading: reading, braceletAccepted: true),
                   FedCuffReading(attempt: 1, index: 2, reading: Self.fed(118, manual: true), braceletAccepted: false)]
        let events = [FlowEvent(flow: .bpInit, run: "r1", at: at, .started(.bpInit(.default)))]
            + fed.map { FlowEvent(flow: .bpInit, run: "r1", at: at, .measurement($0)) }
            + [FlowEvent(flow: .bpInit, run: "r1", at: at, .readings(fed)),
               FlowEvent(flow: .bpInit, run: "r1", at: at, .finished(.bpInit(.failedAfterRetries(attemptCount: 1))))]
        for event in events { sink.emit(event) }
        #expect(sink.failure == nil)
        let stored = try AuditLog(store: store).runs().first?.readings.map { $0.recordJSON ?? "" } ?? []
        let measured = events.filter { $0.event == "measurement" }.map { JSONValue.object($0.payload.members).serialized }
        let collected = events.first { $0.event == "readings" }?["readings"]?.arrayValue?.map(\.serialized) ?? []
        #expect(stored.count == 2)
        #expect(stored == measured)
        #expect(stored == collected)
        #expect(stored.first == #"{"attempt":1,"index":1,"reading":{"systolic":121,"diastolic":79,"pulse":64,"meanArterialPressure":93,"measuredAt":"2026-11-18T11:06:40Z","isManualEntry":false,"cuff":{"id":"A"}},"braceletAccepted":true}"#)
    }

    @Test(arguments: Engine.allCases)
    func profilesAreReplacedButNeverOverwrittenByAnImport(engine: Engine) throws {
        let store = try Self.open(Self.freshLocation(engine))
        var profile = UserProfile(heightCm: 180, weightKg: 80, wrist: .left, gender: .male, unit: .metric,
                                  birthdate: "1980-01-01", skinTone: 3, hairDensity: .medium)
        let profiles = ProfileStore(store: store)
        try profiles.save(profile, serial: "SIM-1", at: Instant(secondsSinceEpoch: 1_795_000_000))
        profile.weightKg = 81
        try profiles.save(profile, serial: "SIM-1", at: Instant(secondsSinceEpoch: 1_795_000_060))
        #expect(try profiles.load(serial: "SIM-1") == profile)
        var other = profile
        other.weightKg = 99
        #expect(try store.profileSave(other, serial: "SIM-1", pushedAt: "2026-01-01T00:00:00Z", onlyIfAbsent: true) == false)
        #expect(try profiles.load(serial: "SIM-1") == profile)
        #expect(try store.profiles().map(\.pushedAt) == ["2026-11-18T11:07:40Z"])
        #expect(try profiles.load(serial: "SIM-2") == nil)
    }

    /// Multi-set calibrations: saved and read back alike on both engines, at most one
    /// open per bracelet, closed ones listed but never open.
    @Test(arguments: Engine.allCases)
    func calibrationsAreKeptAndOneIsOpenPerBracelet(engine: Engine) throws {
        let location = try Self.freshLocation(engine)
        let a = try Self.open(location), b = try Self.open(location)
        let t0 = Instant(secondsSinceEpoch: 1_795_000_000)
        var first = MultiSetCalibration(id: "run-1", serial: "S1", parameters: .corsano(), startedAt: t0, cuff: "AA:BB",
                                        sets: [CalibrationSetRecord(set: 1, run: "run-1", endedAt: t0, cuff: "AA:BB",
                                                                    readings: [CalibrationSetReading(systolic: 120, diastolic: 80, accepted: true)])])
        #expect(try a.calibrationOpen(serial: "S1") == nil)
        try a.calibrationSave(first)
        #expect(try b.calibrationOpen(serial: "S1") == first)
        let second = MultiSetCalibration(id: "run-2", serial: "S1", parameters: .corsano(), startedAt: t0)
        #expect(throws: StoreError.self) { try b.calibrationSave(second) }
        first.status = .abandoned
        try a.calibrationSave(first)
        #expect(try b.calibrationOpen(serial: "S1") == nil)
        try b.calibrationSave(second)
        #expect(try a.calibrations(openOnly: true).map(\.id) == ["run-2"])
        #expect(try a.calibrations(openOnly: false).map(\.id) == ["run-1", "run-2"])
    }

    /// `state migrate` carries calibrations over, once.
    @Test(arguments: Engine.allCases)
    func stateMigrateCopiesCalibrations(engine: Engine) throws {
        let source = try Self.open(try Self.freshLocation(.sqlite))
        let target = try Self.open(try Self.freshLocation(engine))
        let t0 = Instant(secondsSinceEpoch: 1_795_000_000)
        let open = MultiSetCalibration(id: "run-1", serial: "S1", parameters: .corsano(), startedAt: t0,
                                       sets: [CalibrationSetRecord(set: 1, run: "run-1", endedAt: t0, cuff: nil, readings: [])])
        try source.calibrationSave(open)
        let first = try StoreMigration.copy(from: source, to: target)
        #expect((first.calibrations, first.calibrationsNew) == (1, 1))
        #expect(try target.calibrationOpen(serial: "S1") == open)
        let second = try StoreMigration.copy(from: source, to: target)
        #expect((second.calibrations, second.calibrationsNew) == (1, 0))
    }
}
