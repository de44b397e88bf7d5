/// One dropped or malformed line of a `ReplayFilterSession` batch, handed over after the commit.
public struct FilterDrop: Sendable {
    /// Why the line did not go through.
    public enum Why: Equatable, Sendable {
        /// A host rule or the validator dropped the reading (a lost claim is `.duplicate`).
        case rule(DropReason)
        /// Not a reading line.
        case malformed
    }

    /// 1-based line number in the input.
    public var line: Int
    public var why: Why
    /// The validator's reason for `invalid`, the parse error for `malformed`.
    public var detail: String?
    /// Signed age, seconds, for `stale` and `future`.
    public var age: Double?
    /// The line's text when the session keeps it (`keepsDroppedText`); `""` for a line too long to hold.
    public var text: String?

    /// The word written in reports: the drop reason, or `malformed`.
    public var word: String {
        switch why {
        case .rule(let reason): return reason.rawValue
        case .malformed: return "malformed"
        }
    }
}

/// Receives a committed batch of a `ReplayFilterSession`. Kept lines arrive in input order,
/// drops arrive in input order; the two are not interleaved by line (they go to different
/// streams: kept lines to stdout, reports to stderr).
public protocol FilterBatchReceiver {
    /// Kept lines whose claims are committed: contiguous bytes, every line ending in `\n`;
    /// `lines` lines of which `readings` are readings (the rest are cuff-failure lines).
    mutating func kept(_ bytes: UnsafeBufferPointer<UInt8>, lines: Int, readings: Int)
    /// A dropped or malformed line (a lost claim comes as a `duplicate`).
    mutating func dropped(_ drop: FilterDrop)
}

/// The host rules over a stream of reading lines with commit-then-write (docs/design.md "State store"):
/// lines are judged into a batch whose seen-set claims are provisional; `commit` commits the
/// seen-set and only then hands the caller the kept lines whose claims held, with every drop in
/// input order. A claim another writer committed first turns its line into a `duplicate` drop,
/// so two processes sharing a store never both hand on a record.
///
/// A value type: the per-line path (one `judge` per line) has no runtime exclusivity checks.
/// A batch must not span inputs (line numbers order it); commit before the next input.
public struct ReplayFilterSession {
    /// A kept line: where its bytes (with `\n`) end in `bytes`, and its provisional claim.
    private struct Kept {
        var end: Int
        var key: SeenKey?
        var isReading: Bool
        var line: Int
    }

    /// The rules and the seen-set.
    public let filter: ReplayFilter
    /// The `invalid` rule, applied before the host rules.
    public let validator: ReadingValidator
    /// Whether drops carry the line's text (`replay-filter --rejects`).
    public let keepsDroppedText: Bool
    /// The last measuredAt date parsed (consecutive lines mostly share it).
    private var dates = RFC3339DayCache()
    /// Kept lines, each with its `\n`.
    private var bytes: [UInt8] = []
    private var kept: [Kept] = []
    private var keptReadings = 0
    private var drops: [FilterDrop] = []
    /// Stale and future drops (indexes into `drops`) whose key the seen-set is asked for at the
    /// commit, all at once: a handed-on one is a `duplicate` (rule 3 before age).
    private var lookups: [(drop: Int, key: SeenKey)] = []
    /// The kept lines of the last commit and the claims it lost, for `releaseUnwritten`.
    private var lastKept: [Kept] = []
    private var lastLost: Set<SeenKey> = []

    /// A session over `filter`.
    public init(filter: ReplayFilter, validator: ReadingValidator = .standard, keepsDroppedText: Bool) {
        self.filter = filter
        self.validator = validator
        self.keepsDroppedText = keepsDroppedText
    }

    /// Bytes of kept lines waiting for the commit.
    public var pendingBytes: Int { bytes.count }
    /// Lines, kept or dropped, waiting for the commit.
    public var pendingLines: Int { kept.count + drops.count }

    /// Judges one line (without its `\n`) at `now` into the batch. The verdict is for the
    /// caller's flow control (`--first`, `--strict`); a `.keep` is final only after `commit`, and
    /// a `stale` or `future` drop may come out of the commit as a `duplicate`.
    /// - Throws: what the seen-set throws (`StoreError`); the line is then not in the batch.
    public mutating func judge(line: UnsafeRawBufferPointer, number: Int, now: Instant) throws -> LineVerdict {
        var lookup: SeenKey?
        let verdict = try filter.judge(line: line, now: now, validator: validator, dates: &dates, lookup: &lookup)
        if let key = lookup { lookups.append((drops.count, key)) }
        switch verdict {
        case .keep(let key):
            keep(line, key: key, isReading: true, number: number)
        case .cuffFailure:
            // Not a reading: passed on untouched for the consumer (bp-init ends with cuffError).
            keep(line, key: nil, isReading: false, number: number)
        case .drop(let reason, let age, let detail):
            drops.append(FilterDrop(line: number, why: .rule(reason), detail: detail, age: age,
                                    text: keepsDroppedText ? String(decoding: line, as: UTF8.self) : nil))
        case .malformed(let error):
            malformed(number: number, detail: error.description, text: line)
        }
        return verdict
    }

    /// Records a line that is not a reading (e.g. one over the reader's length bound: `text` nil).
    public mutating func malformed(number: Int, detail: String, text: UnsafeRawBufferPointer?) {
        drops.append(FilterDrop(line: number, why: .malformed, detail: detail, age: nil,
                                text: keepsDroppedText ? text.map { String(decoding: $0, as: UTF8.self) } ?? "" : nil))
    }

    private mutating func keep(_ line: UnsafeRawBufferPointer, key: SeenKey?, isReading: Bool, number: Int) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: line.baseAddress?.assumingMemoryBound(to: UInt8.self), count: line.count))
        bytes.append(0x0A)
        kept.append(Kept(end: bytes.count, key: key, isReading: isReading, line: number))
        if isReading { keptReadings += 1 }
    }

    /// Commits the seen-set's pending claims, then hands the batch to `receiver`: kept lines
    /// whose claims held (in one piece when none was lost), lost ones as `duplicate` drops.
    /// The batch is empty afterwards.
    /// - Throws: `StoreError` from the commit; the batch's lines are then never handed over.
    public mutating func commit<Receiver: FilterBatchReceiver>(to receiver: inout Receiver) throws {
        defer {
            bytes.removeAll(keepingCapacity: true)
            swap(&kept, &lastKept)  // kept for `releaseUnwritten`; no copy
            kept.removeAll(keepingCapacity: true)
            drops.removeAll(keepingCapacity: true)
            lookups.removeAll(keepingCapacity: true)
            keptReadings = 0
        }
        lastKept.removeAll(keepingCapacity: true)
        lastLost = []
        // Before the commit: a failed read then leaves no claim of the batch committed.
        if !lookups.isEmpty {
            let handedOn = try filter.seen.containedKeys(lookups.map(\.key))
            for (drop, key) in lookups where handedOn.contains(key) {
                drops[drop].why = .rule(.duplicate)
                drops[drop].age = nil
            }
        }
        let lost = try filter.seen.commitPending()
        lastLost = lost
        guard !lost.isEmpty else {
            // Every claim held (always so for a per-run set): the kept lines go out in one piece.
            if !kept.isEmpty { bytes.withUnsafeBufferPointer { receiver.kept($0, lines: kept.count, readings: keptReadings) } }
            for drop in drops { receiver.dropped(drop) }
            return
        }
        deliver(losing: lost, to: &receiver)
    }

    /// Gives back the claims of the last `count` lines the last `commit` handed over, which a
    /// failed write lost (writes go in order and everything after the first failure is dropped,
    /// so the lost lines are the last ones), so a later run hands those readings on instead of
    /// dropping them as duplicates (issue 18). One transaction.
    /// - Returns: how many claims were released (cuff-failure lines hold none).
    /// - Throws: what the seen-set's release throws (`StoreError`); then every claim still holds.
    public mutating func releaseUnwritten(lines count: Int) throws -> Int {
        guard count > 0 else { return 0 }
        let handedOver = lastKept.filter { k in k.key.map { !lastLost.contains($0) } ?? true }
        let keys = handedOver.suffix(count).compactMap(\.key)
        try filter.seen.release(keys)
        lastKept.removeAll(keepingCapacity: true)
        return keys.count
    }

    /// `commit` when another writer held some claims first: those lines become duplicate
    /// drops, in input order among the other drops; each run of kept lines between them goes at once.
    private func deliver<Receiver: FilterBatchReceiver>(losing lost: Set<SeenKey>, to receiver: inout Receiver) {
        var run = 0..<0, runLines = 0, runReadings = 0
        func flushRun(_ receiver: inout Receiver) {
            guard !run.isEmpty else { return }
            bytes.withUnsafeBufferPointer { receiver.kept(UnsafeBufferPointer(rebasing: $0[run]), lines: runLines, readings: runReadings) }
        }
        var start = 0, next = 0
        for k in kept {
            while next < drops.count, drops[next].line < k.line {
                receiver.dropped(drops[next])
                next += 1
            }
            let range = start..<k.end
            start = k.end
            if let key = k.key, lost.contains(key) {
                flushRun(&receiver)
                (run, runLines, runReadings) = (k.end..<k.end, 0, 0)
                receiver.dropped(FilterDrop(line: k.line, why: .rule(.duplicate), detail: nil, age: nil,
                                            text: keepsDroppedText ? String(decoding: bytes[range.dropLast()], as: UTF8.self) : nil))
                continue
            }
            run = run.isEmpty ? range : run.lowerBound..<range.upperBound
            runLines += 1
            if k.isReading { runReadings += 1 }
        }
        for drop in drops[next...] { receiver.dropped(drop) }
        flushRun(&receiver)
    }
}
