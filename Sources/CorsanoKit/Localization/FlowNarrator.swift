/// Turns a flow's events (DESIGN "Events") into localized screens of text, in order.
///
/// Keeps the little state a screen needs that a single event does not carry: the effective
/// config from `started` (preparation on or off, attempt budget, position), which attempt and
/// measurement is next, the bracelet's verdict per measurement (for the summary's quality marks)
/// and the start time (for the duration on wearing optimization's success screen).
public struct FlowNarrator: Sendable {
    public let localizer: Localizer
    var includePreparation = true
    var position: String?
    var startedAt: Instant?
    var attemptsFinished = 0
    var measurementsThisAttempt = 0
    /// Verdicts by "attempt.index", from `measurement` events.
    var verdicts: [String: Bool] = [:]

    /// Creates a narrator for one run.
    public init(localizer: Localizer) { self.localizer = localizer }

    /// The blocks to show for `event`; empty for events with nothing to say to a person.
    public mutating func narrate(_ event: FlowEvent) -> [TextBlock] {
        let l = localizer
        switch event.event {
        case "started": return started(event)
        case "step": return step(event)
        case "measurement":
            measurementsThisAttempt += 1
            let reading = event["reading"] ?? .null
            if let attempt = event["attempt"]?.intValue, let index = event["index"]?.intValue,
               let accepted = event["braceletAccepted"]?.boolValue {
                verdicts["\(attempt).\(index)"] = accepted
            }
            var line = l[.measurementLine, reading["systolic"]?.displayText ?? "?",
                         reading["diastolic"]?.displayText ?? "?", reading["pulse"]?.displayText ?? "?"]
            if reading["isManualEntry"]?.boolValue == true { line += " " + l[.measurementTypedIn] }
            return [.text(line, tone: .plain)]
        case "attempt": return attempt(event)
        case "readings": return readings(event)
        case "finished":
            let result = event["result"] ?? .null
            let tone: TextTone = switch result["kind"]?.stringValue {
            case "success": .success
            case "cancelledByUser": .note
            default: .failure
            }
            return terminalBody(event, result) + [.text(l[.resultHeading, l.describe(result: result)], tone: tone)]
        case "cuffReadingDropped": return [.text(dropped(event), tone: .note)]
        case "progress":
            let percent = max(0, min(100, event["percent"]?.intValue ?? 0))
            return [.progress(percent: percent, detail: l[.progressLine, percent,
                    event["quality"]?.displayText ?? "?", event["motionLevel"]?.displayText ?? "?"])]
        case "profile": return profile(event)
        case "planRestored":
            let plan = event["previousPlan"]?.displayText ?? "?"
            let key: L10nKey = event["why"]?.stringValue == "journal" ? .planRestoredJournal : .planRestored
            return [.text(l[key, plan], tone: .note)]
        default: return []
        }
    }

    /// A value of the effective config, at the top level of `started` or inside its `config`.
    static func config(_ name: String, of event: FlowEvent) -> JSONValue? {
        event[name] ?? event["config"]?[name]
    }

    mutating func started(_ event: FlowEvent) -> [TextBlock] {
        startedAt = event.at
        includePreparation = Self.config("includePreparation", of: event)?.boolValue ?? true
        position = Self.config("position", of: event)?.stringValue
        var blocks: [TextBlock] = [.title(localizer[event.flow == "wearing-opt" ? .woTitle : .bpTitle])]
        if let budget = Self.config("maxAttempts", of: event)?.intValue {
            blocks.append(.text(localizer[.attemptsAvailable, count: budget], tone: .note))
        }
        return blocks
    }

    mutating func attempt(_ event: FlowEvent) -> [TextBlock] {
        attemptsFinished = max(attemptsFinished, event["attempt"]?.intValue ?? attemptsFinished + 1)
        measurementsThisAttempt = 0
        let n = event["attempt"]?.displayText ?? String(attemptsFinished)
        let succeeded = event["succeeded"]?.boolValue ?? false
        let tone: TextTone = succeeded ? .success : .failure
        if event.flow == "wearing-opt" {
            if succeeded { return [.text(localizer[.woAttemptSucceeded, n], tone: tone)] }
            return [.text(localizer[.woAttemptFailed, n, localizer.describe(reason: event["reason"] ?? .null)], tone: tone)]
        }
        return [.text(localizer[succeeded ? .bpAttemptAccepted : .bpAttemptRejected, n], tone: tone)]
    }

    func readings(_ event: FlowEvent) -> [TextBlock] {
        let items = event["readings"]?.arrayValue ?? []
        if items.isEmpty { return event.flow == "bp-init" ? [.text(localizer[.readingsNone], tone: .note)] : [] }
        let rows = items.map { item -> String in
            let attempt = item["attempt"]?.displayText ?? "?", index = item["index"]?.displayText ?? "?"
            var row = localizer[.bpMeasuringTitle, index, attempt] + ": " + localizer.short(reading: item)
            if let accepted = verdicts["\(attempt).\(index)"] {
                row += " (" + localizer[accepted ? .verdictAccepted : .verdictRejected] + ")"
            }
            return row
        }
        return [.text(localizer[.readingsHeading], tone: .plain), .list(rows, numbered: false)]
    }

    /// `profile`: pushed or skipped, and the preparation picker's values when the event has them.
    func profile(_ event: FlowEvent) -> [TextBlock] {
        let l = localizer
        let outcome = event["profile"]?.stringValue
        var blocks: [TextBlock] = [.text(l[outcome == "skipped" ? .profileSkipped : .profilePushed], tone: .note)]
        if let values = event["values"], let tone = values["skinTone"]?.displayText {
            let hair: L10nKey? = switch values["hairDensity"]?.stringValue {
            case "none": .hairDensityNone
            case "low": .hairDensityLow
            case "medium": .hairDensityMedium
            case "high": .hairDensityHigh
            default: nil
            }
            let wrist: L10nKey? = switch values["wrist"]?.stringValue {
            case "left": .wristLeft
            case "right": .wristRight
            default: nil
            }
            blocks.append(.text(l[.profileValues, tone, hair.map { l[$0] } ?? values["hairDensity"]?.displayText ?? "?",
                                  wrist.map { l[$0] } ?? values["wrist"]?.displayText ?? "?"], tone: .note))
        }
        return blocks
    }

    /// Wearing optimization's success screen shows quality, position and duration; its failure
    /// screen the last reason (seeds/wearing-optimization.txt, "Flow reference" 5 and 6).
    func terminalBody(_ event: FlowEvent, _ result: JSONValue) -> [TextBlock] {
        guard event.flow == "wearing-opt" else { return [] }
        switch result["kind"]?.stringValue {
        case "success":
            let seconds = startedAt.map { event.at.seconds(since: $0) } ?? 0
            return [.text(localizer[.woSuccessBody, result["spo2Quality"]?.displayText ?? "?",
                                    localizer.position(result["position"]?.stringValue ?? position),
                                    localizer.duration(seconds: seconds)], tone: .success)]
        case "failedAfterRetries":
            return [.text(localizer[.woFailureBody, localizer.describe(reason: result["lastReason"] ?? .null)], tone: .plain)]
        default:
            return []
        }
    }

    func dropped(_ event: FlowEvent) -> String {
        let what = event["reading"].map { localizer.short(reading: $0) }
            ?? String((event["line"]?.displayText ?? "").prefix(60))
        switch event["reason"]?.stringValue {
        case "replayed": return localizer[.droppedReplayed, what]
        case "duplicate": return localizer[.droppedDuplicate, what]
        case "unanchored": return localizer[.droppedUnanchored, what]
        case "incomplete": return localizer[.droppedIncomplete, what]
        case "invalid": return localizer[.droppedInvalid, what]
        case let other: return localizer[.droppedOther, other ?? "?", what]
        }
    }
}
