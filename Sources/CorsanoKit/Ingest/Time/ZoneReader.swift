import Foundation

/// Reads naive wall-clock stamps in a named zone (`Europe/Berlin`, `UTC`), with the zone's
/// rules from Foundation's `TimeZone` (the system tz database).
///
/// In a DST gap (a spring-forward hour that never happened) the offset in force before the gap
/// is used, so `02:30` reads as `03:30` local; in an overlap (a fall-back hour that happened
/// twice) the earlier instant is chosen.
public struct ZoneReader: Sendable {
    /// The zone's rules.
    public let zone: TimeZone

    /// Creates a reader over `zone`.
    public init(zone: TimeZone) { self.zone = zone }

    /// Creates a reader over a tz database name; nil when the name is unknown. `UTC` and `Z`
    /// name UTC.
    public init?(identifier: String) {
        let name = identifier.hasPrefix(":") ? String(identifier.dropFirst()) : identifier
        if name == "Z" || name == "UTC" { self.init(zone: TimeZone(secondsFromGMT: 0)!); return }
        guard !name.isEmpty, let zone = TimeZone(identifier: name) else { return nil }
        self.init(zone: zone)
    }

    /// The zone's name, as printed in the time-basis note.
    public var identifier: String { zone.identifier }

    /// The instant the wall-clock `stamp` names in this zone.
    public func instant(for stamp: NaiveDateTime) -> Instant {
        let local = stamp.secondsSinceEpoch
        let before = offset(at: local - 86_400), after = offset(at: local + 86_400)
        let candidates = [local - before, local - after].filter { offset(at: $0) == local - $0 }
        let seconds = candidates.min() ?? local - before
        return Instant(secondsSinceEpoch: seconds)
    }

    private func offset(at seconds: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
    }
}
