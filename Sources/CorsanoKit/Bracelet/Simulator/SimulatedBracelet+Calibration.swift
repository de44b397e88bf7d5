/// NIBP calibration and wearing optimization on the simulated firmware.
extension SimulatedBracelet {
    public func feedCalibrationReading(_ reading: CuffReading, attempt: Int, index: Int) async throws -> Bool {
        try link.check()
        guard state.plan == .nibpCalibration else {
            throw BraceletError.refused("not in the \(BraceletPlan.nibpCalibration) plan (plan is \(state.plan))")
        }
        if let fault = scenario.faults.disconnectAtMeasurement, (fault.attempt ?? 1) == attempt, fault.index == index {
            throw disconnect()
        }
        let verdict = scenario.nibp.script(attempt: attempt)?.verdict(index: index) ?? NIBPFirmwareModel.accepts(reading)
        let now = clock.now()
        session.withLock { s in
            s.verdicts[attempt, default: [:]][index] = verdict
            s.fed[attempt, default: []].append((reading, now))
        }
        return verdict
    }

    public func calibrationVerdict(attempt: Int) async throws -> Bool {
        try link.check()
        let (fed, readings) = session.withLock { ($0.verdicts[attempt] ?? [:], $0.fed[attempt] ?? []) }
        let verdict = scenario.nibp.script(attempt: attempt)?.session ?? (!fed.isEmpty && fed.values.allSatisfy { $0 })
        if verdict { state.calibrated = true }
        state.record(nibpModel.calibration(fed: readings, accepted: verdict, at: clock.now()))
        return verdict
    }

    /// A set's reading: judged as an attempt's (the scenario's script for attempt `set`, else the
    /// NIBP model), kept with the bracelet (`SimulatedBraceletState`), not the connection: the
    /// sets of one calibration come over several connections, hours apart.
    public func feedSetReading(_ reading: CuffReading, set: Int, of: Int, index: Int) async throws -> Bool {
        try link.check()
        guard state.plan == .nibpCalibration else {
            throw BraceletError.refused("not in the \(BraceletPlan.nibpCalibration) plan (plan is \(state.plan))")
        }
        if let fault = scenario.faults.disconnectAtMeasurement, (fault.attempt ?? 1) == set, fault.index == index {
            throw disconnect()
        }
        let verdict = scenario.nibp.script(attempt: set)?.verdict(index: index) ?? NIBPFirmwareModel.accepts(reading)
        state.recordSetVerdict(verdict, reading: reading, fedAt: clock.now(), set: set, of: of, index: index)
        return verdict
    }

    /// Accepts when every set 1...`of` has readings and all were accepted, unless the scenario's
    /// script for attempt `of` says otherwise (`session`). The verdict calibrates the NIBP model
    /// from every set's readings, as a single session's verdict does from its attempt's
    /// (`SimulatedNIBPModel.calibration`): after a multi-set calibration `readNIBP` and
    /// `measureNIBP` answer.
    public func setsVerdict(of: Int) async throws -> Bool {
        try link.check()
        let sets = state.setVerdicts(of: of)
        let complete = (1...max(1, of)).allSatisfy { !(sets[$0] ?? [:]).isEmpty }
        let verdict = scenario.nibp.script(attempt: of)?.session ?? (complete && sets.values.allSatisfy { $0.values.allSatisfy { $0 } })
        if verdict { state.calibrated = true }
        state.record(nibpModel.calibration(fed: state.setReadings(of: of), accepted: verdict, at: clock.now()))
        return verdict
    }

    public func startSpecialMode(value: Int) async throws {
        try link.check()
        guard value == 4 else { throw BraceletError.refused("special mode \(value) is not supported") }
        let now = clock.now()
        session.withLock { s in
            s.wearingAttempt += 1
            s.modeStartedAt = now
            s.pollCount = 0
        }
        state.specialMode = value
    }

    public func specialModeStatus(type: Int) async throws -> SpecialModeStatus {
        try link.check()
        guard type == 4 else { throw BraceletError.refused("special mode status type \(type) is not supported") }
        let now = clock.now()
        let profile = state.profile
        let faults = scenario.faults
        let outcome: Result<SpecialModeStatus, BraceletError> = session.withLock { s in
            guard let started = s.modeStartedAt else { return .failure(.refused("special mode is not running")) }
            s.pollCount += 1
            let (attempt, poll) = (s.wearingAttempt, s.pollCount)
            if let f = faults.disconnectAtPoll, (f.attempt ?? 1) == attempt, f.poll == poll { return .failure(.disconnected) }
            if let f = faults.pollTimeoutFrom, f.attempt.map({ $0 == attempt }) ?? true, poll >= f.poll { return .failure(.timeout) }
            let script = scenario.wearing.script(attempt: attempt)
            if let polls = script.polls, let last = polls.last {
                let entry = poll <= polls.count ? polls[poll - 1] : last
                if entry.timeout == true { return .failure(.timeout) }
                return .success(WearingFirmwareModel.status(entry, position: s.position))
            }
            return .success(WearingFirmwareModel.status(
                script.model ?? scenario.wearing.model, elapsed: now.seconds(since: started),
                position: s.position, profile: profile, rng: &s.rng))
        }
        switch outcome {
        case .success(let status): return status
        case .failure(.disconnected): throw disconnect()
        case .failure(let error): throw error
        }
    }

    public func stopSpecialMode() async throws {
        try link.check()
        session.withLock { $0.modeStartedAt = nil }
        state.specialMode = nil
    }
}
