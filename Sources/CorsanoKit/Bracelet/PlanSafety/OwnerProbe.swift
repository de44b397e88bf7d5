#if canImport(Glibc)
import Glibc
#endif

/// Whether a journal entry's owner on this machine still runs, judged by all of its tuple: a pid
/// alone is not an owner (the kernel reuses pids), so the start time (/proc/PID/stat field 22)
/// and the boot id are compared too. The reads are injected so tests can play pid
/// reuse and reboots without either happening.
/// Sources: proc(5); `ProcessIdentity` for the reads.
public struct OwnerProbe: Sendable {
    /// The current boot's id, if readable.
    public var bootID: @Sendable () -> String?
    /// The start time (stat field 22) of process `pid`; nil when no such process or unreadable.
    public var startTime: @Sendable (Int32) -> UInt64?
    /// Whether process `pid` exists.
    public var exists: @Sendable (Int32) -> Bool

    /// A probe from the three reads.
    public init(bootID: @escaping @Sendable () -> String?, startTime: @escaping @Sendable (Int32) -> UInt64?,
                exists: @escaping @Sendable (Int32) -> Bool) {
        self.bootID = bootID
        self.startTime = startTime
        self.exists = exists
    }

    /// This machine's /proc and `kill(pid, 0)`.
    public static let system = OwnerProbe(bootID: { ProcessIdentity.bootID() }, startTime: { ProcessIdentity.startTime(of: $0) },
                                            exists: { PlanJournal.processIsAlive($0) })

    /// What the probe says about an owner.
    public enum Liveness: Equatable, Sendable {
        /// Same boot, same pid, same start time: it still runs.
        case running
        /// Its pid is free, was reused by a later process, or the machine rebooted since.
        case gone
        /// Neither can be confirmed (the entry or /proc lacks a part); `why` says which.
        case unconfirmed(why: String)
    }

    /// Whether `owner` (a process on this machine) still runs. A different boot means the
    /// machine restarted since (the SQLite store is a local file): gone.
    public func liveness(of owner: PlanJournal.Owner) -> Liveness {
        let boot = bootID()
        if let recorded = owner.bootID, let boot, recorded != boot { return .gone }
        guard exists(owner.pid) else { return .gone }
        guard let recordedStart = owner.startTime else {
            return .unconfirmed(why: "pid \(owner.pid) runs, and the entry has no start time to tell it from a reused pid")
        }
        guard owner.bootID != nil, boot != nil else {
            return .unconfirmed(why: "pid \(owner.pid) runs, and the boot id cannot be compared")
        }
        guard let start = startTime(owner.pid) else {
            return .unconfirmed(why: "pid \(owner.pid) runs, and its start time cannot be read")
        }
        return start == recordedStart ? .running : .gone
    }
}
