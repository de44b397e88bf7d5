#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The plan journal in the state store: which bracelets a run switched into the NIBP-calibration
/// plan, and the plan to give back. Written before the switch, cleared after the restore, so a
/// run killed with SIGKILL is repaired by the next command that reaches the bracelet.
///
/// One open entry per serial; opening keeps an older open entry (its previous plan is the true
/// one). Use it with no seen-set batch open on the same store: entries are committed at once.
/// Source: DESIGN "The bracelet port" (plan safety) and "State store".
public struct PlanJournal: Sendable {
    /// One open journal entry.
    public struct Entry: Equatable, Sendable {
        /// The bracelet's serial.
        public var serial: String
        /// The plan to restore.
        public var previousPlan: BraceletPlan
        /// The flow that switched (`bp-init`).
        public var flow: String
        /// The process that switched.
        public var pid: Int32
        /// When it switched, by that run's clock (UTC).
        public var openedAt: Instant

        /// Creates an entry.
        public init(serial: String, previousPlan: BraceletPlan, flow: String, pid: Int32, openedAt: Instant) {
            self.serial = serial
            self.previousPlan = previousPlan
            self.flow = flow
            self.pid = pid
            self.openedAt = openedAt
        }
    }

    /// The store holding the journal.
    public let store: StateStore

    /// A journal in `store`.
    public init(store: StateStore) { self.store = store }

    /// Records `entry` unless the bracelet already has an open one; returns the entry in effect.
    /// - Throws: `StoreError`.
    @discardableResult
    public func open(_ entry: Entry) throws -> Entry {
        try store.prepare("INSERT OR IGNORE INTO plan_journal (serial, previous_plan, flow, pid, opened_at) VALUES (?1, ?2, ?3, ?4, ?5)")
            .run([.text(entry.serial), .text(entry.previousPlan.name), .text(entry.flow), .int(Int64(entry.pid)),
                  .text(RFC3339.format(entry.openedAt))])
        return try self.entry(serial: entry.serial) ?? entry
    }

    /// The open entry of bracelet `serial`, if any. - Throws: `StoreError`.
    public func entry(serial: String) throws -> Entry? {
        try entries(where: "WHERE serial = ?1", [.text(serial)]).first
    }

    /// Every open entry, oldest serial first. - Throws: `StoreError`.
    public func openEntries() throws -> [Entry] { try entries(where: "ORDER BY serial", []) }

    /// Clears the entry of bracelet `serial` (after its plan was restored). - Throws: `StoreError`.
    public func close(serial: String) throws {
        try store.prepare("DELETE FROM plan_journal WHERE serial = ?1").run([.text(serial)])
    }

    private func entries(where clause: String, _ values: [StoreValue]) throws -> [Entry] {
        try store.prepare("SELECT serial, previous_plan, flow, pid, opened_at FROM plan_journal \(clause)").rows(values)
            .compactMap { row in
                guard row.count == 5, let serial = row[0].text, let plan = row[1].text, let flow = row[2].text,
                      let pid = row[3].int, let at = row[4].text.flatMap(RFC3339.parseInstant) else { return nil }
                return Entry(serial: serial, previousPlan: BraceletPlan(plan), flow: flow,
                             pid: Int32(truncatingIfNeeded: pid), openedAt: at)
            }
    }

    /// This process's id, for new entries.
    public static var currentProcessID: Int32 { getpid() }

    /// True when process `pid` still runs on this machine (signal 0 probes without signalling).
    public static func processIsAlive(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
