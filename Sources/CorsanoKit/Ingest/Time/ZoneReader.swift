import Foundation

/// Reads naive wall-clock stamps in a named zone (`Europe/Berlin`, `UTC`) or at a fixed UTC
/// offset, with the zone's rules from Foundation's `TimeZone` (the system tz database).
///
/// A wall time can name no instant (a DST gap: the spring-forward hour never happened) or two
/// (a fold: the fall-back hour happened twice). `resolve` says which; callers reject a gap
/// naming the zone's transition and take the earlier instant of a fold, saying so — never a
/// silent shift ("Time"; the one place this rule is implemented).
public struct ZoneReader: Sendable {
    /// The zone's rules.
    public let zone: TimeZone
    /// The zone's name, as printed in the time-basis note.
    public let identifier: String

    /// Creates a reader over `zone`, named by its identifier.
    public init(zone: TimeZone) { self.init(zone: zone, named: zone.identifier) }

    private init(zone: TimeZone, named name: String) {
        self.zone = zone
        identifier = name
    }

    /// Creates a reader over a tz database name; nil when the name is unknown. `UTC` and `Z`
    /// name UTC, and are named `UTC` (Foundation on Linux calls every zero-offset zone `GMT`).
    public init?(identifier: String) {
        let name = identifier.hasPrefix(":") ? String(identifier.dropFirst()) : identifier
        if name == "Z" || name == "UTC" { self.init(zone: TimeZone(secondsFromGMT: 0)!, named: "UTC"); return }
        guard !name.isEmpty, let zone = TimeZone(identifier: name) else { return nil }
        self.init(zone: zone)
    }

    /// Creates a reader from a POSIX TZ value without daylight-saving rules (`UTC0`, `EST5`,
    /// `<+03>-3`, `<-0530>+5:30`): a name (3 or more letters, or anything in `<…>`) and an offset
    /// *west* of UTC as `[+-]hh[:mm[:ss]]` (POSIX, "TZ"; 0 to 24 hours). nil for anything else,
    /// rules included (`CET-1CEST,M3.5.0,M10.5.0/3`): a zone with rules is read by its tz
    /// database name, never guessed from a rule string.
    public init?(posixTZ value: String) {
        var rest = Substring(value)
        if rest.first == "<" {
            guard let close = rest.firstIndex(of: ">"), rest.distance(from: rest.startIndex, to: close) >= 4 else { return nil }
            rest = rest[rest.index(after: close)...]
        } else {
            let name = rest.prefix { $0.isASCII && $0.isLetter }
            guard name.count >= 3 else { return nil }
            rest = rest.dropFirst(name.count)
        }
        var sign = 1
        if let first = rest.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            rest = rest.dropFirst()
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count),
              parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        let numbers = parts.compactMap { Int($0) }
        guard numbers.count == parts.count, numbers[0] <= 24, numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let west = numbers[0] * 3600 + (numbers.count > 1 ? numbers[1] * 60 : 0) + (numbers.count > 2 ? numbers[2] : 0)
        guard west <= 18 * 3600, let zone = TimeZone(secondsFromGMT: -sign * west) else { return nil }
        self.init(zone: zone, named: value)
    }

    /// Creates a reader at a fixed offset east of UTC, in seconds (at most 18 hours).
    public init?(offsetSeconds: Int) {
        guard let zone = TimeZone(secondsFromGMT: offsetSeconds) else { return nil }
        self.init(zone: zone)
    }

    /// What a wall-clock stamp names in a zone.
    public enum Resolution: Equatable, Sendable {
        /// Exactly one instant.
        case unique(Instant)
        /// No instant: the stamp falls in the hour skipped when the offset changed from
        /// `offsetBefore` to `offsetAfter` (seconds east of UTC).
        case gap(offsetBefore: Int, offsetAfter: Int)
        /// Two instants: the stamp happened at `earlier` (offset `earlierOffset`) and again at
        /// `later` (offset `laterOffset`).
        case fold(earlier: Instant, later: Instant, earlierOffset: Int, laterOffset: Int)
    }

    /// The instant (or instants) the wall-clock `stamp` names in this zone.
    public func resolve(_ stamp: NaiveDateTime) -> Resolution {
        let local = stamp.secondsSinceEpoch
        let before = offset(at: local - 86_400), after = offset(at: local + 86_400)
        var candidates = [local - before, local - after].filter { offset(at: $0) == local - $0 }
        if candidates.count == 2, candidates[0] == candidates[1] { candidates.removeLast() }
        candidates.sort()
        switch candidates.count {
        case 1: return .unique(Instant(secondsSinceEpoch: candidates[0]))
        case 0: return .gap(offsetBefore: Int(before), offsetAfter: Int(after))
        default:
            return .fold(earlier: Instant(secondsSinceEpoch: candidates[0]), later: Instant(secondsSinceEpoch: candidates[1]),
                         earlierOffset: Int(local - candidates[0]), laterOffset: Int(local - candidates[1]))
        }
    }

    /// The instant the wall-clock `stamp` names: in a gap the offset in force before it, in a
    /// fold the earlier one. Callers that must report those cases use `resolve`.
    public func instant(for stamp: NaiveDateTime) -> Instant {
        switch resolve(stamp) {
        case .unique(let t): return t
        case .fold(let earlier, _, _, _): return earlier
        case .gap(let before, _): return Instant(secondsSinceEpoch: stamp.secondsSinceEpoch - Int64(before))
        }
    }

    /// The instant of `stamp`, or why it has none: a gap is an error naming the transition, a
    /// fold takes the earlier instant with a note. `field` names the stamp in messages.
    public func reading(_ stamp: NaiveDateTime, field: String) -> Result<(Instant, note: String?), IngestIssue> {
        switch resolve(stamp) {
        case .unique(let t): return .success((t, nil))
        case .gap(let before, let after):
            return .failure(IngestIssue("\(field): \(stamp) does not exist in \(identifier) (the clocks went from \(Self.describe(offset: before)) to \(Self.describe(offset: after)) around then); give the time with its offset"))
        case .fold(let earlier, _, let e, let l):
            return .success((earlier, "\(field): \(stamp) happened twice in \(identifier) (\(Self.describe(offset: e)), then \(Self.describe(offset: l))); the earlier, \(Self.describe(offset: e)), was taken"))
        }
    }

    /// `UTC+02:00`, `UTC-05:30`.
    public static func describe(offset: Int) -> String {
        let sign = offset < 0 ? "-" : "+"
        let m = abs(offset) / 60
        return "UTC" + sign + (m / 60 < 10 ? "0" : "") + "\(m / 60):" + (m % 60 < 10 ? "0" : "") + "\(m % 60)"
    }

    /// The wall-clock time `instant` shows in this zone (whole seconds); nil outside years 1-9999.
    public func wallTime(of instant: Instant) -> NaiveDateTime? {
        NaiveDateTime(secondsSinceEpoch: instant.secondsSinceEpoch + offset(at: instant.secondsSinceEpoch))
    }

    func offset(at seconds: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
    }

    /// The offset in force over the whole UTC range [from, to], or nil when it changes inside.
    func constantOffset(from: Int64, to: Int64) -> Int64? {
        let start = Date(timeIntervalSince1970: TimeInterval(from))
        let o = offset(at: from)
        if let next = zone.nextDaylightSavingTimeTransition(after: start), next.timeIntervalSince1970 <= TimeInterval(to) {
            return nil
        }
        return offset(at: to) == o ? o : nil
    }
}
