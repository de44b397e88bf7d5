/// The clock a state store's time decisions are made on (docs/design.md "Multi-set calibration"):
/// whether a set is due or a calibration expired is decided by the store every gateway shares,
/// never by one gateway's clock. PostgreSQL's `now()` is that clock; a SQLite store lives on this
/// host, so the host's clock is its own. A gateway whose clock is further off the store's than the
/// allowed skew is refused before it reaches a bracelet: its wall-time stamps (audit log, typed
/// readings, a real-clock run's readings) would be wrong, and so would every judgement it made.
public enum StoreClock {
    /// The skew allowed between this host and the store's server (`--max-clock-skew`): 5 min,
    /// well above NTP's error and far below the 1 h between sets.
    public static let defaultMaxSkewSeconds: Double = 300

    /// The instant the store's time decisions are made at, having checked that `host` (this
    /// host's wall clock) is within `maxSkewSeconds` of it; `host` itself for a store whose clock
    /// is the host's (SQLite).
    /// - Throws: `ClockSkew` (74) naming both times; `StoreError` when the server cannot be asked.
    public static func checked(store: any StateStore, host: Instant, maxSkewSeconds: Double) throws -> Instant {
        guard let server = try store.clockNow() else { return host }
        guard abs(host.seconds(since: server)) <= maxSkewSeconds else {
            throw ClockSkew(location: store.location, host: host, server: server, maxSkewSeconds: maxSkewSeconds)
        }
        return server
    }
}

/// This host's clock is further off the state store's server than `--max-clock-skew` (exit 74):
/// the run is refused before the bracelet is reached, nothing written.
public struct ClockSkew: DiagnosticError, Equatable {
    /// The store, as `StateStore.location` says it (no password).
    public var location: String
    /// This host's wall clock when asked.
    public var host: Instant
    /// The server's `now()` when asked.
    public var server: Instant
    public var maxSkewSeconds: Double

    public var message: String {
        let off = host.seconds(since: server)
        return "state store \(location): this host's clock reads \(RFC3339.format(host)), the server's "
            + "\(RFC3339.format(server)) (\(WholeSeconds.truncating(abs(off))) s \(off > 0 ? "ahead" : "behind"), more than "
            + "--max-clock-skew \(WholeSeconds.truncating(maxSkewSeconds)) s): refused before the bracelet was reached, nothing "
            + "written; set this host's clock (NTP) and run again"
    }
}
