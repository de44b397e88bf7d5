extension BPInitializationFlow {
    /// What one calibration attempt came to.
    struct AttemptOutcome {
        /// The firmware's verdict on the whole attempt.
        var accepted: Bool
        /// Measurements taken (2 or 3).
        var measurements: Int
    }

    /// One calibration attempt: 2 measurements, a 3rd only when the first two deviate by more
    /// than the threshold, then the firmware's verdict (seed "The two-measurement rule").
    /// - Throws: `BPInitFlowEnd` on a cuff error, `BraceletError`, `CancellationError`.
    func runAttempt(_ attempt: Int, _ state: BPInitRunState) async throws -> AttemptOutcome {
        var taken: [CuffReading] = []
        for index in 1...3 {
            if index == 3, !config.needsThirdMeasurement(taken[0], taken[1]) { break }
            try await enter(FlowStep(.bpInit(.measuring), attempt: attempt, index: index))
            let reading = try await acquireReading(CuffRequest(attempt: attempt, index: index, requestedAt: clock.now()), state)
            let accepted = try await bracelet.feedCalibrationReading(reading, attempt: attempt, index: index)
            let fed = FedCuffReading(attempt: attempt, index: index, reading: reading, braceletAccepted: accepted)
            state.fed.append(fed)
            taken.append(reading)
            // A rejected reading is reported exactly like an accepted one (seed step 4).
            emit(.measurement(fed))
            try await enter(FlowStep(.bpInit(.measurementRecorded), attempt: attempt, index: index))
        }
        let succeeded = try await bracelet.calibrationVerdict(attempt: attempt)
        emit(.attempt(attempt: attempt, succeeded: succeeded))
        return AttemptOutcome(accepted: succeeded, measurements: taken.count)
    }

    /// Asks the cuff until an item passes the host rules: drops are reported and the wait goes
    /// on; a cuff failure or a stale reading ends the flow. Accepting moves a virtual clock to
    /// the reading's stamp when later (docs/design.md "Time"), after its age was judged.
    /// - Throws: `BPInitFlowEnd`, `CancellationError`.
    func acquireReading(_ request: CuffRequest, _ state: BPInitRunState) async throws -> CuffReading {
        while true {
            switch try await cuff.next(for: request) {
            case .failed(let error):
                throw BPInitFlowEnd(result: .cuffError(error))
            case .invalid(let line, let problem):
                diagnostics.info(.flow, "dropped a cuff line that is no reading: \(problem)")
                emit(.cuffReadingDropped(DroppedCuffItem(.invalid, .line(line, problem: problem))))
            case .reading(let reading):
                if let issue = ReadingValidator.standard.validate(reading) {
                    // Implausible values (a decoding error, a unit mix-up) are never fed.
                    sayDropped(reading, "invalid", issue.reason)
                    emit(.cuffReadingDropped(DroppedCuffItem(.invalid, .reading(reading, problem: issue.reason))))
                    continue
                }
                if !config.feedFlagged, let flags = flagged(reading) {
                    // The cuff said its own measurement is doubtful: wait for a repeat.
                    sayDropped(reading, "flagged", "its status flags \(flags) (--feed-flagged feeds it)")
                    emit(.cuffReadingDropped(DroppedCuffItem(.flagged, .reading(reading, problem: flags))))
                    continue
                }
                guard reading.pulse != nil else {
                    // The SDK's CuffReading requires a pulse (docs/design.md "Data on the wire").
                    sayDropped(reading, "incomplete", "no pulse (the SDK's CuffReading requires one)")
                    emit(.cuffReadingDropped(DroppedCuffItem(.incomplete, .reading(reading, problem: nil))))
                    continue
                }
                switch state.screen.judge(reading, requestedAt: request.requestedAt, now: clock.now()) {
                case .drop(let reason):
                    sayDropped(reading, reason.rawValue, (DropReason(rawValue: reason.rawValue)?.rule ?? reason.rawValue) + "; " + HostRules(backdate: config.backdateSeconds,
                               maxReadingAge: config.maxReadingAge, requestedAt: request.requestedAt).described)
                    emit(.cuffReadingDropped(DroppedCuffItem(reason, .reading(reading, problem: nil))))
                case .stale(let age):
                    throw BPInitFlowEnd(result: .cuffError(.staleReading(age: age)))
                case .accept:
                    if !reading.isManualEntry, let stamp = reading.measuredAt { clock.advance(to: stamp) }
                    return reading
                }
            }
        }
    }

    /// The flags of `reading`'s `status`, comma-separated, or nil when it is clean or has none; a
    /// `status` that cannot be read counts as flagged (fails closed, naming what is wrong).
    private func flagged(_ reading: CuffReading) -> String? {
        do {
            let flags = try ReadingQuality(reading).flags
            return flags.isEmpty ? nil : flags.joined(separator: ",")
        } catch {
            return "\(error)"
        }
    }

    /// `-v`: a reading not fed, and why (the event says the same for a script; this says the rule).
    private func sayDropped(_ reading: CuffReading, _ word: String, _ why: String) {
        diagnostics.info(.flow, "dropped the reading measured at \(reading.measuredAt.map(RFC3339.format) ?? "(no time)"): "
                         + "\(word): \(why)")
    }
}
