/// The set of a multi-set calibration one run takes: the calibration as the store
/// held it before this set, this set's cuff, and the store that records the set.
public struct MultiSetRun: Sendable {
    /// The calibration before this set (its `nextSet` is this set).
    public var calibration: MultiSetCalibration
    /// The cuff this set's readings come from (MAC or serial), when the command knows it
    /// (`--cuff ble:MAC`); nil: taken from the readings' `cuff` field, else unknown.
    public var cuff: String?
    /// Where the set is recorded.
    public var store: any StateStore
    /// Records the calibration as this set leaves it: by default saved at once; a command with an
    /// audit log hands it to the run's finish record instead (`AuditLogSink.saveWithFinish`), so
    /// the row and the record commit in one transaction (docs/design.md "Audit chain").
    public var save: @Sendable (MultiSetCalibration) throws -> Void

    /// Creates the run of the next set of `calibration`.
    public init(calibration: MultiSetCalibration, cuff: String?, store: any StateStore) {
        self.calibration = calibration
        self.cuff = cuff
        self.store = store
        self.save = { [store] in try store.calibrationSave($0) }
    }
}

extension BPInitializationFlow {
    /// One set: its N readings requested, fed and judged by the host rules as a single session's
    /// (no third-measurement rule: a set always has its N readings), the firmware's verdict asked
    /// once after the last set, the plan restored, then the set recorded in the store. A set cut
    /// short throws or ends before it is recorded: it is not counted, the next invocation runs it
    /// again whole. Source: issue 32; docs/design.md "Multi-set calibration".
    /// - Throws: `BPInitFlowEnd` (a cuff error, or the cuff rule), `BraceletError`, `StoreError`, `CancellationError`.
    func runSet(_ run: MultiSetRun, _ state: BPInitRunState) async throws -> FlowResult {
        let calibration = run.calibration
        let set = calibration.nextSet
        let of = calibration.parameters.sets
        var taken: [CalibrationSetReading] = []
        var cuff = run.cuff
        for index in 1...calibration.parameters.readingsPerSet {
            try await enter(FlowStep(.bpInit(.measuring), attempt: set, index: index))
            var reading = try await acquireReading(CuffRequest(attempt: set, index: index, requestedAt: clock.now()), state)
            if reading.cuffID == nil, let known = run.cuff {
                // `--cuff ble:MAC`: the reading is that cuff's, and says so in the events and the audit log.
                reading.provenance.append(ProvenanceField(name: "cuff", rawJSON: JSONValue.string(known).serialized))
            }
            if let named = reading.cuffID {
                if let known = cuff, known.caseInsensitiveCompare(named) != .orderedSame {
                    throw BPInitFlowEnd(result: .cuffError(.unknown("reading \(index) of set \(set) names cuff \(named), not \(known)")))
                }
                cuff = named
            }
            // Decided before the reading is fed: a calibration against two cuffs is not one.
            if !multiSetCuffAllowed, let conflict = MultiSetPlanner.cuffConflict(calibration, cuff: cuff) {
                throw BPInitFlowEnd(result: .cuffError(.unknown(conflict)))
            }
            let accepted = try await bracelet.feedSetReading(reading, set: set, of: of, index: index)
            let fed = FedCuffReading(attempt: set, index: index, reading: reading, braceletAccepted: accepted)
            state.fed.append(fed)
            taken.append(CalibrationSetReading(systolic: reading.systolic, diastolic: reading.diastolic, accepted: accepted))
            emit(.measurement(fed))
            try await enter(FlowStep(.bpInit(.measurementRecorded), attempt: set, index: index))
        }
        var verdict: Bool?
        if set >= of {
            let succeeded = try await bracelet.setsVerdict(of: of)
            emit(.attempt(attempt: set, succeeded: succeeded))
            verdict = succeeded
        }
        await restorePlan()
        // A set whose plan could not be restored is not recorded: the repair comes first.
        if planGuard.restoreFailure != nil { throw BPInitFlowEnd(result: .braceletDisconnected) }
        var updated = calibration
        let record = CalibrationSetRecord(set: set, run: runID, endedAt: clock.now(), cuff: cuff, readings: taken)
        updated.sets.append(record)
        if updated.cuff == nil { updated.cuff = cuff }
        guard let verdict else {
            try run.save(updated)
            let due = updated.nextDueAt ?? clock.now()
            return .bpInit(.setRecorded(record, of: of, nextDueAt: due))
        }
        updated.status = verdict ? .completed : .failed
        updated.closedAt = clock.now()
        updated.closedBy = runID
        try run.save(updated)
        await enterTerminal(verdict ? .finalSuccess : .finalFailure)
        let total = updated.sets.reduce(0) { $0 + $1.readings.count }
        return .bpInitSets(verdict ? .success(measurementCount: total) : .failedAfterRetries(attemptCount: 1), sets: updated.sets)
    }
}

extension CuffReading {
    /// The reading's `cuff` field (the cuff's MAC or serial, issue 32), nil when absent or not a string.
    public var cuffID: String? {
        guard let field = provenance.first(where: { $0.name == "cuff" }),
              let value = try? JSONValue.parse(Array(field.rawJSON.utf8)), let text = value.stringValue, !text.isEmpty else { return nil }
        return text
    }
}
