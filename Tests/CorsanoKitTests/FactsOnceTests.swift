@testable import CorsanoKit
import Foundation
import Testing

/// Issue 24, "each fact once": the reported age of a stale reading (whole seconds truncated toward
/// zero, in bp-init and replay-filter alike), the wearing-optimization quality rule, the typed-reading
/// grammar, `BraceletIdentity`'s JSON.
@Suite struct ReportedAgeTests {
    typealias F = BPInitFixture

    @Test func wholeSecondsTruncateTowardZeroAndNeverTrap() {
        #expect(WholeSeconds.truncating(900.4) == 900)
        #expect(WholeSeconds.truncating(900.6) == 900)
        #expect(WholeSeconds.truncating(900) == 900)
        #expect(WholeSeconds.truncating(-900.6) == -900)
        #expect(WholeSeconds.truncating(-0.9) == 0)
        #expect(WholeSeconds.truncating(.infinity) == Int.max)
        #expect(WholeSeconds.truncating(-.infinity) == Int.min)
        #expect(WholeSeconds.truncating(1e300) == Int.max)
        #expect(WholeSeconds.truncating(.nan) == 0)
    }

    /// The same reading, `seconds` old at the flow's clock, through bp-init (its `staleReading`
    /// result) and through replay-filter's rules at the same instant: one reported age, which may
    /// equal the 900 s limit (the exact age is what is judged).
    @Test(arguments: [(900.4, 900), (900.6, 900), (1_000.99, 1_000), (-900.6, -900)])
    func bpInitAndTheReplayFilterReportTheSameAge(seconds: Double, reported: Int) async throws {
        let reading = CuffReading(systolic: 121, diastolic: 79, pulse: 64, measuredAt: F.start.adding(interval: -seconds))
        // A backdate allowance wider than the age, so that the age rule (not `replayed`) decides.
        let run = try await F.run(readings: [reading], config: BPInitializationConfig(backdateSeconds: 7_200))
        guard case .cuffError(.staleReading(let judged)) = run.result else { Issue.record("\(run.result)"); return }
        #expect(abs(judged - seconds) < 1e-6)
        #expect(run.events.last?["result"]?.serialized == #"{"kind":"cuffError","error":{"kind":"staleReading","age":\#(reported)}}"#)

        let decision = try ReplayFilter(rules: HostRules(), seen: InMemorySeenSet()).judge(reading, now: F.start)
        guard case .drop(let rule, let age?) = decision else { Issue.record("kept: \(decision)"); return }
        #expect(rule == (seconds < 0 ? .future : .stale))
        #expect(WholeSeconds.truncating(age) == reported)
    }

    @Test func exactlyTheLimitIsKept() throws {
        let reading = CuffReading(systolic: 121, diastolic: 79, pulse: 64, measuredAt: F.start.adding(interval: -900))
        #expect(try ReplayFilter(rules: HostRules(), seen: InMemorySeenSet()).judge(reading, now: F.start) == .keep)
    }
}

/// The seed's success rule (quality ≥ 50) is one named rule; the flow's verdict and the
/// simulator's firmware model both follow it.
@Suite struct WearingQualityRuleTests {
    static func status(quality: Int, isSuccess: Bool = true, worn: Bool = true) -> SpecialModeStatus {
        SpecialModeStatus(percent: 100, quality: quality, isSuccess: isSuccess, motionLevel: 0, finished: true, worn: worn,
                          gravity: GravityVector(x: 0, y: 0, z: -1))
    }

    @Test func fiftyIsTheSeedsThresholdAndExactlyFiftySucceeds() {
        #expect(WearingOptimizationConfig.minimumSuccessQuality == 50)
        #expect(WearingOptimizationConfig.isSuccessQuality(50))
        #expect(!WearingOptimizationConfig.isSuccessQuality(49))
        #expect(WearingOptimizationConfig.isSuccessful(Self.status(quality: 50)))
        #expect(!WearingOptimizationConfig.isSuccessful(Self.status(quality: 49)))
        #expect(!WearingOptimizationConfig.isSuccessful(Self.status(quality: 90, isSuccess: false)))
        // The flow's verdict: success at the threshold, `ppgSignalQualityTooLow` just below it.
        #expect(WearingOptimizationFlow.verdict(Self.status(quality: 50)) == .succeeded(quality: 50, position: .seated))
        #expect(WearingOptimizationFlow.verdict(Self.status(quality: 49)) == .failed(.ppgSignalQualityTooLow))
        #expect(WearingOptimizationFlow.verdict(Self.status(quality: 49, isSuccess: false)) == .failed(.ppgSignalQualityTooLow))
    }
}

/// `BraceletIdentity` has one JSON encoding (serial, model, firmware).
@Suite struct BraceletIdentityJSONTests {
    @Test func serialModelFirmwareInThatOrder() {
        #expect(BraceletIdentity(model: "287-2", firmware: "7.4", serial: "S-1").json.serialized
                == #"{"serial":"S-1","model":"287-2","firmware":"7.4"}"#)
    }
}

/// The typed-reading grammar with a time (`cuff add SYS/DIA PULSE at TIME`) is the core's.
@Suite struct TypedReadingGrammarTests {
    static let typed = Instant(secondsSinceEpoch: 1_800_000_000)

    @Test func withoutATimeItIsTheManualEntryGrammar() throws {
        for line in ["120/80 72", "120 / 80 72", "49/30 60", "120/80/72", "abc", "120/80", "80/120 70", "120/80 251"] {
            let timed = Result { () throws(ManualCuffEntry.Problem) in try ManualCuffEntry.parse(line, enteredAt: Self.typed, allowingTime: true) }
            let plain = Result { () throws(ManualCuffEntry.Problem) in try ManualCuffEntry.parse(line, enteredAt: Self.typed) }
            #expect(timed == plain, "\(line)")
        }
    }

    @Test func atTimeMakesACuffReadingMeasuredThen() throws {
        let reading = try ManualCuffEntry.parse("120/80 72 at 2026-11-29T10:00:00Z", enteredAt: Self.typed, allowingTime: true)
        #expect(reading == CuffReading(systolic: 120, diastolic: 80, pulse: 72, measuredAt: RFC3339.parseInstant("2026-11-29T10:00:00Z")))
        #expect(throws: ManualCuffEntry.Problem.badTime("noon")) {
            try ManualCuffEntry.parse("120/80 72 at noon", enteredAt: Self.typed, allowingTime: true)
        }
        #expect(throws: ManualCuffEntry.Problem.implausible(ValidationIssue(field: "pulse", message: "300 bpm outside 20-250"))) {
            try ManualCuffEntry.parse("120/80 300 at 2026-11-29T10:00:00Z", enteredAt: Self.typed, allowingTime: true)
        }
        // Without `allowingTime` (bp-init's prompt) `at` is not part of a reading.
        #expect(throws: ManualCuffEntry.Problem.notAReading("120/80 72 at 2026-11-29T10:00:00Z")) {
            try ManualCuffEntry.parse("120/80 72 at 2026-11-29T10:00:00Z", enteredAt: Self.typed)
        }
    }
}

/// Rows the audit log holds from before it kept the record stay readable.
@Suite struct FedReadingRecordMigrationTests {
    /// A SQLite store at schema 8 (before `record`) with one fed reading: after the migration
    /// the row has no stored record; it is shown in the record's shape from its columns, and the
    /// chain's canonical encoding of its run is what it was (no `record` member).
    @Test func aRowFromBeforeTheRecordIsShownInItsShape() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("state.sqlite3").path
        let reading = #"{"systolic":120,"diastolic":80,"pulse":70,"meanArterialPressure":93,"isManualEntry":true}"#
        do {
            let old = try SQLiteStore(path: path)
            try old.execute("""
                ALTER TABLE audit_reading DROP COLUMN record;
                DROP TABLE seen_digest;
                PRAGMA user_version = 8;
                INSERT INTO audit_run (run, flow, bracelet_serial, bracelet_model, bracelet_firmware, started_seconds, started_at, config)
                VALUES ('old', 'bp-init', 'SIM-1', '287-2', '7.4', 1795000000, '2026-11-18T11:06:40Z', '{}');
                INSERT INTO audit_reading (run, attempt, idx, accepted, manual, reading, map_reported)
                VALUES ('old', 1, 2, 1, 1, '\(reading)', 0);
                """)
        }
        let store = try SQLiteStore(path: path)
        let row = try #require(try AuditLog(store: store).runs().first?.readings.first)
        #expect(row.recordJSON == nil)
        #expect(row.record.serialized == #"{"attempt":1,"index":2,"reading":\#(reading),"braceletAccepted":true}"#)
        let run = try #require(try AuditLog(store: store).runs().first)
        #expect(!AuditChain.canonical(run).serialized.contains(#""record""#))
        var recorded = run
        recorded.readings[0].recordJSON = row.record.serialized
        #expect(AuditChain.canonical(recorded).serialized.contains(#""record""#))
    }
}

/// Flow names are said once (`FlowName`); the stores and scripts hold these spellings, so they are pinned.
@Suite struct FlowNameTests {
    @Test func theSpellingsStoresAndScriptsHold() {
        #expect(FlowName.allCases.map(\.rawValue) == ["bp-init", "wearing-opt", "profile-push", "nibp-read", "validate",
                                                      "bracelet-repair", "repl", "plan-restore", "signature"])
        #expect(AuditLog.planRestoreFlow == FlowName.planRestore.rawValue && AuditLog.signatureFlow == FlowName.signature.rawValue)
        #expect(PlanJournal.specialModeFlow == FlowName.wearingOpt.rawValue)
        #expect(FlowEvent(flow: .bpInit, run: "r", at: Instant(secondsSinceEpoch: 0), .planRestored(previousPlan: BraceletPlan("sleep"), why: .journal))
            .json.serialized.hasPrefix(#"{"event":"planRestored","flow":"bp-init","#))
    }
}
