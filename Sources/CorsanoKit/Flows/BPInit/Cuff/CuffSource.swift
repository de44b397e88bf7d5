import Synchronization

/// Where a calibration gets its cuff readings: stdin, a file, a command, typed entries, a test.
///
/// The seed's `cuffProvider`, split into items: the flow asks once per item for the current
/// measurement request, applies the host rules to each reading, and asks again after a drop
/// ("Drop the reading and keep waiting", seed "Replayed and stale readings", rule 2).
public protocol CuffSource: Sendable {
    /// The next item the cuff yields for `request`; successive calls with the same request
    /// continue the same wait. - Throws: `CancellationError` when the run is cancelled.
    func next(for request: CuffRequest) async throws -> CuffItem
}

/// One measurement request of the flow: which measurement, and when it was requested.
public struct CuffRequest: Equatable, Sendable {
    /// Calibration attempt, 1-based.
    public var attempt: Int
    /// Measurement within the attempt, 1-based.
    public var index: Int
    /// When the flow asked, on the run's clock (host rule 2's reference time).
    public var requestedAt: Instant

    /// Creates a request.
    public init(attempt: Int, index: Int, requestedAt: Instant) {
        self.attempt = attempt
        self.index = index
        self.requestedAt = requestedAt
    }
}

/// What a cuff source yields for a request.
public enum CuffItem: Equatable, Sendable {
    /// A reading, before the host rules.
    case reading(CuffReading)
    /// Input that is not a reading (dropped as `invalid`, the wait goes on): the line's text
    /// and why, naming the field (e.g. `line 3: systolic: not an integer`).
    case invalid(line: String, problem: String)
    /// The cuff failed; `noReading` also for end of input, timeout or a failed command. Ends the flow.
    case failed(CuffError)
}

/// A source that yields a fixed list of items in order, then `noReading` (tests, `cuff add`).
public final class ScriptedCuffSource: CuffSource {
    private let items: Mutex<[CuffItem]>

    /// Creates a source that yields `items`, then `.failed(.noReading)` for ever.
    public init(_ items: [CuffItem]) { self.items = Mutex(items) }

    /// Creates a source that yields `readings`, then `noReading`.
    public convenience init(readings: [CuffReading]) { self.init(readings.map(CuffItem.reading)) }

    public func next(for request: CuffRequest) async throws -> CuffItem {
        try Task.checkCancellation()
        return items.withLock { $0.isEmpty ? .failed(.noReading) : $0.removeFirst() }
    }
}
