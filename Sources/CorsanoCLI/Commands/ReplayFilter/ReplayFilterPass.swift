import CorsanoKit
#if canImport(Glibc)
import Glibc
#endif

/// One run of `replay-filter` over its inputs: read lines, judge them in the core's
/// `ReplayFilterSession`, and write what each committed batch hands back.
///
/// Batching (docs/design.md "State store"): claims go into the session's batch while input is
/// parsed; before a read that would wait (nothing to read yet on a pipe, FIFO or terminal),
/// before a kept line would take the batch past `--commit-bytes` of kept lines
/// (`ReplayFilterSession.isFull`), and at the first read after the batch has been open
/// `--commit-interval`, the batch commits. Commit →
/// write → release is the core's (`ReplayFilterSession.commit(to:)`); this pass only gives it
/// stdout as the sink (`ReplayFilterOutput`) and writes the drop reports and rejects after, so a
/// live feed sees each line at once. A value type: the per-line state needs no runtime
/// exclusivity checks.
struct ReplayFilterPass {
    enum Next { case more, stop }

    let options: ReplayFilterOptions
    let ctx: CommandContext
    private var session: ReplayFilterSession
    private var output: ReplayFilterOutput
    private var stoppedStrict = false
    /// When the open batch took its first line (the interval bound of `CommitBatch`).
    private var batchOpened = ContinuousClock.now
    private let batchInterval: Duration

    /// Fired by a stop signal: no more input is read.
    let interrupt: ReadInterrupt?

    init(filter: ReplayFilter, options: ReplayFilterOptions, ctx: CommandContext, rejects: OutputWriter?,
         interrupt: ReadInterrupt? = nil) {
        self.options = options
        self.ctx = ctx
        self.interrupt = interrupt
        session = ReplayFilterSession(filter: filter, keepsDroppedText: rejects != nil, batch: options.batch)
        batchInterval = .milliseconds(Int64((options.batch.seconds * 1000).rounded()))
        output = ReplayFilterOutput(ctx: ctx, rejects: rejects)
    }

    /// What the run read and did so far (`rejected` counts malformed lines).
    var counts: RecordCounts { output.counts }

    /// Most lines, kept or dropped, in a batch while reading a regular file: a file of dropped
    /// lines holds no kept bytes, and memory stays flat on it too.
    static let fileBatchLines = 1 << 15

    /// Exit status once `finish()` ran: 3 for `--first` with nothing kept, 65 after a malformed
    /// line, else 0 (filtering is normal operation).
    var status: ExitStatus {
        if options.first && output.writtenReadings == 0 { return .cuffError }
        return counts.rejected > 0 ? .dataError : .success
    }

    /// Whether the run is over: `--strict` hit a malformed line, or `--first` wrote its reading.
    private var finished: Bool { stoppedStrict || (options.first && output.writtenReadings > 0) }

    /// Filters one input to its end, or until `--first` or `--strict` stops the run.
    /// - Throws: `InputError` when the input cannot be read, `StoreError` from the seen-set.
    mutating func process(_ input: InputFile) throws -> Next {
        output.source = input.name
        let reader = LineReader(source: FileDescriptorSource(fd: input.fd, interrupt: interrupt))
        // Lines are judged at the wall time their bytes arrived: that of the read delivering them.
        var arrival = options.now ?? CommandContext.wallClock()
        // A read that would wait (pipe, FIFO, terminal with nothing to read yet) first commits
        // and writes what is decided, so a live feed sees each kept line at once; a regular file
        // never waits, so its batches, like those of input that keeps arriving, span reads
        // (fewer, larger transactions: each commit is a sync of the store).
        let mayBlock = !input.isRegularFile
        do {
            while true {
                let reads = !reader.bufferedLineAvailable
                if reads, session.pendingLines > 0,
                   session.pendingLines >= Self.fileBatchLines || (mayBlock && !Self.readable(input.fd))
                    || ContinuousClock.now - batchOpened >= batchInterval {
                    try commitBatch()
                    if ctx.stdout.hasFailed { return .stop }  // judging on would only commit keys of lost lines
                }
                guard let item = try reader.next() else { break }
                if reads, options.now == nil { arrival = CommandContext.wallClock() }
                let next: Next
                switch item {
                case .line(let number, let bytes):
                    if session.isFull(adding: bytes.count) {
                        try commitBatch()
                        if ctx.stdout.hasFailed { return .stop }
                    }
                    next = try handle(bytes, line: number, now: arrival)
                case .tooLong(let number, let count):
                    session.malformed(number: number, detail: "line of \(count) bytes exceeds the \(reader.maxLineLength)-byte limit", text: nil)
                    next = malformed()
                }
                if next == .stop {
                    // A provisional keep may still lose its claim at commit: then read on.
                    try commitBatch()
                    if finished { return .stop }
                }
            }
        } catch ByteSourceError.readFailed(let code) {
            throw InputError.cannotOpen(path: input.name, reason: String(cString: strerror(code)))
        } catch ByteSourceError.interrupted {
            // A stop signal: what was read is decided and written; `finish` writes the counts.
            try commitBatch()
            return .stop
        }
        try commitBatch()
        return finished || ctx.stdout.hasFailed ? .stop : .more
    }

    /// Commits, writes what is pending and the closing counts line (none after a reader closed
    /// stdout: 141 is quiet).
    mutating func finish() throws {
        try commitBatch()
        if !OutputWriter.readerGone { ctx.note("replay-filter: " + counts.summary) }
        output.rejects?.flush()
    }

    /// Whether a read of `fd` would return at once (bytes, the end, or an error) rather than wait.
    static func readable(_ fd: Int32) -> Bool {
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&ready, 1, 0) != 0
    }

    private mutating func handle(_ bytes: UnsafeRawBufferPointer, line: Int, now: Instant) throws -> Next {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .more }  // blank: no record
        if session.pendingLines == 0 { batchOpened = .now }
        output.counts.read += 1
        switch try session.judge(line: bytes, number: line, now: now) {
        case .keep(let key):
            // An unstamped reading (no claim, exempt from the age rule) or a manual entry (a
            // stamped one is claimed: issue 30) is counted for the closing line; rare,
            // so parsed again here, off the common path (the scan said whether it is manual).
            if key == nil || session.lastWasManualEntry, case .success(.reading(let reading)) = ReadingLineParser.parse(bytes) {
                output.counts.origins.count(reading)
            }
            return options.first ? .stop : .more
        case .cuffFailure, .drop: return .more
        case .malformed: return malformed()
        }
    }

    private mutating func malformed() -> Next {
        stoppedStrict = options.strict
        return options.strict ? .stop : .more
    }

    /// Commits the session's batch and writes what it hands back. - Throws: `StoreError`; the
    /// batch's lines are then never written.
    /// A second stop signal waits until the batch's lines are written or released
    /// (`SignalHandling.holdingExit`).
    private mutating func commitBatch() throws {
        try SignalHandling.holdingExit { try commitAndWriteBatch() }
    }

    private mutating func commitAndWriteBatch() throws {
        let outcome = try session.commit(to: &output)
        output.counts.written += outcome.written
        output.writtenReadings += outcome.writtenReadings
        output.counts.unwritten += outcome.unwritten
        output.counts.released += outcome.released
        output.flushReports()
        guard let error = outcome.releaseError else { return }
        // Lines never written stay claimed: every later run drops those readings as duplicates
        //. Said, and counted; the status is 74 either way.
        output.counts.unreleased += outcome.unwritten
        let why = ErrorTranslator.translate(error).message ?? "\(error)"
        ctx.diagnose("replay-filter: the claims of \(outcome.unwritten) unwritten lines could not be released: \(why)")
    }
}

/// Where a committed batch goes (the core's `FilterBatchSink` over stdout): kept lines to stdout,
/// one `FILE:LINE: reason` report per drop to stderr (one write per batch), and `--rejects` JSON lines.
struct ReplayFilterOutput: FilterBatchSink {
    let ctx: CommandContext
    let rejects: OutputWriter?
    /// The input being read: the source named in reports.
    var source = "-"
    var counts = RecordCounts()
    /// Of the written lines, the readings (for `--first`).
    var writtenReadings = 0
    /// Reports ready for stderr (unbuffered: one write per batch).
    private var reports: [UInt8] = []

    init(ctx: CommandContext, rejects: OutputWriter?) {
        self.ctx = ctx
        self.rejects = rejects
    }

    /// Writes and flushes the batch; the lines `OutputWriter` dropped (a failed write drops
    /// everything after it) are the ones not written.
    mutating func write(kept bytes: UnsafeBufferPointer<UInt8>, lines: Int) -> Int {
        let droppedBefore = ctx.stdout.droppedLines
        ctx.stdout.write(bytes: bytes)
        ctx.stdout.flush()
        return lines - (ctx.stdout.droppedLines - droppedBefore)
    }

    mutating func dropped(_ drop: FilterDrop) {
        switch drop.why {
        case .rule(let reason):
            counts.dropped[reason, default: 0] += 1
            ctx.diagnostics.info(.filter, "\(source):\(drop.line): dropped as \(reason.rawValue): \(reason.rule)")
        case .malformed: counts.rejected += 1
        }
        drop.appendStderrLine(source: source, to: &reports)
        rejects?.line(drop.rejectRecord(source: source).jsonLine)
    }

    /// Writes the batch's reports to stderr and flushes `--rejects`.
    mutating func flushReports() {
        if !reports.isEmpty {
            // At a terminal the reports go through the one wrapper; a pipe gets the bytes as built.
            if ctx.isTerminal(ctx.stderr) {
                ctx.writeText(String(decoding: reports.dropLast(), as: UTF8.self))
            } else {
                reports.withUnsafeBufferPointer { ctx.stderr.write(bytes: $0) }
            }
        }
        reports.removeAll(keepingCapacity: true)
        rejects?.flush()
    }
}
