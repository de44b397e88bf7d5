import CorsanoKit

/// The lines of one `replay-filter` batch in input order, held until the seen-set committed.
/// A batch never spans inputs, so line numbers order its kept and dropped lines.
struct ReplayFilterBatch {
    /// A kept line: where its bytes (with `\n`) end in `bytes`, its provisional seen-set claim.
    private struct Kept {
        var end: Int
        var key: SeenKey?
        var isReading: Bool
        var line: Int
    }

    /// A dropped or malformed line's report, with the reading or text for `--rejects`.
    private struct Dropped {
        var report: ReplayFilterReport
        var reading: String?
        var text: String?
    }

    /// Kept lines, each with its `\n`.
    private var bytes: [UInt8] = []
    private var kept: [Kept] = []
    private var keptReadings = 0
    private var dropped: [Dropped] = []
    /// Reports ready for stderr (unbuffered: one write per batch).
    private var reports: [UInt8] = []

    /// Bytes of kept lines held.
    var byteCount: Int { bytes.count }

    mutating func keep(_ line: UnsafeRawBufferPointer, key: SeenKey?, isReading: Bool, line number: Int) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: line.baseAddress?.assumingMemoryBound(to: UInt8.self), count: line.count))
        bytes.append(0x0A)
        kept.append(Kept(end: bytes.count, key: key, isReading: isReading, line: number))
        if isReading { keptReadings += 1 }
    }

    mutating func report(_ report: ReplayFilterReport, reading: String?, text: String?) {
        dropped.append(Dropped(report: report, reading: reading, text: text))
    }

    /// Writes the batch after its commit: kept lines whose claim was not `lost` to stdout
    /// (flushed), the others as duplicates, and every report to stderr and `rejects`.
    mutating func write(source: String, lost: Set<SeenKey>, counts: inout ReplayFilterCounts, stdout: OutputWriter,
                        stderr: OutputWriter, rejects: OutputWriter?) {
        defer {
            bytes.removeAll(keepingCapacity: true)
            kept.removeAll(keepingCapacity: true)
            dropped.removeAll(keepingCapacity: true)
            reports.removeAll(keepingCapacity: true)
            keptReadings = 0
        }
        let droppedBefore = stdout.droppedLines
        if lost.isEmpty {
            // Every claim held (always so for a per-run set): the kept lines go out in one write.
            if !bytes.isEmpty { bytes.withUnsafeBufferPointer { stdout.write(bytes: $0) } }
            counts.emitted += kept.count
            counts.emittedReadings += keptReadings
            for d in dropped { record(d.report, reading: d.reading, text: d.text, rejects) }
        } else {
            writeLosing(lost, source: source, counts: &counts, stdout: stdout, rejects: rejects)
        }
        stdout.flush()
        // A failed write loses kept lines (their keys are committed: DESIGN "State store").
        let unwritten = stdout.droppedLines - droppedBefore
        counts.emitted -= unwritten
        counts.unwritten += unwritten
        if !reports.isEmpty { reports.withUnsafeBufferPointer { stderr.write(bytes: $0) } }
        rejects?.flush()
    }

    /// `write` when another writer held some claims first: those lines become duplicate reports,
    /// in input order among the others; each run of kept lines between them is written at once.
    private mutating func writeLosing(_ lost: Set<SeenKey>, source: String, counts: inout ReplayFilterCounts,
                                      stdout: OutputWriter, rejects: OutputWriter?) {
        var run = 0..<0
        func flushRun() {
            if !run.isEmpty { bytes.withUnsafeBufferPointer { stdout.write(bytes: UnsafeBufferPointer(rebasing: $0[run])) } }
        }
        var start = 0, next = 0
        for k in kept {
            while next < dropped.count, dropped[next].report.line < k.line {
                record(dropped[next].report, reading: dropped[next].reading, text: dropped[next].text, rejects)
                next += 1
            }
            let range = start..<k.end
            start = k.end
            if let key = k.key, lost.contains(key) {
                flushRun()
                run = k.end..<k.end
                counts.dropped[.duplicate, default: 0] += 1
                let report = ReplayFilterReport(source: source, line: k.line, reason: DropReason.duplicate.rawValue,
                                                detail: nil, age: nil)
                record(report, reading: String(decoding: bytes[range.dropLast()], as: UTF8.self), text: nil, rejects)
                continue
            }
            run = run.isEmpty ? range : run.lowerBound..<range.upperBound
            counts.emitted += 1
            if k.isReading { counts.emittedReadings += 1 }
        }
        for d in dropped[next...] { record(d.report, reading: d.reading, text: d.text, rejects) }
        flushRun()
    }

    private mutating func record(_ report: ReplayFilterReport, reading: String?, text: String?, _ rejects: OutputWriter?) {
        report.appendStderrLine(to: &reports)
        rejects?.line(report.json(reading: reading, text: text))
    }
}
