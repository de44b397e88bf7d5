import Foundation

extension FHIRRunInput {
    /// The export input for one audit-log run: its stored readings parsed back, a MAP kept only
    /// when the audit log says the cuff reported it (a derived MAP is never exported as measured).
    /// Readings' source is the cuff's Bluetooth address when the reading names one, else the run.
    /// `planRestored`: the record that the run was killed and its plan restored (its Procedure is
    /// then `stopped`, issue 26). - Throws: `FHIRExportError.unreadableAudit` when a stored time or
    /// reading cannot be read.
    public init(audit run: AuditRun, planRestored: PlanRestoreRecord? = nil) throws {
        guard let started = RFC3339.parseInstant(run.startedAt) else {
            throw FHIRExportError.unreadableAudit(run: run.run, field: "startedAt", value: run.startedAt)
        }
        var ended: Instant?
        if let text = run.endedAt {
            guard let instant = RFC3339.parseInstant(text) else {
                throw FHIRExportError.unreadableAudit(run: run.run, field: "endedAt", value: text)
            }
            ended = instant
        }
        let readings = try run.readings.map { fed -> FHIRReadingInput in
            guard case .success(.reading(var reading)) = ReadingLineParser.parse(fed.readingJSON) else {
                throw FHIRExportError.unreadableAudit(run: run.run, field: "reading \(fed.attempt).\(fed.index)", value: fed.readingJSON)
            }
            if fed.mapReported != true { reading.meanArterialPressure = nil }
            reading.isManualEntry = fed.manual
            let address = FHIRReadingInput.bluetoothAddress(in: reading)
            return FHIRReadingInput(reading: reading, source: address ?? "run:\(run.run)", cuffAddress: address,
                                    fed: .init(run: run.run, attempt: fed.attempt, index: fed.index))
        }
        var resultKind: String?
        if let result = run.resultJSON {
            guard let kind = run.resultKind else {
                throw FHIRExportError.unreadableAudit(run: run.run, field: "result", value: result)
            }
            resultKind = kind
        }
        self.init(run: run.run, flow: run.flow, bracelet: run.bracelet, startedAt: started, endedAt: ended,
                  resultKind: resultKind, gateway: run.gateway, readingsFed: readings)
        if resultKind == nil, let planRestored {
            killedPlanRestored = (plan: planRestored.previousPlan, at: planRestored.at)
        }
    }
}

/// What stops an export.
public enum FHIRExportError: Error, Equatable, CustomStringConvertible {
    /// A stored audit value that cannot be read back (a damaged store): never guessed at.
    case unreadableAudit(run: String, field: String, value: String)

    public var description: String {
        switch self {
        case let .unreadableAudit(run, field, value):
            return "audit log: run \(run): \(field) cannot be read: \(value.prefix(80))"
        }
    }
}
