/// Copies one state store into another (`corsano state migrate`): every seen-set scope, open
/// plan-journal entries, audit runs with their readings, stored profiles, multi-set calibrations.
///
/// Rows already in the target are kept as they are, so running it twice changes nothing and a
/// target that already holds other gateways' rows only gains the missing ones. Seen keys are
/// claimed through the target's own seen-set (batched, `ON CONFLICT DO NOTHING`), so a copy into
/// a live server never hands a key to two writers.
public enum StoreMigration {
    /// How many rows the source held, and how many of them the target did not have yet.
    public struct Counts: Equatable, Sendable {
        public var seenKeys = 0, seenKeysNew = 0
        public var journalEntries = 0, journalEntriesNew = 0
        public var auditRuns = 0, auditRunsNew = 0
        public var profiles = 0, profilesNew = 0
        /// Multi-set calibrations, open and closed.
        public var calibrations = 0, calibrationsNew = 0

        public init() {}

        /// `seen keys N (M new), journal entries …` for the closing line.
        public var summary: String {
            "seen keys \(seenKeys) (\(seenKeysNew) new), journal entries \(journalEntries) (\(journalEntriesNew) new), "
                + "audit runs \(auditRuns) (\(auditRunsNew) new), profiles \(profiles) (\(profilesNew) new)"
                + (calibrations > 0 ? ", calibrations \(calibrations) (\(calibrationsNew) new)" : "")
        }
    }

    /// Keys claimed per batch in the target.
    static let batchSize = 10_000

    /// Copies `source` into `target`. - Throws: `StoreError` of either store; rows copied before
    /// the failure stay (a rerun completes the copy).
    /// Audit runs are appended to the target's chain (`AuditChange.importRun`, keyed with `key`),
    /// then a `migrated` record holding the source chain's head and length; the command verifies
    /// both chains (`StateStore.auditVerify`).
    public static func copy(from source: any StateStore, to target: any StateStore, key: AuditKey? = nil) throws -> Counts {
        var counts = Counts()
        for scope in try source.seenScopes() {
            let keys = try source.seenKeys(scope: scope)
            let seen = try target.seenSet(scope: scope)
            var start = 0
            while start < keys.count {
                let batch = keys[start..<min(start + batchSize, keys.count)]
                var claimed = 0
                for key in batch where try seen.insert(key) { claimed += 1 }
                claimed -= try seen.commitPending().count
                counts.seenKeys += batch.count
                counts.seenKeysNew += claimed
                start += batchSize
            }
        }
        for entry in try source.journalEntries(serial: nil) {
            counts.journalEntries += 1
            // The lease carries over as what it had left (at least a second, so the target's
            // clock starts it afresh rather than reading it as run out mid-copy).
            let held = try target.journalEntries(serial: entry.serial).first != nil
            _ = try target.journalOpen(entry, leaseSeconds: max(entry.leaseRemaining ?? 0, 1))
            if !held { counts.journalEntriesNew += 1 }
        }
        for run in try source.auditRuns(AuditFilter()) {
            counts.auditRuns += 1
            if try target.auditAppend(.importRun(run), key: key) { counts.auditRunsNew += 1 }
        }
        // The source chain's head and length, so a head kept of the source verifies on the target
        // (`--expect`; docs/design.md "Audit chain"); once per source head, so a rerun adds nothing.
        if let head = try source.auditChainHead(),
           !(try target.auditChain().contains { AuditChain.migratedSource($0)?.head == head.hash }) {
            try target.auditAppend(.migrated(sourceHead: head.hash, sourceRecords: Int(head.seq)), key: key)
        }
        for stored in try source.profiles() {
            counts.profiles += 1
            if try target.profileSave(stored.profile, serial: stored.serial, pushedAt: stored.pushedAt, onlyIfAbsent: true) {
                counts.profilesNew += 1
            }
        }
        // A calibration the target holds (by id) is kept as it is; an open one of a bracelet the
        // target already calibrates in sets is refused by the target's index (fails closed, 74).
        let held = Set(try target.calibrations(openOnly: false).map(\.id))
        for calibration in try source.calibrations(openOnly: false) {
            counts.calibrations += 1
            guard !held.contains(calibration.id) else { continue }
            try target.calibrationSave(calibration)
            counts.calibrationsNew += 1
        }
        return counts
    }
}
