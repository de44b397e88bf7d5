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
    /// The field at fault, when known (`invalid`, and a malformed line naming one).
    public var field: String?
    /// The line's text when the session keeps it (`keepsDroppedText`); `""` for a line too long to hold.
    public var text: String?

    /// The word written in reports: the drop reason, or `malformed`.
    public var word: String {
        switch why {
        case .rule(let reason): return reason.rawValue
        case .malformed: return RejectRecord.malformed
        }
    }

    /// `age` in whole seconds, truncated toward zero (docs/design.md "Host-side cuff rules": a
    /// reading is stale when its exact age exceeds the limit, so the reported age may equal it).
    public var wholeSecondsAge: Int? {
        age.map(WholeSeconds.truncating)
    }

    /// The line's `--rejects` record, read from `source` (its text as `raw`: `""` when the
    /// session does not keep dropped text).
    public func rejectRecord(source: String) -> RejectRecord {
        RejectRecord(source: source, line: line, reason: word, field: field, error: detail, age: wholeSecondsAge, raw: text ?? "")
    }
}

/// Where a `ReplayFilterSession` writes a committed batch: the kept lines in one write, then
/// each drop. The sink reports how much of the write reached its destination, so the session
/// gives back the claims of what did not (docs/design.md "State store": commit, write, release).
public protocol FilterBatchSink {
    /// Writes a committed batch's kept lines: contiguous bytes, every line ending in `\n`,
    /// `lines` lines in input order.
    /// - Returns: how many of those lines reached the destination whole: `lines`, or the ones
    ///   before a short write, a closed pipe (EPIPE) or a full disk. Lines after the first one
    ///   lost are taken as lost too (writes go in order).
    mutating func write(kept bytes: UnsafeBufferPointer<UInt8>, lines: Int) -> Int
    /// A dropped or malformed line, in input order (a lost claim comes as a `duplicate`).
    mutating func dropped(_ drop: FilterDrop)
}

/// What one `ReplayFilterSession.commit(to:)` did with its batch.
public struct FilterBatchOutcome: Sendable {
    /// Kept lines the sink wrote, and how many of them are readings (the rest are cuff-failure lines).
    public var written = 0, writtenReadings = 0
    /// Kept lines whose claims were committed but which the sink did not write.
    public var unwritten = 0
    /// Claims of unwritten lines given back to the seen-set (cuff-failure lines hold none).
    public var released = 0
    /// Why the claims of the unwritten lines could not be given back; they then still hold.
    public var releaseError: (any Error)?
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
    private var drops: [FilterDrop] = []
    /// Stale and future drops (indexes into `drops`) whose key the seen-set is asked for at the
    /// commit, all at once: a handed-on one is a `duplicate` (rule 3 before age).
    private var lookups: [(drop: Int, key: SeenKey)] = []

    /// When a batch is committed: its size bound (`isFull`) and, for the caller, its age bound.
    public let batch: CommitBatch

    /// A session over `filter`, committing per `batch`.
    public init(filter: ReplayFilter, validator: ReadingValidator = .standard, keepsDroppedText: Bool,
                batch: CommitBatch = .standard) {
        self.filter = filter
        self.validator = validator
        self.keepsDroppedText = keepsDroppedText
        self.batch = batch
    }

    /// Whether the last line judged is a reading marked `isManualEntry: true`.
    public private(set) var lastWasManualEntry = false

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
        let verdict = try filter.judge(line: line, now: now, validator: validator, dates: &dates, lookup: &lookup,
                                       manual: &lastWasManualEntry)
        if let key = lookup { lookups.append((drops.count, key)) }
        switch verdict {
        case .keep(let key):
            keep(line, key: key, isReading: true, number: number)
        case .cuffFailure:
            // Not a reading: passed on untouched for the consumer (bp-init ends with cuffError).
            keep(line, key: nil, isReading: false, number: number)
        case .drop(let reason, let age, let detail, let field):
            drops.append(FilterDrop(line: number, why: .rule(reason), detail: detail, age: age, field: field,
                                    text: keepsDroppedText ? String(decoding: line, as: UTF8.self) : nil))
        case .malformed(let error):
            malformed(number: number, detail: error.description, field: error.field, text: line)
        }
        return verdict
    }

    /// Records a line that is not a reading (e.g. one over the reader's length bound: `text` nil).
    public mutating func malformed(number: Int, detail: String, field: String? = nil, text: UnsafeRawBufferPointer?) {
        drops.append(FilterDrop(line: number, why: .malformed, detail: detail, age: nil, field: field,
                                text: keepsDroppedText ? text.map { String(decoding: $0, as: UTF8.self) } ?? "" : nil))
    }

    private mutating func keep(_ line: UnsafeRawBufferPointer, key: SeenKey?, isReading: Bool, number: Int) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: line.baseAddress?.assumingMemoryBound(to: UInt8.self), count: line.count))
        bytes.append(0x0A)
        kept.append(Kept(end: bytes.count, key: key, isReading: isReading, line: number))
    }

    /// Whether a line of `count` bytes would take the batch past `batch.bytes`: commit first.
    /// A single longer line is a batch of its own.
    public func isFull(adding count: Int) -> Bool {
        !bytes.isEmpty && bytes.count + count + 1 > batch.bytes
    }

    /// The protocol of docs/design.md "State store", in order: commit the seen-set's pending
    /// claims (stale and future copies of handed-on records become duplicates first); write the
    /// kept lines whose claims held in one `sink.write` (claims lost to another writer become
    /// `duplicate` drops); hand every drop over in input order; then give back, in one
    /// transaction, the claims of the lines the sink reports it did not write, so a later run
    /// hands those readings on instead of dropping them as duplicates. A crash after
    /// the commit loses at most this batch's one write; nothing is ever handed on twice.
    /// The batch is empty afterwards.
    /// - Returns: what was written, not written and released; a failed release is reported in
    ///   the outcome (the lines are lost either way), not thrown.
    /// - Throws: `StoreError` from the lookup or the commit: then nothing of the batch is written
    ///   or claimed.
    public mutating func commit<Sink: FilterBatchSink>(to sink: inout Sink) throws -> FilterBatchOutcome {
        defer {
            bytes.removeAll(keepingCapacity: true)
            kept.removeAll(keepingCapacity: true)
            drops.removeAll(keepingCapacity: true)
            lookups.removeAll(keepingCapacity: true)
        }
        // Before the commit: a failed read then leaves no claim of the batch committed.
        if !lookups.isEmpty {
            let handedOn = try filter.seen.containedKeys(lookups.map(\.key))
            for (drop, key) in lookups where handedOn.contains(key) {
                drops[drop].why = .rule(.duplicate)
                drops[drop].age = nil
            }
        }
        let lost = try filter.seen.commitPending()
        if !lost.isEmpty { dropLost(lost) }
        var outcome = FilterBatchOutcome()
        if !kept.isEmpty {
            let written = bytes.withUnsafeBufferPointer { sink.write(kept: $0, lines: kept.count) }
            outcome.written = min(max(written, 0), kept.count)
            outcome.writtenReadings = kept[..<outcome.written].lazy.filter(\.isReading).count
            outcome.unwritten = kept.count - outcome.written
        }
        for drop in drops { sink.dropped(drop) }
        guard outcome.unwritten > 0 else { return outcome }
        let keys = kept[outcome.written...].compactMap(\.key)
        do {
            try filter.seen.release(keys)
            outcome.released = keys.count
        } catch {
            outcome.releaseError = error
        }
        return outcome
    }

    /// Takes the lines whose claims another writer committed first out of the batch: each
    /// becomes a `duplicate` drop, in input order among the other drops.
    private mutating func dropLost(_ lost: Set<SeenKey>) {
        var remaining: [UInt8] = [], still: [Kept] = [], start = 0
        for k in kept {
            let range = start..<k.end
            start = k.end
            if let key = k.key, lost.contains(key) {
                drops.append(FilterDrop(line: k.line, why: .rule(.duplicate), detail: nil, age: nil, field: nil,
                                        text: keepsDroppedText ? String(decoding: bytes[range.dropLast()], as: UTF8.self) : nil))
                continue
            }
            remaining.append(contentsOf: bytes[range])
            still.append(Kept(end: remaining.count, key: k.key, isReading: k.isReading, line: k.line))
        }
        bytes = remaining
        kept = still
        drops.sort { $0.line < $1.line }
    }
}

/// When `replay-filter` commits a batch of seen-set claims (docs/design.md "State store"). A
/// batch's claims are committed, durably, before its kept lines are written, so a crash (SIGKILL,
/// a power cut, a server that dies) between that commit and the write loses at most one batch's
/// lines and never hands a record on twice; each commit costs one sync of the store (about 2 ms
/// on a disk), so the bound is a trade between what a crash may lose and how often it syncs.
public struct CommitBatch: Equatable, Sendable {
    /// Most bytes of kept lines one batch holds: what a crash between a commit and its write can
    /// lose. A single longer line is a batch of its own.
    public var bytes: Int
    /// Longest a batch stays open, seconds, while its input keeps arriving without a pause (a
    /// read that would wait commits first anyway): how long a kept line may wait for its write.
    public var seconds: Double

    /// - Parameters: `bytes` at least 1; `seconds` at least 0.
    public init(bytes: Int, seconds: Double) {
        self.bytes = max(1, bytes)
        self.seconds = max(0, seconds)
    }

    /// 1 MiB of kept lines or 100 ms, whichever comes first: about 100 syncs for a million
    /// readings (64 KiB batches took 1,445, 3 s of fdatasync on the lab's disks).
    public static let standard = CommitBatch(bytes: 1 << 20, seconds: 0.1)
    /// The largest `bytes` a caller may ask for (a batch is held in memory until its commit).
    public static let maxBytes = 64 << 20
}
