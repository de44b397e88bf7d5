/// The parameters of a multi-set NIBP calibration: Corsano's own procedure for the
/// 287-2 bracelet, "three sets of measurements, with at least one hour between each set. Each set
/// consists of three cuff measurements" (Corsano's Android developer guide, NIBP), or its general
/// form (`bp-init --protocol sets --sets N`).
///
/// The seed's single session (seeds/bp-initialization.txt, "The two-measurement rule") is not one
/// of these: it keeps `BPInitializationConfig` alone. Source: docs/design.md "Multi-set calibration".
public struct MultiSetProtocol: Equatable, Sendable {
    /// Which protocol was asked for: `corsano` (fixed 3 × 3, 1 h) or `sets` (the general form).
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        case corsano, sets
    }

    public var kind: Kind
    /// Sets in the calibration (2-10).
    public var sets: Int
    /// Cuff readings per set (1-10; Corsano's: 3). No third-measurement rule: a set always has them all.
    public var readingsPerSet: Int
    /// The least time from the end of one set to the start of the next, seconds (Corsano's: 1 h).
    public var intervalSeconds: Double
    /// How late past its due time the next set may start before the calibration expires, seconds
    /// (default 24 h; corsano's own choice, documented in corsano-bp-init(1)).
    public var maxGapSeconds: Double

    /// The sets a calibration may have (`--sets`).
    public static let setCountRange = 2...10
    /// The readings a set may have (`--readings-per-set`).
    public static let readingsPerSetRange = 1...10
    /// Corsano's readings per set: 3.
    public static let defaultReadingsPerSet = 3
    /// Corsano's interval between sets: 1 h, seconds.
    public static let defaultIntervalSeconds: Double = 3600
    /// The default maximum lateness of a set before the calibration expires: 24 h, seconds.
    public static let defaultMaxGapSeconds: Double = 86_400

    /// Creates the parameters; counts are clamped into their ranges and times to at least 0 s.
    public init(kind: Kind, sets: Int, readingsPerSet: Int = defaultReadingsPerSet,
                intervalSeconds: Double = defaultIntervalSeconds, maxGapSeconds: Double = defaultMaxGapSeconds) {
        self.kind = kind
        self.sets = min(max(sets, Self.setCountRange.lowerBound), Self.setCountRange.upperBound)
        self.readingsPerSet = min(max(readingsPerSet, Self.readingsPerSetRange.lowerBound), Self.readingsPerSetRange.upperBound)
        self.intervalSeconds = intervalSeconds.isFinite ? max(0, intervalSeconds) : Self.defaultIntervalSeconds
        self.maxGapSeconds = maxGapSeconds.isFinite ? max(0, maxGapSeconds) : Self.defaultMaxGapSeconds
    }

    /// Corsano's procedure: 3 sets × 3 readings, 1 h apart, with `maxGapSeconds` of lateness allowed.
    public static func corsano(maxGapSeconds: Double = defaultMaxGapSeconds) -> MultiSetProtocol {
        MultiSetProtocol(kind: .corsano, sets: 3, maxGapSeconds: maxGapSeconds)
    }

    /// True when a calibration opened with `self` can take a set asked for with `other`: the same
    /// sets, readings and interval (the maximum gap is the calibration's own, from its first set).
    public func sameParameters(as other: MultiSetProtocol) -> Bool {
        sets == other.sets && readingsPerSet == other.readingsPerSet && intervalSeconds == other.intervalSeconds
    }

    /// The parameters as the `started` event's `protocol` object and the store's record.
    public var json: JSONValue {
        .object([("kind", .string(kind.rawValue)), ("sets", .int(sets)), ("readingsPerSet", .int(readingsPerSet)),
                 ("setInterval", .int(WholeSeconds.truncating(intervalSeconds))),
                 ("maxSetGap", .int(WholeSeconds.truncating(maxGapSeconds)))])
    }

    /// Reads `json` back; nil when a member is missing or out of range.
    public init?(json: JSONValue) {
        guard let kind = json["kind"]?.stringValue.flatMap(Kind.init(rawValue:)), let sets = json["sets"]?.intValue,
              let readings = json["readingsPerSet"]?.intValue, let interval = json["setInterval"]?.doubleValue,
              let gap = json["maxSetGap"]?.doubleValue, Self.setCountRange.contains(sets),
              Self.readingsPerSetRange.contains(readings) else { return nil }
        self.init(kind: kind, sets: sets, readingsPerSet: readings, intervalSeconds: interval, maxGapSeconds: gap)
    }
}
