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
    /// Kept lines of the open batch, written once it committed.
    private var pending: [UInt8] = []
    /// Drop reports of the open batch (stderr is unbuffered; one write per batch).
    private var reports: [UInt8] = []
    private var stoppedStrict = false

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
                    try commitBatch()
                    return .stop
                }
            }
        } catch ByteSourceError.readFailed(let code) {
            throw InputError.cannotOpen(path: input.name, reason: String(cString: strerror(code)))
        }
        try commitBatch()
        return .more
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
            keep(bytes)
            return .more
        case .success(.reading(let reading)):
            if let why = Self.implausible(reading) {
                drop(.invalid, detail: why, age: nil, source: source, line: line, bytes: bytes)
                return .more
            }
            switch try filter.judge(reading, now: options.now ?? CommandContext.wallClock()) {
            case .keep:
                keep(bytes)
                counts.emittedReadings += 1
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

    private func keep(_ bytes: UnsafeRawBufferPointer) {
        pending.append(contentsOf: bytes)
        pending.append(0x0A)
        counts.emitted += 1
    }

    private func drop(_ reason: DropReason, detail: String?, age: Double?, source: String, line: Int,
                      bytes: UnsafeRawBufferPointer) {
        counts.dropped[reason, default: 0] += 1
        let report = ReplayFilterReport(source: source, line: line, reason: reason.rawValue, detail: detail, age: age)
        reports.append(contentsOf: report.stderrLine.utf8)
        rejects?.line(report.json(reading: String(decoding: bytes, as: UTF8.self), text: nil))
    }

    private func malformed(source: String, line: Int, text: UnsafeRawBufferPointer?, why: String) -> Next {
        counts.malformed += 1
        let report = ReplayFilterReport(source: source, line: line, reason: "malformed", detail: why, age: nil)
        reports.append(contentsOf: report.stderrLine.utf8)
        rejects?.line(report.json(reading: nil, text: text.map { String(decoding: $0, as: UTF8.self) } ?? ""))
        return options.strict ? .stop : .more
    }

    /// Commits the seen-set batch, then writes its kept lines and reports and flushes.
    /// - Throws: `StoreError`; the batch's lines are then never written.
    private func commitBatch() throws {
        try filter.seen.commitPending()
        if !pending.isEmpty {
            pending.withUnsafeBufferPointer { ctx.stdout.write(bytes: $0) }
            pending.removeAll(keepingCapacity: true)
        }
        ctx.stdout.flush()
        if !reports.isEmpty {
            reports.withUnsafeBufferPointer { ctx.stderr.write(bytes: $0) }
            reports.removeAll(keepingCapacity: true)
        }
        rejects?.flush()
    }
}
