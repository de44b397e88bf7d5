import Foundation

/// Turns a flow's events (docs/design.md "Events") into localized screens of text, in order.
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
    /// True once a `planRestoreFailed` came: the terminal screen then claims no restore.
    var planLeftSwitched = false
    /// The zone of the operator's clock, for "next set from HH:MM"; the command sets it
    /// (the core reads no environment); UTC by default.
    public var timeZone = TimeZone(secondsFromGMT: 0)!

    /// Creates a narrator for one run.
    public init(localizer: Localizer) { self.localizer = localizer }

    /// The blocks to show for `event`; empty for events with nothing to say to a person.
    public mutating func narrate(_ event: FlowEvent) -> [TextBlock] {
        let l = localizer
        switch event.payload {
        case .started(let config): return started(event, config)
        case .step(let step): return self.step(step)
        case .measurement(let fed):
            measurementsThisAttempt += 1
            verdicts["\(fed.attempt).\(fed.index)"] = fed.braceletAccepted
            let reading = fed.reading
            var line = l[.measurementLine, reading.systolic, reading.diastolic, reading.pulse.map(String.init) ?? "?"]
            if reading.isManualEntry { line += " " + l[.measurementTypedIn] }
            return [.text(line, tone: .plain)]
        case .attempt(let attempt, let succeeded, let reason):
            return self.attempt(event, attempt: attempt, succeeded: succeeded, reason: reason)
        case .readings(let fed): return readings(event, fed)
        case .finished(.bpInit(.setRecorded(let record, let of, let due))):
            // Where the operator is in a multi-set calibration: "set 2 of 3; next set from 11:42".
            return [.text(l[.resultSetRecorded, record.set, of, Self.clockTime(due, in: timeZone)], tone: .success)]
        case .finished(let result):
            let tone: TextTone = result.isSuccess ? .success : result.isCancelled ? .note : .failure
            return terminalBody(event, result) + [.text(l[.resultHeading, l.describe(result: result.json)], tone: tone)]
        case .cuffReadingDropped(let drop): return [.text(dropped(drop), tone: .note)]
        case .progress(let progress):
            let percent = max(0, min(100, progress.percent))
            return [.progress(percent: percent, detail: l[.progressLine, percent, progress.quality, progress.motionLevel])]
        case .profile(let profile): return self.profile(profile)
        case .planRestored(let plan, let why):
            return [.text(l[why == .journal ? .planRestoredJournal : .planRestored, plan.name], tone: .note)]
        case .planRestoreFailed:
            // Said on stderr by the command (bracelet, plan, repair command); here only the
            // terminal screen's claim that the plan is restored is withheld.
            planLeftSwitched = true
            return []
        }
    }

    /// `instant` as HH:MM on the wall clock of `zone` (24-hour, as every locale here reads it).
    static func clockTime(_ instant: Instant, in zone: TimeZone) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval(instant.secondsSinceEpoch))
        let local = instant.secondsSinceEpoch + Int64(zone.secondsFromGMT(for: date))
        let minutes = ((local % 86_400) + 86_400) % 86_400 / 60
        let hh = minutes / 60, mm = minutes % 60
        return (hh < 10 ? "0" : "") + String(hh) + ":" + (mm < 10 ? "0" : "") + String(mm)
    }

    mutating func started(_ event: FlowEvent, _ config: FlowConfig) -> [TextBlock] {
        startedAt = event.at
        includePreparation = config.includePreparation
        if case .wearingOpt(let c) = config { position = c.position.rawValue } else { position = nil }
        let title: L10nKey = if case .wearingOpt = config { .woTitle } else { .bpTitle }
        return [.title(localizer[title]), .text(localizer[.attemptsAvailable, count: config.maxAttempts], tone: .note)]
    }

    mutating func attempt(_ event: FlowEvent, attempt: Int, succeeded: Bool, reason: FailureReason?) -> [TextBlock] {
        attemptsFinished = max(attemptsFinished, attempt)
        measurementsThisAttempt = 0
        let tone: TextTone = succeeded ? .success : .failure
        if event.flow == .wearingOpt {
            if succeeded { return [.text(localizer[.woAttemptSucceeded, attempt], tone: tone)] }
            return [.text(localizer[.woAttemptFailed, attempt, localizer.describe(reason: reason?.json ?? .null)], tone: tone)]
        }
        return [.text(localizer[succeeded ? .bpAttemptAccepted : .bpAttemptRejected, attempt], tone: tone)]
    }

    func readings(_ event: FlowEvent, _ fed: [FedCuffReading]) -> [TextBlock] {
        if fed.isEmpty { return event.flow == .bpInit ? [.text(localizer[.readingsNone], tone: .note)] : [] }
        let rows = fed.map { item -> String in
            var row = localizer[.bpMeasuringTitle, item.index, item.attempt] + ": " + localizer.short(reading: item.reading.json())
            if let accepted = verdicts["\(item.attempt).\(item.index)"] {
                row += " (" + localizer[accepted ? .verdictAccepted : .verdictRejected] + ")"
            }
            return row
        }
        return [.text(localizer[.readingsHeading], tone: .plain), .list(rows, numbered: false)]
    }

    /// `profile`: pushed or skipped, and the preparation picker's values.
    func profile(_ event: ProfileEvent) -> [TextBlock] {
        let l = localizer
        let values = event.values
        let hair: L10nKey = switch values.hairDensity {
        case .none: .hairDensityNone
        case .low: .hairDensityLow
        case .medium: .hairDensityMedium
        case .high: .hairDensityHigh
        }
        let wrist: L10nKey = switch values.wrist {
        case .left: .wristLeft
        case .right: .wristRight
        }
        return [.text(l[event.outcome == .skipped ? .profileSkipped : .profilePushed], tone: .note),
                .text(l[.profileValues, values.skinTone, l[hair], l[wrist]], tone: .note)]
    }

    /// Wearing optimization's success screen shows quality, position and duration; its failure
    /// screen the last reason (seeds/wearing-optimization.txt, "Flow reference" 5 and 6).
    func terminalBody(_ event: FlowEvent, _ result: FlowResult) -> [TextBlock] {
        guard case .wearingOpt(let result) = result else { return [] }
        switch result {
        case .success(let quality, let seen):
            let seconds = startedAt.map { event.at.seconds(since: $0) } ?? 0
            return [.text(localizer[.woSuccessBody, quality, localizer.position(seen.rawValue),
                                    localizer.duration(seconds: seconds)], tone: .success)]
        case .failedAfterRetries(_, let reason):
            return [.text(localizer[.woFailureBody, localizer.describe(reason: reason.json)], tone: .plain)]
        case .cancelledByUser, .braceletDisconnected:
            return []
        }
    }

    func dropped(_ drop: DroppedCuffItem) -> String {
        let what: String
        switch drop.item {
        case .reading(let reading, _): what = localizer.short(reading: reading.json())
        case .line(let line, _): what = String(line.prefix(60))
        }
        switch drop.reason {
        case .replayed: return localizer[.droppedReplayed, what]
        case .duplicate: return localizer[.droppedDuplicate, what]
        case .unanchored: return localizer[.droppedUnanchored, what]
        case .incomplete: return localizer[.droppedIncomplete, what]
        case .invalid: return localizer[.droppedInvalid, what]
        case .flagged:
            guard case .reading(_, let flags?) = drop.item else { return localizer[.droppedOther, drop.reason.rawValue, what] }
            return localizer[.droppedOther, flags, what]
        }
    }
}
