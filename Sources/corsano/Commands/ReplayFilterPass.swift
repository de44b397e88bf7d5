import CorsanoKit
#if canImport(Glibc)
import Glibc
#endif

/// One run of `replay-filter` over its inputs: parse, validate, judge, and hand kept lines on
/// only after the seen-set batch holding their keys committed.
///
/// Batching (DESIGN "State store"): claims go into the seen-set's batch while a buffered input
/// chunk is parsed; before every read that could block the batch commits, then its kept lines
/// (minus claims lost to another writer), drop reports and rejects are written and flushed, so
/// a live feed sees each line at once. A value type: the per-line state needs no runtime
/// exclusivity checks.
struct ReplayFilterPass {
    enum Next { case more, stop }

    let filter: ReplayFilter
    let options: ReplayFilterOptions
    let ctx: CommandContext
    let rejects: OutputWriter?
    private(set) var counts = ReplayFilterCounts()
    private var batch = ReplayFilterBatch()
    private var stoppedStrict = false
    /// The last measuredAt date parsed (consecutive lines mostly share it).
    private var dates = RFC3339DayCache()
    /// The input being read: the source of the pending batch's lines.
    private var source = "-"

    init(filter: ReplayFilter, options: ReplayFilterOptions, ctx: CommandContext, rejects: OutputWriter?) {
        self.filter = filter
        self.options = options
        self.ctx = ctx
        self.rejects = rejects
    }

    /// Largest batch of kept bytes held while reading a regular file.
    static let fileBatchBytes = 1 << 20

    /// Exit status once `finish()` ran: 3 for `--first` with nothing kept, 65 after a malformed
    /// line, else 0 (filtering is normal operation).
    var status: ExitStatus {
        if options.first && counts.emittedReadings == 0 { return .cuffError }
        return counts.malformed > 0 ? .dataError : .success
    }

    /// Whether the run is over: `--strict` hit a malformed line, or `--first` wrote its reading.
    private var finished: Bool { stoppedStrict || (options.first && counts.emittedReadings > 0) }

    /// Filters one input to its end, or until `--first` or `--strict` stops the run.
    /// - Throws: `InputError` when the input cannot be read, `StoreError` from the seen-set.
    mutating func process(_ input: InputFile) throws -> Next {
        source = input.name
        let reader = LineReader(source: FileDescriptorSource(fd: input.fd))
        // Lines are judged at the wall time their bytes arrived: that of the read delivering them.
        var arrival = options.now ?? CommandContext.wallClock()
        // A read that may block (pipe, FIFO, terminal) first commits and writes what is decided;
        // a regular file never blocks, so its batches may span reads (fewer, larger transactions).
        let mayBlock = !input.isRegularFile
        do {
            while true {
                let reads = !reader.bufferedLineAvailable
                if reads, mayBlock || batch.byteCount >= Self.fileBatchBytes {
                    try commitBatch()
                    if ctx.stdout.hasFailed { return .stop }  // judging on would only commit keys of lost lines
                }
                guard let item = try reader.next() else { break }
                if reads, options.now == nil { arrival = CommandContext.wallClock() }
                let next: Next
                switch item {
                case .line(let number, let bytes):
                    next = try handle(bytes, source: input.name, line: number, now: arrival)
                case .tooLong(let number, let count):
                    next = malformed(source: input.name, line: number, text: nil,
                                     why: "line of \(count) bytes exceeds the \(reader.maxLineLength)-byte limit")
                }
                if next == .stop {
                    // A provisional keep may still lose its claim at commit: then read on.
                    try commitBatch()
                    if finished { return .stop }
                }
            }
        } catch ByteSourceError.readFailed(let code) {
            throw InputError.cannotOpen(path: input.name, reason: String(cString: strerror(code)))
        }
        try commitBatch()
        return finished || ctx.stdout.hasFailed ? .stop : .more
    }

    /// Commits, writes what is pending and the closing counts line.
    mutating func finish() throws {
        try commitBatch()
        ctx.stderr.line(counts.summary)
        rejects?.flush()
    }

    private mutating func handle(_ bytes: UnsafeRawBufferPointer, source: String, line: Int, now: Instant) throws -> Next {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .more }  // blank: no record
        counts.read += 1
        switch try filter.judge(line: bytes, now: now, validator: .standard, dates: &dates) {
        case .keep(let key):
            batch.keep(bytes, key: key, isReading: true, line: line)
            return options.first ? .stop : .more
        case .cuffFailure:
            // Not a reading: passed on untouched for the consumer (bp-init ends with cuffError).
            batch.keep(bytes, key: nil, isReading: false, line: line)
            return .more
        case .drop(let reason, let age, let detail):
            counts.dropped[reason, default: 0] += 1
            let report = ReplayFilterReport(source: source, line: line, reason: reason.rawValue, detail: detail, age: age)
            // The reading's text is only for `--rejects`.
            batch.report(report, reading: rejects == nil ? nil : String(decoding: bytes, as: UTF8.self), text: nil)
            return .more
        case .malformed(let error):
            return malformed(source: source, line: line, text: bytes, why: error.description)
        }
    }

    private mutating func malformed(source: String, line: Int, text: UnsafeRawBufferPointer?, why: String) -> Next {
        counts.malformed += 1
        let report = ReplayFilterReport(source: source, line: line, reason: "malformed", detail: why, age: nil)
        batch.report(report, reading: nil, text: text.map { String(decoding: $0, as: UTF8.self) } ?? "")
        stoppedStrict = options.strict
        return options.strict ? .stop : .more
    }

    /// Commits the seen-set batch, then writes it. - Throws: `StoreError`; the batch's lines are
    /// then never written.
    private mutating func commitBatch() throws {
        let lost = try filter.seen.commitPending()
        batch.write(source: source, lost: lost, counts: &counts, stdout: ctx.stdout, stderr: ctx.stderr, rejects: rejects)
    }
}
