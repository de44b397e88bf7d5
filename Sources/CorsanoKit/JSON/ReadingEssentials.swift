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
}

extension FastReadingScanner {
    /// The essentials of a line that `parse` reads as a reading, found without building it:
    /// one pass that reads each known field as the type it must have and checks unknown members
    /// as `parse` does, never copying them. Nil whenever `parse` would not answer `.reading` (a
    /// cuff-failure line, a rejected field, a shape for the full parser): the caller then takes
    /// the full path, which gives the verdict and the message.
    static func essentials(_ b: UnsafeBufferPointer<UInt8>) -> ReadingEssentials? {
        var dates = RFC3339DayCache()
        return essentials(b, dates: &dates)
    }

    /// `essentials(b)`, reading measuredAt through `dates` (a stream's consecutive stamps
    /// mostly share their date).
    static func essentials(_ b: UnsafeBufferPointer<UInt8>, dates: inout RFC3339DayCache) -> ReadingEssentials? {
        var systolic: Int?, diastolic: Int?, pulse: Int?, measuredAt: Instant?
        var hasDeviceTime = false, isManualEntry = false
        var seen: UInt32 = 0
        var i = 0
        skipSpace(b, &i)
        guard i < b.count, b[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        skipSpace(b, &i)
        while true {
            guard let key = string(b, &i) else { return nil }  // also `{}`: no systolic
            skipSpace(b, &i)
            guard i < b.count, b[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            skipSpace(b, &i)
            guard i < b.count else { return nil }
            if let known = ReadingFields.Known.match(key) {
                let bit = UInt32(1) << UInt32(known.rawValue)
                guard seen & bit == 0 else { return nil }
                seen |= bit
                if b[i] == UInt8(ascii: "n") {
                    guard literal(b, &i, "null") else { return nil }  // null = absent (ReadingFields.set)
                } else {
                    switch known {
                    case .systolic: guard let v = integer(b, &i) else { return nil }; systolic = v
                    case .diastolic: guard let v = integer(b, &i) else { return nil }; diastolic = v
                    case .pulse: guard let v = integer(b, &i) else { return nil }; pulse = v
                    case .meanArterialPressure: guard integer(b, &i) != nil else { return nil }
                    case .measuredAt:
                        guard let s = string(b, &i), let instant = dates.parseInstant(s) else { return nil }
                        measuredAt = instant
                    case .deviceTime:
                        guard let s = string(b, &i), let (_, end) = RFC3339.parseNaivePrefix(s), end == s.count
                        else { return nil }
                        hasDeviceTime = true
                    case .receivedAt: guard string(b, &i) != nil else { return nil }
                    case .isManualEntry:
                        if literal(b, &i, "true") { isManualEntry = true }
                        else if literal(b, &i, "false") { isManualEntry = false }
                        else { return nil }
                    case .error: return nil  // a cuff failure: the full path
                    }
                }
            } else {
                guard value(b, &i) != nil else { return nil }
            }
            guard let more = afterMember(b, &i) else { return nil }
            if !more { break }
        }
        skipSpace(b, &i)
        guard i == b.count, let systolic, let diastolic else { return nil }
        return ReadingEssentials(systolic: systolic, diastolic: diastolic, pulse: pulse, measuredAt: measuredAt,
                                 hasDeviceTime: hasDeviceTime, isManualEntry: isManualEntry)
    }
}
