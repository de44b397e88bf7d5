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

    /// One element of the `readings` event: `attempt`, `index`, the reading's own fields as fed
    /// (MAP included), then `braceletAccepted`.
    public var json: JSONValue {
        guard case .object(let fields) = reading.json(includeDerivedMAP: true) else { return .null }
        return .object([("attempt", .int(attempt)), ("index", .int(index))] + fields
                       + [("braceletAccepted", .bool(braceletAccepted))])
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
