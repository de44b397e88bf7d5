extension BPInitializationFlow {
    /// Emits one bp-init event stamped with the run's clock.
    func emit(_ payload: FlowEventPayload) {
        var event = FlowEvent(flow: .bpInit, run: runID, at: clock.now(), payload)
        event.calibrationSet = multiSet.map { SetPosition(set: $0.calibration.nextSet, of: $0.calibration.parameters.sets) }
        sink.emit(event)
    }
}

/// A reading as it was fed to the bracelet, with its place in the run and the firmware's verdict.
public struct FedCuffReading: Equatable, Sendable {
    /// Calibration attempt, 1-based.
    public var attempt: Int
    /// Measurement within the attempt, 1-based.
    public var index: Int
    /// The reading as fed (MAP derived when the cuff reported none).
    public var reading: CuffReading
    /// The firmware's per-measurement verdict.
    public var braceletAccepted: Bool

    /// Creates a record.
    public init(attempt: Int, index: Int, reading: CuffReading, braceletAccepted: Bool) {
        self.attempt = attempt
        self.index = index
        self.reading = reading
        self.braceletAccepted = braceletAccepted
    }

    /// The fed-reading record, encoded once: `{"attempt":A,"index":I,"reading":{…as fed, MAP
    /// included},"braceletAccepted":B}`. It is the `measurement` event's payload, each element of
    /// the `readings` event, the audit log's stored record (`AuditReading.recordJSON`) and what
    /// `history` prints for the reading (docs/design.md "Events", "State store").
    public var json: JSONValue {
        Self.record(attempt: attempt, index: index, reading: reading.json(includeDerivedMAP: true), braceletAccepted: braceletAccepted)
    }

    /// The record's encoder on its parts (`json`; a row stored before the audit log kept the
    /// record is shown in the same shape from its columns, `AuditReading.record`).
    static func record(attempt: Int, index: Int, reading: JSONValue, braceletAccepted: Bool) -> JSONValue {
        .object([("attempt", .int(attempt)), ("index", .int(index)), ("reading", reading), ("braceletAccepted", .bool(braceletAccepted))])
    }
}

/// The mutable state of one run, owned by the run's task.
final class BPInitRunState: @unchecked Sendable {
    /// Every reading fed so far, in order.
    var fed: [FedCuffReading] = []
    /// The host rules with this run's seen-set.
    let screen: BPInitCuffScreen

    init(screen: BPInitCuffScreen) { self.screen = screen }
}
