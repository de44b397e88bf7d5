import CorsanoKit
import Foundation

/// Fixture stores for `history` tests that need runs on given days. The audit log records a run's
/// start and end on the wall clock, so a run made now with `--now 2026-09-01T…` is dated
/// today; this rewrites its row to the instants its own events carry (the run clock), as if it had
/// run then. Test setup only: corsano never changes a run's rows.
enum AuditFixture {
    /// Dates the run whose events are `lines` (a `--json` bp-init's stdout) in `state` by its
    /// `started` and `finished` events' `at`, and seals the audit chain again over the change.
    static func onRunClock(state: String, events lines: [String]) throws {
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        guard let started = events.first(where: { $0["event"] as? String == "started" }),
              let run = started["run"] as? String, let at = started["at"] as? String,
              let instant = RFC3339.parseInstant(at) else { return }
        let ended = events.last(where: { $0["event"] as? String == "finished" })?["at"] as? String
        let store = try SQLiteStore(path: state)
        let quote = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }
        try store.execute("UPDATE audit_run SET started_at = \(quote(at)), started_seconds = \(instant.secondsSinceEpoch), "
                          + "ended_at = \(ended.map(quote) ?? "ended_at") WHERE run = \(quote(run))")
        // Sealed again with the run's audit key (the test run's shared one), as a lab's own
        // correction would be: the chain holds, so history shows the run as verified.
        let keyText = try String(contentsOfFile: Corsano.sharedConfigHome + "/corsano/audit.key", encoding: .utf8)
        let key = AuditKey(bytes: Array(keyText.trimmingCharacters(in: .whitespacesAndNewlines).utf8))
        let last = try store.auditChain().last { $0.run == run }?.seq ?? 1
        try AuditForgeryTests.forge(state, shell: { try store.execute($0) }, run: run, sql: [], from: last, key: key) { _ in }
    }
}

extension String {
    /// This text without its `"enteredAt":"…"` members (the wall-clock instant a reading was typed
    /// differs on every run), so a reply can be compared whole; `hasEnteredAt` says one was there.
    var withoutEnteredAt: String { replacing(/,"enteredAt":"[0-9T:.Z-]+"/, with: "") }
    var hasEnteredAt: Bool { contains(/"enteredAt":"[0-9T:.Z-]+"/) }
}
