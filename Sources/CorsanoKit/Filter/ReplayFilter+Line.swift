/// What `replay-filter` does with one input line.
public enum LineVerdict: Equatable, Sendable {
    /// A kept reading: write the line. `key` is its seen-set claim (nil for manual entries and
    /// unstamped readings); with a batching seen-set it is final once the batch committed
    /// without losing it.
    case keep(key: SeenKey?)
    /// A cuff-failure line (`{"error":…}`): not a reading, passed on for the consumer.
    case cuffFailure(CuffError)
    /// A dropped reading; `age` (seconds, negative when future) for stale/future, `detail` and
    /// the `field` at fault for invalid.
    case drop(DropReason, age: Double? = nil, detail: String? = nil, field: String? = nil)
    /// Not a reading line.
    case malformed(ReadingLineError)
}

extension ReplayFilter {
    /// Parses one line and judges its reading at `now` (UTC): the whole per-line path of
    /// `replay-filter` inside the core, so the reading never crosses a module boundary (it is
    /// the hot path: one call per input line). A reading line of the usual shape is judged on
    /// its essentials, without building a `CuffReading`; any other line goes through
    /// `ReadingLineParser`, which gives the same verdict.
    /// - Parameter validator: the `invalid` rule, applied before the host rules.
    /// - Throws: what the seen-set throws (`StoreError`).
    public func judge(line: UnsafeRawBufferPointer, now: Instant, validator: ReadingValidator) throws -> LineVerdict {
        var dates = RFC3339DayCache()
        return try judge(line: line, now: now, validator: validator, dates: &dates)
    }

    /// `judge(line:now:validator:)` for a stream of lines: `dates` remembers the last
    /// measuredAt date (input in time order mostly repeats it). The caller keeps it in a value
    /// type, so the per-line path has no runtime exclusivity checks.
    public func judge(line: UnsafeRawBufferPointer, now: Instant, validator: ReadingValidator,
                      dates: inout RFC3339DayCache) throws -> LineVerdict {
        var lookup: SeenKey?, manual = false
        let verdict = try judge(line: line, now: now, validator: validator, dates: &dates, lookup: &lookup, manual: &manual)
        // Rule 3 comes before age: a stale copy of a handed-on record is a duplicate.
        if let key = lookup, try seen.contains(key) { return .drop(.duplicate) }
        return verdict
    }

    /// `judge(line:now:validator:dates:)` leaving the seen-set read of a stale or future reading
    /// to the caller, as `judge(_:now:lookup:)` does; `manual` says whether the line is a
    /// reading marked `isManualEntry` (what the scanner passed, so no one reads the line again).
    func judge(line: UnsafeRawBufferPointer, now: Instant, validator: ReadingValidator,
               dates: inout RFC3339DayCache, lookup: inout SeenKey?, manual: inout Bool) throws -> LineVerdict {
        let typed = UnsafeBufferPointer(start: line.baseAddress?.assumingMemoryBound(to: UInt8.self), count: line.count)
        if let reading = FastReadingScanner.essentials(typed, dates: &dates) {
            manual = reading.isManualEntry
            return try judge(reading, now: now, validator: validator, lookup: &lookup)
        }
        manual = false
        switch ReadingLineParser.parse(line) {
        case .failure(let error):
            return .malformed(error)
        case .success(.cuffFailure(let failure)):
            return .cuffFailure(failure)
        case .success(.reading(let reading)):
            manual = reading.isManualEntry
            return try judge(ReadingEssentials(reading), now: now, validator: validator, lookup: &lookup)
        }
    }

    @inline(__always)
    private func judge(_ reading: ReadingEssentials, now: Instant, validator: ReadingValidator,
                       lookup: inout SeenKey?) throws -> LineVerdict {
        if let issue = validator.validate(systolic: reading.systolic, diastolic: reading.diastolic, pulse: reading.pulse) {
            return .drop(.invalid, detail: issue.reason, field: issue.field)
        }
        switch try judge(reading, now: now, lookup: &lookup) {
        case .keep: return .keep(key: SeenKey(reading))
        case .drop(let reason, let age): return .drop(reason, age: age)
        }
    }
}
