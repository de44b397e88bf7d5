import CorsanoKit

/// The lines of one `replay-filter` batch in input order, held until the seen-set committed.
struct ReplayFilterBatch {
    private enum Entry {
        /// A kept line (a range of `bytes`); `key` is its provisional seen-set claim.
        /// (The source name is the batch's: a batch never spans inputs.)
        case kept(range: Range<Int>, key: SeenKey?, isReading: Bool, line: Int)
        case dropped(ReplayFilterReport, reading: String?, text: String?)
    }

    /// Kept lines, each with its `\n`.
    private var bytes: [UInt8] = []
    private var entries: [Entry] = []
    /// Reports ready for stderr (unbuffered: one write per batch).
    private var reports: [UInt8] = []

    /// Bytes of kept lines held.
    var byteCount: Int { bytes.count }

    mutating func keep(_ line: UnsafeRawBufferPointer, key: SeenKey?, isReading: Bool, line number: Int) {
        let start = bytes.count
        bytes.append(contentsOf: UnsafeBufferPointer(start: line.baseAddress?.assumingMemoryBound(to: UInt8.self), count: line.count))
        bytes.append(0x0A)
        entries.append(.kept(range: start..<bytes.count, key: key, isReading: isReading, line: number))
    }

    mutating func report(_ report: ReplayFilterReport, reading: String?, text: String?) {
        entries.append(.dropped(report, reading: reading, text: text))
    }

    /// Writes the batch after its commit: kept lines whose claim was not `lost` to stdout
    /// (flushed), the others as duplicates, and every report to stderr and `rejects`.
    mutating func write(source: String, lost: Set<SeenKey>, counts: inout ReplayFilterCounts, stdout: OutputWriter,
                        stderr: OutputWriter, rejects: OutputWriter?) {
        defer {
            bytes.removeAll(keepingCapacity: true)
            entries.removeAll(keepingCapacity: true)
            reports.removeAll(keepingCapacity: true)
        }
        let droppedBefore = stdout.droppedLines
        // Kept lines sit back to back in `bytes`: write each run between lost claims at once.
        var run = 0..<0
        func flushRun() {
            if !run.isEmpty { bytes.withUnsafeBufferPointer { stdout.write(bytes: UnsafeBufferPointer(rebasing: $0[run])) } }
        }
        for entry in entries {
            switch entry {
            case .kept(let range, let key, let isReading, let line):
                if let key, !lost.isEmpty, lost.contains(key) {
                    flushRun()
                    run = range.upperBound..<range.upperBound
                    counts.dropped[.duplicate, default: 0] += 1
                    let report = ReplayFilterReport(source: source, line: line, reason: DropReason.duplicate.rawValue,
                                                    detail: nil, age: nil)
                    record(report, reading: String(decoding: bytes[range.dropLast()], as: UTF8.self), text: nil, rejects)
                    continue
                }
                run = run.isEmpty ? range : run.lowerBound..<range.upperBound
                counts.emitted += 1
                if isReading { counts.emittedReadings += 1 }
            case .dropped(let report, let reading, let text):
                record(report, reading: reading, text: text, rejects)
            }
        }
        flushRun()
        stdout.flush()
        // A failed write loses kept lines (their keys are committed: DESIGN "State store").
        let unwritten = stdout.droppedLines - droppedBefore
        counts.emitted -= unwritten
        counts.unwritten += unwritten
        if !reports.isEmpty { reports.withUnsafeBufferPointer { stderr.write(bytes: $0) } }
        rejects?.flush()
    }

    private mutating func record(_ report: ReplayFilterReport, reading: String?, text: String?, _ rejects: OutputWriter?) {
        report.appendStderrLine(to: &reports)
        rejects?.line(report.json(reading: reading, text: text))
    }
}
