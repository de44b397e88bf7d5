import CorsanoKit
import Foundation
import Testing

/// `history sign` of a killed run (docs/design.md "Audit chain"): it never ends, so "sign it when
/// it ends" (75) would have a script wait for ever. It is 66, saying why it will not end and which
/// finished runs of its bracelet can be signed instead; a run still going stays 75.
@Suite struct HistorySignKilledRunTests {
    static let key = "lab-key-0123456789abcdef0123456789abcdef"

    static func sign(_ state: String, _ keyFile: String, _ run: String) throws -> Corsano.Outcome {
        try Corsano.run(["history", "sign", "--state", state, "--audit-key", keyFile, "--run", run, "--name", "A", "--meaning", "review"])
    }

    @Test func aKilledRunNamesWhatCanBeSignedInstead() throws {
        let dir = try BPInitE2E.directory()
        let state = dir.appendingPathComponent("state.sqlite3").path
        let keyFile = try BPInitE2E.file(dir, "audit.key", Self.key)
        _ = chmod(keyFile, 0o600)
        let store = try SQLiteStore(path: state)
        let log = AuditLog(store: store, gateway: "ward-3", key: AuditKey(bytes: Array(Self.key.utf8)))
        let bracelet = BraceletIdentity(model: "287-2", firmware: "7.4", serial: "CS-KILLED")
        let t0 = Instant(secondsSinceEpoch: 1_800_000_000)
        try log.begin(run: "killed-1", flow: .bpInit, bracelet: bracelet, at: t0, config: .object([]))
        // Still the bracelet's last run: it may be running, so 75 as before.
        let running = try Self.sign(state, keyFile, "killed-1")
        #expect(running.status == 75, "\(running.stderr)")
        #expect(running.stderr.contains("run killed-1 has not ended; sign it when it ends"), "\(running.stderr)")

        // The next command restores its plan and calibrates the bracelet: killed-1 never ends.
        try log.begin(run: "next-2", flow: .bpInit, bracelet: bracelet, at: t0.adding(interval: 600), config: .object([]))
        _ = try log.recordPlanRestored(bracelet: bracelet, previousPlan: BraceletPlan("monitoring"), why: .journal, by: "next-2",
                                       at: t0.adding(interval: 601))
        try log.finish(run: "next-2", at: t0.adding(interval: 700), result: .object([("kind", .string("success")), ("measurementCount", .int(2))]))
        let killed = try Self.sign(state, keyFile, "killed-1")
        #expect(killed.status == 66, "\(killed.stderr)")
        #expect(killed.stderr.contains("run killed-1 was killed and never ends (its plan was restored at 2027-01-15T08:10:01Z)"),
                "\(killed.stderr)")
        #expect(killed.stderr.contains("sign a finished run of bracelet CS-KILLED instead: next-2"), "\(killed.stderr)")
        #expect(!killed.stderr.contains("when it ends"))
        // What it names can be signed.
        #expect(try Self.sign(state, keyFile, "next-2").status == 0)
    }
}
