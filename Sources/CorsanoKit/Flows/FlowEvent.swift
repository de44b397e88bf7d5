import Synchronization

/// One event line of a flow (DESIGN "Data on the wire: Events"): `event`, `flow`, `run`, `at`,
/// then the event's own fields in order.
///
/// `flow` is `bp-init`, `wearing-opt` or `profile-push`; `run` is an id per process run; `at`
/// comes from the run's clock (virtual time when the clock is virtual).
public struct FlowEvent: Equatable, Sendable {
    /// `started`, `step`, `measurement`, `attempt`, `readings`, `finished`, `cuffReadingDropped`,
    /// `progress`, `profile`, `planRestored`.
    public var event: String
    public var flow: String
    public var run: String
    public var at: Instant
    /// The event's own fields, in output order.
    public var fields: [(String, JSONValue)]

    /// Creates an event.
    public init(event: String, flow: String, run: String, at: Instant, fields: [(String, JSONValue)] = []) {
        self.event = event
        self.flow = flow
        self.run = run
        self.at = at
        self.fields = fields
    }

    /// The field called `name`, if present.
    public subscript(name: String) -> JSONValue? { fields.first { $0.0 == name }?.1 }

    /// The whole event as one JSON object, envelope first.
    public var json: JSONValue {
        .object([("event", .string(event)), ("flow", .string(flow)), ("run", .string(run)),
                 ("at", .string(RFC3339.format(at)))] + fields)
    }

    public static func == (lhs: FlowEvent, rhs: FlowEvent) -> Bool { lhs.json == rhs.json }
}

/// Where a flow's events go: JSON lines, localized text, a test recorder, the audit log.
public protocol EventSink: Sendable {
    /// Receives one event, in order. Must not block on the terminal for long.
    func emit(_ event: FlowEvent)
}

/// An event sink that keeps every event, for tests and for fan-out.
public final class EventRecorder: EventSink {
    private let stored = Mutex<[FlowEvent]>([])

    /// Creates an empty recorder.
    public init() {}

    public func emit(_ event: FlowEvent) { stored.withLock { $0.append(event) } }

    /// Every event received so far, in order.
    public var events: [FlowEvent] { stored.withLock { $0 } }

    /// The names of the events received so far.
    public var names: [String] { events.map(\.event) }
}

/// Sends each event to several sinks in order (e.g. stdout and the audit log).
public struct EventFanOut: EventSink {
    public let sinks: [any EventSink]
    /// Creates a fan-out.
    public init(_ sinks: [any EventSink]) { self.sinks = sinks }
    public func emit(_ event: FlowEvent) { for sink in sinks { sink.emit(event) } }
}
