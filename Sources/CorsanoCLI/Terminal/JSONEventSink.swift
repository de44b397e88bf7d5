import CorsanoKit

/// Writes each event as one JSON line (docs/design.md "Data on the wire"), flushed at once so a
/// pipeline sees it as it happens. Never localized.
struct JSONEventSink: EventSink {
    let writer: any TextOutput

    func emit(_ event: FlowEvent) {
        writer.write(event.json.serialized + "\n")
        writer.flush()
    }
}
