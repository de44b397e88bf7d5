import Foundation
import Synchronization

/// Cuff readings from JSON lines (`bp-init --cuff FILE|-`): reading lines as `cuff ingest`
/// writes them, and `{"error":...}` lines for a cuff that failed. End of input, or no item
/// within `timeout` of a request (real time, docs/design.md "Time"), is `noReading`.
///
/// A dedicated thread does the blocking reads, so a run waiting on a live pipe stays
/// cancellable; it reads ahead at most `capacity` items. Blank lines carry nothing and are
/// skipped; any other line that is not a reading is `.invalid`, named `NAME:LINE`.
public final class LineCuffSource: CuffSource {
    private let channel: Channel<CuffItem>
    private let wait: RequestWait
    private let name: String
    private let pending: Mutex<ByteSourceBox?>

    /// Creates a source reading `bytes` (named `name` in problems, e.g. the path or `-`).
    /// - Parameter timeout: the longest real-time wait for one measurement; nil waits for ever.
    public init(bytes: any ByteSource, name: String, timeout: Duration?, capacity: Int = 256) {
        channel = Channel<CuffItem>(capacity: capacity)
        wait = RequestWait(timeout: timeout)
        self.name = name
        pending = Mutex(ByteSourceBox(bytes))
    }

    public func next(for request: CuffRequest) async throws -> CuffItem {
        startReaderOnce()
        return try await wait.next(for: request, from: channel)
    }

    /// Starts the reader thread at the first request (a source built but never asked reads nothing).
    private func startReaderOnce() {
        guard let box = pending.withLock({ p -> ByteSourceBox? in
            defer { p = nil }
            return p
        }) else { return }
        let (channel, name) = (self.channel, self.name)
        let thread = Thread { Self.pump(box.source, name: name, into: channel) }
        thread.name = "cuff-reader"
        thread.start()
    }

    /// Reads every line into `channel`, then ends it.
    static func pump(_ bytes: any ByteSource, name: String, into channel: Channel<CuffItem>) {
        let reader = LineReader(source: bytes)
        do {
            while let item = try reader.next() {
                if let parsed = parse(item, name: name) { channel.send(parsed) }
            }
        } catch {
            channel.send(.failed(.unknown("\(name): read failed: \(error)")))
        }
        channel.finish()
    }

    /// The cuff items of a whole buffered output (a `--cuff-cmd` run), in line order.
    public static func items(in bytes: [UInt8], name: String) -> [CuffItem] {
        let reader = LineReader(source: MemoryByteSource(bytes))
        var items: [CuffItem] = []
        while let item = try? reader.next() {
            if let parsed = parse(item, name: name) { items.append(parsed) }
        }
        return items
    }

    /// The cuff item of one input line; nil for a blank line.
    static func parse(_ item: LineReader.Item, name: String) -> CuffItem? {
        switch item {
        case .tooLong(let number, let count):
            return .invalid(line: "", problem: "\(name):\(number): line of \(count) bytes is too long")
        case .line(let number, let bytes):
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
            switch ReadingLineParser.parse(bytes) {
            case .success(.reading(let reading)): return .reading(reading)
            case .success(.cuffFailure(let error)): return .failed(error)
            case .failure(let error):
                return .invalid(line: String(decoding: bytes, as: UTF8.self), problem: "\(name):\(number): \(error)")
            }
        }
    }
}

/// One wait per measurement request: successive asks for the same request share its deadline
/// (`timeout` from the first ask, real time); end of input or the deadline is `noReading`.
final class RequestWait: Sendable {
    private let timeout: Duration?
    private let current = Mutex<(request: CuffRequest, deadline: ContinuousClock.Instant?)?>(nil)

    init(timeout: Duration?) { self.timeout = timeout }

    /// The next item of `channel` for `request`. - Throws: `CancellationError`.
    func next(for request: CuffRequest, from channel: Channel<CuffItem>) async throws -> CuffItem {
        let deadline = current.withLock { current -> ContinuousClock.Instant? in
            if current?.request != request { current = (request, timeout.map { ContinuousClock.now + $0 }) }
            return current?.deadline
        }
        switch await channel.receive(timeout: deadline.map { max(.zero, $0 - ContinuousClock.now) }) {
        case .item(let item): return item
        case .ended, .timedOut: return .failed(.noReading)
        case .cancelled: throw CancellationError()
        }
    }
}

/// Moves a byte source into the reader thread (used only there after the move).
private final class ByteSourceBox: @unchecked Sendable {
    var source: any ByteSource
    init(_ source: any ByteSource) { self.source = source }
}
