/// What the host rules and the plausibility check read of a reading (seed "Replayed and stale
/// readings"): the key values and the stamps, nothing of provenance. `replay-filter` writes kept
/// lines byte for byte, so its hot path never needs more (and never builds a `CuffReading`).
struct ReadingEssentials: Equatable {
    /// Systolic, diastolic (mmHg), pulse (bpm; nil when absent).
    var systolic: Int, diastolic: Int, pulse: Int?
    /// measuredAt (UTC); nil when unstamped.
    var measuredAt: Instant?
    /// Whether a `deviceTime` stamp is present (only its presence matters: `unanchored`).
    var hasDeviceTime: Bool
    var isManualEntry: Bool

    init(systolic: Int, diastolic: Int, pulse: Int?, measuredAt: Instant?, hasDeviceTime: Bool, isManualEntry: Bool) {
        self.systolic = systolic
        self.diastolic = diastolic
        self.pulse = pulse
        self.measuredAt = measuredAt
        self.hasDeviceTime = hasDeviceTime
        self.isManualEntry = isManualEntry
    }

    init(_ reading: CuffReading) {
        self.init(systolic: reading.systolic, diastolic: reading.diastolic, pulse: reading.pulse,
                  measuredAt: reading.measuredAt, hasDeviceTime: reading.deviceTime != nil,
                  isManualEntry: reading.isManualEntry)
    }

    /// The seen-set key; nil for manual entries and unstamped readings (as `SeenKey.init?(_:)`).
    @inline(__always) var key: SeenKey? {
        guard !isManualEntry, let at = measuredAt else { return nil }
        return SeenKey(measuredAt: at, systolic: systolic, diastolic: diastolic, pulse: pulse)
    }
}

extension FastReadingScanner {
    /// The essentials of a line that `parse` reads as a reading, found without building it:
    /// unknown members are checked as `parse` checks them, never copied. Nil whenever `parse`
    /// would not answer `.reading` (a cuff-failure line, a rejected field, a shape for the full
    /// parser): the caller then takes the full path, which gives the verdict and the message.
    @inline(__always)
    static func essentials(_ b: UnsafeBufferPointer<UInt8>) -> ReadingEssentials? {
        var systolic: Int?, diastolic: Int?, pulse: Int?, measuredAt: Instant?
        var hasDeviceTime = false, isManualEntry = false
        var seen: UInt32 = 0
        let complete = scan(b) { key, value, _ in
            guard let known = ReadingFields.Known.match(key) else { return true }
            let bit = UInt32(1) << UInt32(known.rawValue)
            guard seen & bit == 0 else { return false }
            seen |= bit
            if case .null = value { return true }  // null = absent (ReadingFields.set)
            switch (known, value) {
            case (.systolic, .integer(let v)): systolic = v
            case (.diastolic, .integer(let v)): diastolic = v
            case (.pulse, .integer(let v)): pulse = v
            case (.meanArterialPressure, .integer): break
            case (.measuredAt, .string(let s)):
                guard let instant = RFC3339.parseInstant(s) else { return false }
                measuredAt = instant
            case (.deviceTime, .string(let s)):
                guard let (_, end) = RFC3339.parseNaivePrefix(s), end == s.count else { return false }
                hasDeviceTime = true
            case (.receivedAt, .string): break
            case (.isManualEntry, .bool(let v)): isManualEntry = v
            default: return false  // `error` (a cuff failure) or a rejected value
            }
            return true
        }
        guard complete, let systolic, let diastolic else { return nil }
        return ReadingEssentials(systolic: systolic, diastolic: diastolic, pulse: pulse, measuredAt: measuredAt,
                                 hasDeviceTime: hasDeviceTime, isManualEntry: isManualEntry)
    }
}
