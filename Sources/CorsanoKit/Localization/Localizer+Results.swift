extension Localizer {
    /// A flow's `result` object (docs/design.md "Events": `finished`) as one localized phrase.
    ///
    /// Handles both flows' cases as the SDK spells them; an unknown `kind` is named, never dropped.
    public func describe(result: JSONValue) -> String {
        let kind = result["kind"]?.stringValue ?? result.displayText
        switch kind {
        case "success":
            if let quality = result["spo2Quality"]?.intValue {
                return self[.resultWOSuccess, quality, position(result["position"]?.stringValue)]
            }
            return counted(.resultBPSuccess, result["measurementCount"])
        case "cancelledByUser": return self[.resultCancelled]
        case "braceletDisconnected": return self[.resultBraceletDisconnected]
        case "cuffError": return describe(cuffError: result["error"] ?? .null)
        case "failedAfterRetries":
            if let reason = result["lastReason"] {
                return counted(.resultWOFailedAfterRetries, result["attemptCount"], describe(reason: reason))
            }
            return counted(.resultBPFailedAfterRetries, result["attemptCount"])
        case "setRecorded" where result["set"]?.intValue != nil:
            // A multi-set calibration's set: in history, with the next set's time as stored.
            return self[.resultSetRecorded, result["set"]?.intValue ?? 0, result["of"]?.intValue ?? 0,
                        result["nextDueAt"]?.displayText ?? "?"]
        default: return self[.resultOther, kind]
        }
    }

    /// A `cuffError` result's `error` object (`noReading`, `cuffDisconnected`,
    /// `staleReading` with `age` in seconds, `unknown` with `message`).
    public func describe(cuffError error: JSONValue) -> String {
        switch error["kind"]?.stringValue ?? error.displayText {
        case "noReading": return self[.resultCuffNoReading]
        case "cuffDisconnected": return self[.resultCuffDisconnected]
        case "staleReading":
            let age = error["age"]?.doubleValue ?? 0
            return age < 0 ? self[.resultCuffFuture, duration(seconds: -age)]
                           : self[.resultCuffStale, duration(seconds: age)]
        default:
            return self[.resultCuffUnknown, error["message"]?.displayText ?? error.displayText]
        }
    }

    /// A wearing-optimization failure reason, given as `{"kind": ...}` or as the bare kind.
    public func describe(reason: JSONValue) -> String {
        switch reason["kind"]?.stringValue ?? reason.stringValue ?? "" {
        case "ppgSignalQualityTooLow": return self[.reasonSignalQualityTooLow]
        case "braceletNotWornCorrectly": return self[.reasonNotWornCorrectly]
        case "bleTimeout": return self[.reasonBleTimeout]
        default: return self[.reasonUnknown, reason["message"]?.displayText ?? reason["kind"]?.displayText ?? reason.displayText]
        }
    }

    /// `seated` / `supine` in this locale; other values as given.
    public func position(_ raw: String?) -> String {
        switch raw {
        case "supine": return self[.positionSupine]
        case "seated", nil: return self[.positionSeated]
        case let other?: return other
        }
    }

    /// A length of time in the largest unit that still reads as a count of at least 2
    /// (119 s, 2 min … 119 min, 2 h … 47 h, 2 days …), rounded down; sign ignored.
    public func duration(seconds: Double) -> String {
        let s = seconds.isFinite ? min(abs(seconds), 9e15).rounded(.down) : 0
        if s < 120 { return self[.durationSeconds, count: Int(s)] }
        if s < 7_200 { return self[.durationMinutes, count: Int(s / 60)] }
        if s < 172_800 { return self[.durationHours, count: Int(s / 3_600)] }
        return self[.durationDays, count: Int(s / 86_400)]
    }

    /// A reading object (`systolic`, `diastolic`, `pulse`) as `121/79 mmHg, pulse 64 bpm`.
    public func short(reading: JSONValue) -> String {
        let sys = reading["systolic"]?.displayText ?? "?"
        let dia = reading["diastolic"]?.displayText ?? "?"
        if let pulse = reading["pulse"]?.displayText { return self[.readingShort, sys, dia, pulse] }
        return self[.readingShortNoPulse, sys, dia]
    }

    /// The steps shown for a retry in `position` (seeds/wearing-optimization.txt, "Retry prompt":
    /// supine has 2 steps, seated 3 with the hand flat on the desk).
    public func positionSteps(_ raw: String?) -> [String] {
        raw == "supine" ? [self[.supineStep1], self[.supineStep2]]
                        : [self[.seatedStep1], self[.seatedStep2], self[.seatedStep3]]
    }
}
