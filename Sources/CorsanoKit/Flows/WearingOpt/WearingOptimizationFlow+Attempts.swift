/// The attempt loop: instructions, running (special mode 4 polled every 5 s), retry prompt.
extension WearingOptimizationFlow {
    /// What one attempt came to.
    enum AttemptOutcome: Equatable {
        case succeeded(quality: Int, position: BraceletPosition)
        case failed(FailureReason)
    }

    /// Runs attempts until success, a declined retry or the budget is spent.
    /// - Throws: `BraceletError` (disconnects), `CancellationError`, `FlowStop.declined`.
    func attempts() async throws -> WearingOptimizationResult {
        var position = config.position
        var attempt = 1
        while true {
            try await enter(FlowStep(.wearingOpt(.armedPreparing), attempt: attempt, position: position,
                                     instructions: position.instructionSteps))
            // The simulator points its accelerometer this way; a real bracelet ignores it.
            try await bracelet.announcePosition(position)
            guard try await interaction.confirmStart(attempt: attempt, position: position) else { throw FlowStop.declined }
            try await enter(FlowStep(.wearingOpt(.running), attempt: attempt))
            let outcome = try await runAttempt(attempt)
            switch outcome {
            case .succeeded(let quality, let seen):
                emit(.attempt(attempt: attempt, succeeded: true))
                await enterTerminal(FlowStep(.wearingOpt(.finalSuccess)))
                return .success(spo2Quality: quality, position: seen)
            case .failed(let reason):
                emit(.attempt(attempt: attempt, succeeded: false, reason: reason))
                guard attempt < config.maxAttempts else {
                    await enterTerminal(FlowStep(.wearingOpt(.finalFailure)))
                    return .failedAfterRetries(attemptCount: attempt, lastReason: reason)
                }
                try await enter(FlowStep(.wearingOpt(.retryPrompt), attempt: attempt, reason: reason))
                guard let next = try await interaction.retry(after: attempt, reason: reason, position: position) else {
                    throw FlowStop.declined
                }
                position = next
                attempt += 1
            }
        }
    }

    /// Enters a terminal screen. The result was decided when the attempt concluded, so a hold,
    /// disconnect or signal at this screen does not change it (as in bp-init; issue 18).
    func enterTerminal(_ step: FlowStep) async {
        try? await enter(step)
    }

    /// One attempt: start special mode 4, poll until a verdict, stop special mode on every way out.
    /// - Throws: `BraceletError` that ends the flow (disconnect), `CancellationError`.
    func runAttempt(_ attempt: Int) async throws -> AttemptOutcome {
        do {
            try await bracelet.startSpecialMode(value: 4)
        } catch BraceletError.refused(let why) {
            return .failed(.unknown("special mode refused: \(why)"))
        }
        let outcome: AttemptOutcome
        do {
            outcome = try await poll(attempt, since: clock.now())
        } catch {
            await stopSpecialMode()
            throw error
        }
        await stopSpecialMode()
        return outcome
    }

    /// Polls status type 4 every `pollIntervalSeconds` until success, a finish without success,
    /// `missedPollLimit` missed polls in a row, or the finish bound (the last poll lands on it).
    func poll(_ attempt: Int, since start: Instant) async throws -> AttemptOutcome {
        var missed = 0
        while true {
            let elapsed = clock.now().seconds(since: start)
            guard elapsed < config.finishBoundSeconds else { return .failed(.bleTimeout) }
            try await clock.sleep(seconds: min(config.pollIntervalSeconds, config.finishBoundSeconds - elapsed))
            let status: SpecialModeStatus
            do {
                status = try await bracelet.specialModeStatus(type: 4)
            } catch BraceletError.timeout {
                missed += 1
                if missed >= config.missedPollLimit { return .failed(.bleTimeout) }
                continue
            } catch BraceletError.refused(let why) {
                return .failed(.unknown("status poll refused: \(why)"))
            }
            missed = 0
            emit(.progress(WearingProgress(attempt: attempt, percent: status.percent, quality: status.quality,
                                           motionLevel: status.motionLevel)))
            if let outcome = Self.verdict(status) { return outcome }
        }
    }

    /// The verdict of one poll, nil while the optimization is still running.
    ///
    /// Success is `WearingOptimizationConfig.isSuccessful` (isSuccess AND quality at least
    /// `minimumSuccessQuality`, seed "Result handling"); a finish without it fails: no skin
    /// contact → braceletNotWornCorrectly, else a quality below it → ppgSignalQualityTooLow, else
    /// unknown with what the bracelet said.
    static func verdict(_ status: SpecialModeStatus) -> AttemptOutcome? {
        if WearingOptimizationConfig.isSuccessful(status) {
            // The position the accelerometer shows at this poll, not the one announced: |z| the
            // largest component = seated (display up on a desk), else supine (`BraceletPosition`).
            return .succeeded(quality: status.quality, position: BraceletPosition(gravity: status.gravity))
        }
        guard status.finished else { return nil }
        if !status.worn { return .failed(.braceletNotWornCorrectly) }
        if !WearingOptimizationConfig.isSuccessQuality(status.quality) { return .failed(.ppgSignalQualityTooLow) }
        return .failed(.unknown("finished without isSuccess at quality \(status.quality)"))
    }

    /// Stops special mode even when the task is cancelled (an unstructured task does not inherit
    /// cancellation); a dropped link makes this a no-op.
    func stopSpecialMode() async {
        let bracelet = self.bracelet
        await Task { try? await bracelet.stopSpecialMode() }.value
    }
}
