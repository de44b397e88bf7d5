import CorsanoKit
#if canImport(Glibc)
import Glibc
#endif

/// One run of `replay-filter` over its inputs: parse, validate, judge, and hand kept lines on
/// only after the seen-set batch holding their keys committed.
///
/// Batching (DESIGN "State store"): keys go into one open transaction per input buffer; before
/// every read that could block (`LineReader.willRead`) the batch commits, then its kept lines,
/// drop reports and rejects are written and flushed, so a live feed sees each line at once.
final class ReplayFilterPass {
    enum Next { case more, stop }

    let filter: ReplayFilter
    let options: ReplayFilterOptions
    let ctx: CommandContext
    let rejects: OutputWriter?
    private(set) var counts = ReplayFilterCounts()
    /// Bytes of the open batch's kept lines (each with its `\n`), written once it committed.
    private var pending: [UInt8] = []
    /// The open batch in input order: kept lines (ranges of `pending`) and drop reports.
    private var batch: [BatchEntry] = []
    /// Drop reports ready for stderr (unbuffered: one write per batch).
    private var reports: [UInt8] = []
    private var stoppedStrict = false

    private enum BatchEntry {
        /// A kept line; `key` is its provisional seen-set claim, nil when it has none.
        case kept(range: Range<Int>, key: SeenKey?, isReading: Bool, source: String, line: Int)
        case dropped(ReplayFilterReport, reading: String?, text: String?)
    }

    /// Whether the run is over: `--strict` hit a malformed line, or `--first` wrote its reading.
    private var finished: Bool { stoppedStrict || (options.first && counts.emittedReadings > 0) }

    init(filter: ReplayFilter, options: ReplayFilterOptions, ctx: CommandContext, rejects: OutputWriter?) {
        self.filter = filter
        self.options = options
        self.ctx = ctx
        self.rejects = rejects
        pending.reserveCapacity(LineReader.defaultChunkSize + 4096)
    }

    /// Exit status once `finish()` ran: 3 for `--first` with nothing kept, 65 after a malformed
    /// line, else 0 (filtering is normal operation).
    var status: ExitStatus {
        if options.first && counts.emittedReadings == 0 { return .cuffError }
        return counts.malformed > 0 ? .dataError : .success
    }

    /// Filters one input to its end, or until `--first` or `--strict` stops the run.
    /// - Throws: `InputError` when the input cannot be read, `StoreError` from the seen-set.
    func process(_ input: InputFile) throws -> Next {
        let reader = LineReader(source: FileDescriptorSource(fd: input.fd))
        reader.willRead = { [unowned self] in try self.commitBatch() }
        do {
            while let item = try reader.next() {
                let next: Next
                switch item {
                case .line(let number, let bytes):
                    next = try handle(bytes, source: input.name, line: number)
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
        return finished ? .stop : .more
    }

    /// Commits, writes what is pending and the closing counts line.
    func finish() throws {
        try commitBatch()
        ctx.stderr.line(counts.summary)
        rejects?.flush()
    }

    private func handle(_ bytes: UnsafeRawBufferPointer, source: String, line: Int) throws -> Next {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return .more }  // blank: no record
        counts.read += 1
        switch ReadingLineParser.parse(bytes) {
        case .failure(let error):
            return malformed(source: source, line: line, text: bytes, why: error.description)
        case .success(.cuffFailure):
            // Not a reading: passed on untouched for the consumer (bp-init ends with cuffError).
            keep(bytes, key: nil, source: source, line: line, isReading: false)
            return .more
        case .success(.reading(let reading)):
            if let why = Self.implausible(reading) {
                drop(.invalid, detail: why, age: nil, source: source, line: line, bytes: bytes)
                return .more
            }
            switch try filter.judge(reading, now: options.now ?? CommandContext.wallClock()) {
            case .keep:
                keep(bytes, key: SeenKey(reading), source: source, line: line, isReading: true)
                return options.first ? .stop : .more
            case .drop(let reason, let age):
                drop(reason, detail: nil, age: age, source: source, line: line, bytes: bytes)
                return .more
            }
        }
    }

    /// The `invalid` rule. Until `cuff ingest`'s `ReadingValidator` is on main this checks only
    /// systolic > diastolic (DESIGN "Validation").
    static func implausible(_ r: CuffReading) -> String? {
        r.systolic > r.diastolic ? nil : "systolic \(r.systolic) mmHg not above diastolic \(r.diastolic) mmHg"
    }

    private func keep(_ bytes: UnsafeRawBufferPointer, key: SeenKey?, source: String, line: Int, isReading: Bool) {
        let start = pending.count
        pending.append(contentsOf: bytes)
        pending.append(0x0A)
        batch.append(.kept(range: start..<pending.count, key: key, isReading: isReading, source: source, line: line))
    }

    private func drop(_ reason: DropReason, detail: String?, age: Double?, source: String, line: Int,
                      bytes: UnsafeRawBufferPointer) {
        let report = ReplayFilterReport(source: source, line: line, reason: reason.rawValue, detail: detail, age: age)
        batch.append(.dropped(report, reading: String(decoding: bytes, as: UTF8.self), text: nil))
        counts.dropped[reason, default: 0] += 1
    }

    private func malformed(source: String, line: Int, text: UnsafeRawBufferPointer?, why: String) -> Next {
        counts.malformed += 1
        let report = ReplayFilterReport(source: source, line: line, reason: "malformed", detail: why, age: nil)
        batch.append(.dropped(report, reading: nil, text: text.map { String(decoding: $0, as: UTF8.self) } ?? ""))
        stoppedStrict = options.strict
        return options.strict ? .stop : .more
    }

    /// Commits the seen-set batch, then writes its kept lines (minus claims lost to another
    /// writer, reported as duplicates) and its reports, in input order, and flushes.
    /// - Throws: `StoreError`; the batch's lines are then never written.
    private func commitBatch() throws {
        let lost = try filter.seen.commitPending()
        var out: [UInt8] = []
        swap(&out, &pending)
        defer {
            out.removeAll(keepingCapacity: true)
            swap(&out, &pending)
            batch.removeAll(keepingCapacity: true)
        }
        for entry in batch {
            switch entry {
            case .kept(let range, let key, let isReading, let source, let line):
                if let key, lost.contains(key) {
                    counts.dropped[.duplicate, default: 0] += 1
                    let report = ReplayFilterReport(source: source, line: line, reason: DropReason.duplicate.rawValue, detail: nil, age: nil)
                    write(report, reading: String(decoding: out[range.dropLast()], as: UTF8.self), text: nil)
                    continue
                }
                out.withUnsafeBufferPointer { ctx.stdout.write(bytes: UnsafeBufferPointer(rebasing: $0[range])) }
                counts.emitted += 1
                if isReading { counts.emittedReadings += 1 }
            case .dropped(let report, let reading, let text):
                write(report, reading: reading, text: text)
            }
        }
        ctx.stdout.flush()
        if !reports.isEmpty {
            reports.withUnsafeBufferPointer { ctx.stderr.write(bytes: $0) }
            reports.removeAll(keepingCapacity: true)
        }
        rejects?.flush()
    }

    private func write(_ report: ReplayFilterReport, reading: String?, text: String?) {
        reports.append(contentsOf: report.stderrLine.utf8)
        rejects?.line(report.json(reading: reading, text: text))
    }
}
