import CorsanoKit
import Synchronization

/// `corsano cuff listen --device MAC`: a Bluetooth cuff read live through BlueZ, one reading
/// line per 0x2A35 indication as `cuff ingest` writes them (plus `source`), connection events
/// on stderr (docs/design.md "Live cuffs"). `--stored` first fetches a Blood
/// Pressure Service 1.1 cuff's stored records through its Record Access Control Point.
///
/// Exit status: 0 after `--count` readings (or at `--timeout` without `--count`), 3 when the
/// timeout passes with fewer, 65 when a payload was rejected (after the rest), 69 when the
/// adapter is absent or off or the cuff was never seen, 74 on another D-Bus failure, 77 when
/// BlueZ's policy refuses the user, 130/143 on SIGINT/SIGTERM after writing what it has, 141
/// quietly as soon as the reader of stdout goes away.
enum CuffListenCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        let config = try CuffLinkOptions.config(args, ctx)
        let count = try args.integer(.count)
        let timeout = try CuffLinkOptions.positiveSeconds(args, .timeout)
        let central = try BlueZCentral.connect(busAddress: CuffLinkOptions.busAddress(ctx.environment))
        let collector = CuffCollector(central: central, config: config, now: CommandContext.wallClock)
        let output = ListenOutput(ctx: ctx, address: config.address, zone: config.zone, count: count)
        let stop = ListenStop()
        let signals = SignalHandling.install()
        let end = await signals.run { () -> ListenStop.End in
            let task = Task {
                do {
                    try await collector.run { event in if output.take(event) { stop.stop(.count) } }
                } catch let failure as CuffCollector.Failure {
                    stop.stop(.failure(failure))
                } catch {}
            }
            stop.attach(task)
            let timer = timeout.map { seconds in
                Task {
                    try? await Task.sleep(for: .seconds(seconds))
                    if !Task.isCancelled { stop.stop(.timeout) }
                }
            }
            await withTaskCancellationHandler { await task.value } onCancel: { stop.stop(.interrupted) }
            timer?.cancel()
            return stop.reason ?? .interrupted
        }
        await collector.shutdown()
        // The reader of stdout went away (`| head -1`; SignalHandling watches the pipe): quiet,
        // as every 141 is (docs/design.md "Exit status"), the cuff hung up all the same.
        if signals.exitStatus == .brokenPipe { return .brokenPipe }
        output.finish()
        switch end {
        case .failure(let failure):
            throw failure
        case .interrupted:
            return signals.exitStatus ?? .interrupted
        case .timeout where !collector.seen:
            ctx.diagnose("cuff listen: \(config.address) was not seen within \(timeout ?? 0) s"
                         + (config.adapterName.map { " on \($0)" } ?? ""))
            return .unavailable
        case .timeout where count != nil:
            return .cuffError
        case .timeout, .count:
            return output.rejected > 0 ? .dataError : .success
        }
    }
}

/// How a listen ended: the first reason wins, and stops the collector.
final class ListenStop: Sendable {
    enum End { case count, timeout, interrupted, failure(CuffCollector.Failure) }

    private let state = Mutex<(reason: End?, task: Task<Void, Never>?)>((nil, nil))

    var reason: End? { state.withLock { $0.reason } }

    func attach(_ task: Task<Void, Never>) {
        let stopped = state.withLock { s -> Bool in
            s.task = task
            return s.reason != nil
        }
        if stopped { task.cancel() }
    }

    func stop(_ reason: End) {
        let task = state.withLock { s -> Task<Void, Never>? in
            if s.reason == nil { s.reason = reason }
            return s.task
        }
        task?.cancel()
    }
}

/// Where `cuff listen` puts the collector's events: reading lines on stdout, each flushed as it
/// arrives; rejects and connection events on stderr; the counts at the end.
final class ListenOutput: @unchecked Sendable {
    private let ctx: CommandContext
    private let messages: CuffLinkMessages
    private let count: Int?
    private let lock = Mutex(())
    private var counts = RecordCounts()
    private var line: [UInt8] = []
    private var pressureShown = false

    init(ctx: CommandContext, address: String, zone: ZoneReader, count: Int?) {
        self.ctx = ctx
        messages = CuffLinkMessages(address: address, zone: zone, progress: ctx.stderrIsTerminal)
        self.count = count
    }

    var rejected: Int { lock.locked { counts.rejected } }

    /// Handles one event; true once `--count` readings were written.
    func take(_ event: CuffCollector.Event) -> Bool {
        lock.locked {
            if let count, counts.written >= count { return true }
            switch event {
            case .reading(let reading, _):
                counts.read += 1
                line.removeAll(keepingCapacity: true)
                reading.appendJSONLine(to: &line)
                line.append(10)
                line.withUnsafeBufferPointer { ctx.stdout.write(bytes: $0) }
                ctx.stdout.flush()
                counts.written += 1
            case .rejected:
                counts.read += 1
                counts.rejected += 1
            case .pressure:
                counts.skipped[.intermediateCuffPressure, default: 0] += 1
            default:
                break
            }
            messages.write(event, ctx)
            return count.map { counts.written >= $0 } ?? false
        }
    }

    /// Clears a progress line and writes the counts.
    func finish() {
        lock.locked {
            if let text = messages.finish() { ctx.stderr.write(text) }
            var shown = counts
            shown.unwritten = ctx.stdout.droppedLines
            shown.written = max(0, shown.written - shown.unwritten)
            ctx.note("cuff listen: " + shown.summary)
        }
    }
}
