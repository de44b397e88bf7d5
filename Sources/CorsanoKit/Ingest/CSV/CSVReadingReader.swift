/// How one CSV input is to be read: what the user decided with flags.
public struct CSVOptions: Equatable, Sendable {
    /// The header row's line (`--header-line N`); nil finds it.
    public var headerLine: Int?
    /// The day/month order of numeric dates (`--date-order`); nil decides it from the rows.
    public var dateOrder: CSVDateOrder?
    /// A vendor layout the header must have (`--from csv:NAME`); nil detects it.
    public var layout: CSVLayout?
    /// Most bytes of rows held while the date order is undecided (64 MiB).
    public var holdLimit: Int
    /// Most bytes of lines looked through for the header row before giving up (1 MiB).
    public var headerSearchLimit: Int
    /// Roles given to columns (`--column ROLE=N|NAME`), over the alias table and the layout.
    public var columns: [CSVColumnAssignment]

    /// Creates options; the defaults find everything from the file.
    public init(headerLine: Int? = nil, dateOrder: CSVDateOrder? = nil, layout: CSVLayout? = nil,
                holdLimit: Int = 64 << 20, headerSearchLimit: Int = 1 << 20, columns: [CSVColumnAssignment] = []) {
        self.headerLine = headerLine
        self.dateOrder = dateOrder
        self.layout = layout
        self.holdLimit = holdLimit
        self.headerSearchLimit = headerSearchLimit
        self.columns = columns
    }
}

/// What was found about a reading table once its header was read.
public struct CSVTable: Equatable, Sendable {
    /// Line of the header row.
    public var line: Int
    /// The vendor layout's name, or `generic`.
    public var layout: String
    /// The field delimiter (`,`, `;` or TAB).
    public var delimiter: UInt8
    /// Named columns that hold no reading field.
    public var ignored: [String]
    /// Where the table itself places its naive stamps in time, overriding the run's zone
    /// (`--tz`) and anchor; nil when it does not.
    public var ownTime: OwnTime?

    /// A table's own time basis.
    public enum OwnTime: Equatable, Sendable {
        /// Each row in the zone its cell of this column names (OMRON connect's `Timezone`).
        case zoneColumn(String)
        /// The layout's naive stamps are UTC (its zone column only says where the phone was).
        case utc
    }
}

/// What the reader makes of the records of one input, in input order (rows held for the date
/// order come out when it is decided).
public enum CSVOutcome: Equatable, Sendable {
    /// A data row: a reading, a skip or a reject; `note` tells what was decided for it.
    case row(line: Int, raw: [UInt8], result: Result<IngestRecord, IngestIssue>, note: String?)
    /// Lines deliberately not read: `count` records on lines `lines`.
    case skipped(lines: ClosedRange<Int>, count: Int, reason: SkipReason, detail: String)
    /// The header row was found.
    case header(CSVTable)
    /// Something found about the table that changes no row (`FILE:LINE: note: ...`).
    case note(line: Int, message: String)
}

/// CSV records to readings: finds the header row (after preamble lines), maps its columns,
/// reads each row against it, stops at the end of the table, and decides the day/month order.
///
/// Rows with neither systolic nor diastolic are skipped (Withings writes heart-rate-only rows);
/// a row with only one of them, or with more or fewer cells than the header, is rejected. Naive
/// stamps become `deviceTime` (anchored later); stamps with an offset, a zone column or Unix
/// milliseconds become `measuredAt`. Rows keep file order (the OMRON report is newest first).
public struct CSVReadingReader {
    /// Options of this input.
    public let options: CSVOptions
    /// The mapped header, once read.
    public private(set) var header: CSVHeader?
    /// The layout, once the header is read.
    public private(set) var layout: CSVLayout?
    /// The day/month order in force, once known.
    public private(set) var dateOrder: CSVDateOrder?

    private enum Phase { case seeking, table, after }
    private var phase = Phase.seeking
    private var headerLine = 0
    private var headerProblem: IngestIssue?
    /// The field delimiter, once the header is read.
    public private(set) var delimiter: UInt8 = 44
    private var preamble: [CSVRawRecord] = []
    private var preambleBytes = 0
    private var searchExhausted = false
    private var orderSource = ""
    private var held: [CSVRawRecord] = []
    private var heldBytes = 0
    private var holdExhausted = false
    private var lastLine = 0
    private var sawBlank = false
    private var trailer: (first: Int, last: Int, count: Int, title: String)?
    private var zones: [String: ZoneReader] = [:]
    /// Reads the first rows' unmapped cells for stamps while the answer is open.
    private var stampSampler: CSVStampSampler?
    /// The header row, its table not yet announced: rows wait in `sampled` until the cells
    /// decide whether an unmapped column holds the rows' time (the header maps no stamp).
    private var pendingHeader: CSVRawRecord?
    private var sampled: [CSVRawRecord] = []
    /// Records under a header that cannot be read: counted, reported once at the end.
    private var unread: (first: Int, last: Int, count: Int)?

    /// Creates a reader expecting a header (after any preamble).
    public init(options: CSVOptions = CSVOptions()) {
        self.options = options
        dateOrder = options.dateOrder
        if options.dateOrder != nil { orderSource = "--date-order" }
    }

    /// Reads one record, handing what it completes to `emit`.
    public mutating func read(_ record: CSVRawRecord, _ emit: (CSVOutcome) throws -> Void) rethrows {
        defer { lastLine = record.lastLine }
        switch phase {
        case .seeking: try seek(record, emit)
        case .table: try tableRecord(record, emit)
        case .after:
            trailer?.last = record.lastLine
            trailer?.count += 1
        }
    }

    /// Ends the input: rows still held, the table's trailer, or a header never found.
    public mutating func finish(_ emit: (CSVOutcome) throws -> Void) rethrows {
        switch phase {
        case .seeking: try noHeader(emit)
        case .table, .after:
            try decideStamps(emit)
            try release(emit, final: true)
        }
        if let u = unread {
            try emit(.skipped(lines: u.first...u.last, count: u.count, reason: .unusableHeader,
                              detail: "line \(headerLine) is not a header corsano can read; see the error for it"))
            unread = nil
        }
        if let t = trailer {
            try emit(.skipped(lines: t.first...t.last, count: t.count, reason: .afterTable,
                              detail: "the reading table ended at the blank line before line \(t.first)" + (t.title.isEmpty ? "" : " ('\(t.title)')")))
            trailer = nil
        }
    }

    /// True when a data row may be read by the fast path now: the table is open and nothing is
    /// held (a row read there must be followed by `noteFastRow`).
    public var readyForFastRows: Bool { phase == .table && headerProblem == nil && held.isEmpty && stampSampler == nil }

    /// Records that the fast path read the row on `line` (a whole record on one line).
    public mutating func noteFastRow(line: Int) {
        lastLine = line
        sawBlank = false
    }

    // MARK: header

    private mutating func seek(_ record: CSVRawRecord, _ emit: (CSVOutcome) throws -> Void) rethrows {
        if let wanted = options.headerLine {
            if record.line < wanted { preamble.append(record); return }
            try takeHeader(record, emit)
            return
        }
        let d = CSVFields.detectDelimiter(record.bytes)
        let candidate = CSVHeader(cells: CSVFields.split(record.bytes, delimiter: d).cells, assignments: options.columns)
        if candidate.namesPressures, !record.overflowed {
            try takeHeader(record, emit)
            return
        }
        preambleBytes += record.bytes.count
        if preambleBytes > options.headerSearchLimit {
            searchExhausted = true
            try noHeader(emit, pending: record)
            return
        }
        preamble.append(record)
    }

    private mutating func takeHeader(_ record: CSVRawRecord, _ emit: (CSVOutcome) throws -> Void) rethrows {
        phase = .table
        headerLine = record.line
        delimiter = CSVFields.detectDelimiter(record.bytes)
        let mapped = CSVHeader(cells: CSVFields.split(record.bytes, delimiter: delimiter).cells, assignments: options.columns)
        header = mapped
        if let forced = options.layout {
            layout = forced
            if !forced.matches(mapped) {
                headerProblem = IngestIssue("header: not the \(forced.name) layout (it has the columns \(forced.signature.joined(separator: ", ")); this header has \(mapped.names.joined(separator: ", ")))")
            }
        } else {
            layout = CSVLayout.detect(mapped)
        }
        if dateOrder == nil, let order = layout?.dateOrder {
            dateOrder = order
            orderSource = "the \(layout!.name) layout"
        }
        if headerProblem == nil { headerProblem = mapped.problem }
        if record.overflowed { headerProblem = IngestIssue("header: longer than \(record.bytes.count) bytes") }
        if let first = preamble.first, let last = preamble.last {
            try emit(.skipped(lines: first.line...last.lastLine, count: preamble.count, reason: .beforeHeader,
                              detail: "the header is line \(headerLine)"))
        }
        preamble = []
        if let problem = headerProblem {
            try emit(.row(line: record.line, raw: record.bytes, result: .failure(problem), note: nil))
            return
        }
        // Cells decide: the columns no name maps are read for stamps. With no stamp
        // column mapped, rows wait until they tell (a reading is never written unstamped from a
        // file whose rows carry a time); with one, they only feed a note.
        var watched = mapped.names.indices.filter { i in !mapped.assigned.contains(i) && !mapped.columns.values.contains(i) }
        // A column named as a time of day with no date beside it is read too: its cells may be
        // date-times or Unix time under a renamed or translated header ("Time", "Čas").
        if mapped.timeWithoutDate != nil, let t = mapped.columns[.time], !mapped.assigned.contains(t) { watched.append(t) }
        if !watched.isEmpty { stampSampler = CSVStampSampler(columns: watched) }
        if stampSampler == nil, let issue = mapped.timeWithoutDate {
            headerProblem = issue
            try emit(.row(line: record.line, raw: record.bytes, result: .failure(issue), note: nil))
            return
        }
        if mapped.hasStamp || stampSampler == nil {
            try emit(.header(table))
        } else {
            pendingHeader = record
        }
    }

    private var table: CSVTable {
        CSVTable(line: headerLine, layout: layout?.name ?? CSVLayout.genericName, delimiter: delimiter,
                 ignored: header?.ignoredNames ?? [],
                 ownTime: layout?.stampsAreUTC == true ? .utc
                     : header.flatMap { h in h.columns[.zone].map { .zoneColumn(h.names[$0]) } })
    }

    /// Ends the stamp sampling: refuses a header whose unmapped columns hold the rows' time
    /// (naming each and the `--column` that reads it), or announces the table and lets the held
    /// rows go; with a stamp column mapped, names the other stamp columns in a note.
    private mutating func decideStamps(_ emit: (CSVOutcome) throws -> Void) rethrows {
        guard let sampler = stampSampler, let header else { return }
        stampSampler = nil
        // The time-of-day column watched for want of a date: a stamp of its own only when its
        // cells are date-times or Unix time (times of day are what its name says).
        let timeColumn = header.timeWithoutDate != nil ? header.columns[.time] : nil
        let misnamed = sampler.found.filter { $0.column == timeColumn && $0.kind.role == "datetime" }
        let found = sampler.found.filter { $0.column != timeColumn }
        func describe(_ f: CSVStampSampler.Found) -> String {
            let name = header.names[f.column].trimmingBlanks
            return (name.isEmpty ? "column \(f.column + 1) (no name)" : "column '\(name)' (\(f.column + 1))")
                + " holds \(f.kind.rawValue) ('\(f.example)' and \(f.stamps - 1) more of \(f.rows) rows)"
        }
        func assignment(_ f: CSVStampSampler.Found) -> String {
            let name = header.names[f.column].trimmingBlanks
            let plain = !name.isEmpty && name.utf8.allSatisfy { $0 > 32 && $0 < 127 && $0 != 39 && $0 != 34 && $0 != 92 }
            return "--column \(f.kind.role)=" + (plain ? name : "\(f.column + 1)")
        }
        if let record = pendingHeader {
            pendingHeader = nil
            let rows = sampled
            sampled = []
            heldBytes = 0
            var problem: IngestIssue?
            if !found.isEmpty {
                problem = IngestIssue("header: " + found.map(describe).joined(separator: "; ")
                    + " but no column name says it stamps the readings; readings would come out without their time. Name "
                    + (found.count == 1 ? "its role" : "their roles") + " with " + found.map(assignment).joined(separator: " ")
                    + " (or --column ignore=N to read them unstamped; see corsano-formats(5))")
            } else if let f = misnamed.first {
                problem = IngestIssue("header: " + describe(f) + ", not times of day as its name says, and no column holds the date; "
                    + "read it with " + assignment(f) + " (see corsano-formats(5))")
            } else if let issue = header.timeWithoutDate {
                problem = issue
            }
            if let problem {
                headerProblem = problem
                try emit(.row(line: record.line, raw: record.bytes, result: .failure(problem), note: nil))
                for row in rows { countUnread(row) }
                return
            }
            try emit(.header(table))
            for row in rows { try emitRow(row, emit) }
            return
        }
        if !found.isEmpty {
            try emit(.note(line: headerLine, message: "read the time from \(header.stampColumnName); also "
                + found.map(describe).joined(separator: "; ") + " (\(found.map(assignment).joined(separator: " ")) would read "
                + (found.count == 1 ? "it" : "them") + " instead, with --column ignore for the other)"))
        }
    }

    private mutating func countUnread(_ record: CSVRawRecord) {
        if var u = unread {
            u.last = record.lastLine
            u.count += 1
            unread = u
        } else {
            unread = (record.line, record.lastLine, 1)
        }
    }

    /// No header row: the first record says why, every other one is rejected with it.
    private mutating func noHeader(_ emit: (CSVOutcome) throws -> Void, pending: CSVRawRecord? = nil) rethrows {
        var records = preamble
        if let pending { records.append(pending) }
        preamble = []
        phase = .table
        let why = options.headerLine.map { "header: the file ends before line \($0) (--header-line)" }
            ?? (searchExhausted ? "header: no row in the first \(options.headerSearchLimit >> 10) KiB names systolic and diastolic columns"
                                : "header: no row names systolic and diastolic columns")
        headerProblem = IngestIssue(why + "; see corsano-formats(5) for the column names read, or give --header-line N")
        // One error for the problem: on the row that comes nearest to a header (the
        // most columns the alias table knows; the first row when none does), naming what it lacks.
        var best: (index: Int, known: Int)?
        for (n, record) in records.enumerated() where !record.overflowed {
            let d = CSVFields.detectDelimiter(record.bytes)
            let own = CSVHeader(cells: CSVFields.split(record.bytes, delimiter: d).cells, assignments: options.columns)
            let known = own.columns.count
            if best == nil || known > best!.known { best = (n, known) }
        }
        let pick = best?.index ?? 0
        for (n, record) in records.enumerated() {
            guard n == pick else { countUnread(record); continue }
            var reason = headerProblem!.reason
            headerLine = record.line
            if !record.overflowed {
                let d = CSVFields.detectDelimiter(record.bytes)
                let own = CSVHeader(cells: CSVFields.split(record.bytes, delimiter: d).cells, assignments: options.columns)
                if let p = own.problem, !own.columns.isEmpty || n == 0 {
                    reason = p.reason + "; " + reason.dropFirst("header: ".count)
                }
            }
            try emit(.row(line: record.line, raw: record.bytes, result: .failure(IngestIssue(reason)), note: nil))
        }
    }

    // MARK: rows

    private mutating func tableRecord(_ record: CSVRawRecord, _ emit: (CSVOutcome) throws -> Void) rethrows {
        if headerProblem != nil {
            countUnread(record)  // one error names the header's problem; these lines are counted once
            return
        }
        guard let header else { return }
        if record.line > lastLine + 1 { sawBlank = true }
        if !record.overflowed {
            let (cells, unterminated) = CSVFields.split(record.bytes, delimiter: delimiter)
            if !unterminated, cells.allSatisfy({ $0.trimmingBlanks.isEmpty }) { sawBlank = true; return }
            if sawBlank, cells.count != header.names.count || cells == header.names {
                try decideStamps(emit)
                try release(emit, final: true)
                phase = .after
                trailer = (record.line, record.lastLine, 1, cells.count == 1 ? cells[0].trimmingBlanks : "")
                return
            }
        }
        sawBlank = false
        if stampSampler != nil {
            if !record.overflowed {
                let (cells, unterminated) = CSVFields.split(record.bytes, delimiter: delimiter)
                if !unterminated, cells.count == header.names.count { stampSampler!.add(cells) }
            }
            if pendingHeader != nil {
                sampled.append(record)
                heldBytes += record.bytes.count
                if stampSampler!.decided || heldBytes > options.holdLimit { try decideStamps(emit) }
                return
            }
            if stampSampler!.decided { try decideStamps(emit) }
        }
        let waits = needsOrder(record)  // may decide the order: then the rows held so far go first
        if !held.isEmpty, dateOrder != nil { try release(emit, final: false) }
        if (waits && !holdExhausted) || !held.isEmpty {
            held.append(record)
            heldBytes += record.bytes.count
            if heldBytes > options.holdLimit {
                holdExhausted = true
                try release(emit, final: true)
            }
            return
        }
        try emitRow(record, emit)
    }

    /// True when the row's date is ambiguous and no order is known (it must wait).
    private mutating func needsOrder(_ record: CSVRawRecord) -> Bool {
        guard dateOrder == nil, let text = dateText(record) else { return false }
        switch CSVTimestamp.evidence(text) {
        case .ambiguous: return true
        case .implies(let order):
            dateOrder = order
            orderSource = "line \(record.line) ('\(text.trimmingBlanks)')"
            return false
        case .none: return false
        }
    }

    private func dateText(_ record: CSVRawRecord) -> String? {
        guard let header, !record.overflowed, let column = header.columns[.dateTime] ?? header.columns[.date] else { return nil }
        let cells = CSVFields.split(record.bytes, delimiter: delimiter).cells
        return column < cells.count ? cells[column] : nil
    }

    /// Emits held rows: when `final`, rows still ambiguous are rejected asking for `--date-order`.
    private mutating func release(_ emit: (CSVOutcome) throws -> Void, final: Bool) rethrows {
        let rows = held
        held = []
        heldBytes = 0
        for (n, record) in rows.enumerated() {
            if dateOrder == nil, !final, needsOrder(record) {
                held = Array(rows[n...])
                heldBytes = held.reduce(0) { $0 + $1.bytes.count }
                return
            }
            try emitRow(record, emit)
        }
    }

    private mutating func emitRow(_ record: CSVRawRecord, _ emit: (CSVOutcome) throws -> Void) rethrows {
        let outcome: CSVOutcome
        do throws(IngestIssue) {
            let (value, note) = try readRow(record)
            outcome = .row(line: record.line, raw: record.bytes, result: .success(value), note: note)
        } catch {
            outcome = .row(line: record.line, raw: record.bytes, result: .failure(error), note: nil)
        }
        try emit(outcome)
    }

    private mutating func readRow(_ record: CSVRawRecord) throws(IngestIssue) -> (IngestRecord, String?) {
        guard let header else { return (.none, nil) }
        if record.overflowed { throw IngestIssue("record: longer than \(record.bytes.count) bytes") }
        let (cells, unterminated) = CSVFields.split(record.bytes, delimiter: delimiter)
        if unterminated { throw IngestIssue("record: quoted cell not closed") }
        if cells.count != header.names.count {
            throw IngestIssue("record: \(cells.count) cells, the header (line \(headerLine)) has \(header.names.count)"
                + (cells.count > header.names.count && delimiter == 44 ? " (an unquoted decimal comma?)" : ""))
        }
        if let text = dateText(record), dateOrder != nil {
            if case .implies(let other) = CSVTimestamp.evidence(text), other != dateOrder {
                throw IngestIssue("date: '\(text.trimmingBlanks)' is not in \(dateOrder!.rawValue) order (decided by \(orderSource)); give --date-order if the file mixes orders")
            }
        } else if let text = dateText(record), CSVTimestamp.evidence(text) == .ambiguous {
            throw IngestIssue("date: '\(text.trimmingBlanks)' reads as day/month and as month/day and no row \(holdExhausted ? "in the first \(options.holdLimit >> 20) MiB " : "")tells which; give --date-order dmy|mdy")
        }
        let row = CSVRow(header: header, cells: cells, order: dateOrder, stampsAreUTC: layout?.stampsAreUTC ?? false)
        return try row.record { text in
            if let zone = zones[text] { return zone }
            guard let zone = CSVZoneCell.zone(text) else { return nil }
            if zones.count < 256 { zones[text] = zone }
            return zone
        }
    }
}

/// One data row read against its header.
struct CSVRow {
    let header: CSVHeader
    let cells: [String]
    let order: CSVDateOrder?
    let stampsAreUTC: Bool

    func cell(_ role: CSVHeader.Role) -> String? {
        guard let index = header.columns[role], index < cells.count else { return nil }
        return CSVValue.isMissing(cells[index]) ? nil : cells[index]
    }

    func field(_ role: CSVHeader.Role) -> String {
        guard let index = header.columns[role] else { return role.rawValue }
        return "\(role.rawValue) (column '\(header.names[index])')"
    }

    /// The row as a record, with a note when a repeated local hour was resolved.
    func record(zone lookup: (String) -> ZoneReader?) throws(IngestIssue) -> (IngestRecord, String?) {
        guard cell(.systolic) != nil || cell(.diastolic) != nil else { return (.skipped(.noPressure), nil) }
        var reading = CuffReading(systolic: try pressure(.systolic), diastolic: try pressure(.diastolic),
                                  pulse: try optionalNumber(.pulse, units: CSVValue.pulseUnits, factor: 1))
        if cell(.meanArterialPressure) != nil { reading.meanArterialPressure = try pressure(.meanArterialPressure) }
        var note: String?
        switch try stamp() {
        case .instant(let t)?: reading.measuredAt = t
        case .naive(let t)?:
            if stampsAreUTC {
                reading.measuredAt = t.asUTC
            } else if header.columns[.zone] != nil {
                guard let text = cell(.zone) else { throw IngestIssue("\(field(.zone)): missing (the row's time has no zone)") }
                guard let zone = lookup(text.trimmingBlanks) else {
                    throw IngestIssue("\(field(.zone)): '\(text)' is not a tz database zone or a UTC offset")
                }
                switch zone.reading(t, field: "measuredAt") {
                case .success(let (instant, n)): reading.measuredAt = instant; note = n
                case .failure(let issue): throw issue
                }
            } else {
                reading.deviceTime = t
            }
        case nil: break
        }
        if header.columns[.manual] != nil, let text = cell(.manual) {
            guard let manual = CSVValue.yesNo(text) else { throw IngestIssue("\(field(.manual)): '\(text)' is not yes or no") }
            reading.isManualEntry = manual
        }
        if let user = cell(.userId)?.trimmingBlanks {
            let raw = Int(user).map(String.init) ?? JSONValue.string(user).serialized
            reading.provenance.append(ProvenanceField(name: "userId", rawJSON: raw))
        }
        if let status = try status() { reading.provenance.append(ProvenanceField(name: "status", rawJSON: status.serialized)) }
        return (.reading(reading), note)
    }

    /// The row's measurement-status cells as the reading's `status` object (only the members
    /// whose columns the layout has; docs/design.md "Readings"), or nil without such columns.
    /// A flag cell is yes/no (`Yes`, `False`, `1`, …); OMRON connect's "Cuff wrap guide" and
    /// "Positioning Indicator" say `Good` when the cuff sat right and anything else when it did not
    /// (read as flagged: a doubtful verdict is never read as clean). `pulseRateRange` takes the
    /// SBM69 tool's `not_exceeded` and the GATT names. - Throws: `IngestIssue` naming the column.
    func status() throws(IngestIssue) -> JSONValue? {
        var members: [(String, JSONValue)] = []
        for role in CSVHeader.Role.statusRoles {
            guard let index = header.columns[role], let text = cell(role)?.trimmingBlanks else { continue }
            if role == .pulseRateRange {
                guard let range = Self.pulseRateRanges[text.lowercased()] else {
                    throw IngestIssue("\(field(role)): '\(text)' is not a pulse rate range (not_exceeded, exceedsUpperLimit, belowLowerLimit)")
                }
                members.append((role.rawValue, .string(range.name)))
            } else if Self.goodWhenGood.contains(CSVHeader.normalize(header.names[index]).key) {
                members.append((role.rawValue, .bool(text.lowercased() != "good")))
            } else {
                guard let set = CSVValue.yesNo(text) else { throw IngestIssue("\(field(role)): '\(text)' is not yes or no") }
                members.append((role.rawValue, .bool(set)))
            }
        }
        return members.isEmpty ? nil : .object(members)
    }

    /// `Pulse Rate Range` cells, lowercased, by range: the SBM69 tool's `not_exceeded` and the
    /// GATT names (`MeasurementStatus.PulseRateRange`); any other value is refused, not guessed.
    static let pulseRateRanges: [String: MeasurementStatus.PulseRateRange] = [
        "not_exceeded": .withinRange, "withinrange": .withinRange,
        "exceedsupperlimit": .exceedsUpperLimit, "belowlowerlimit": .belowLowerLimit,
    ]

    /// Status columns whose cells are a verdict, `Good` when the cuff sat right (OMRON connect's
    /// "Cuff wrap guide" and "Positioning Indicator"), by normalized name.
    static let goodWhenGood: Set<String> = [CSVHeader.normalize("Cuff wrap guide").key, CSVHeader.normalize("Positioning Indicator").key]

    func pressure(_ role: CSVHeader.Role) throws(IngestIssue) -> Int {
        guard let index = header.columns[role] else { throw IngestIssue("\(role.rawValue): missing") }
        let columnKPa = header.kPaColumns.contains(index)
        guard let value = try optionalNumber(role, units: ["mmhg", "kpa"], factor: columnKPa ? BLEReadingConverter.mmHgPerKPa : 1)
        else { throw IngestIssue("\(field(role)): missing") }
        return value
    }

    /// The cell of `role` as a whole number (rounded half away from zero), nil when missing.
    func optionalNumber(_ role: CSVHeader.Role, units: Set<String>, factor: Double) throws(IngestIssue) -> Int? {
        guard let text = cell(role) else { return nil }
        switch CSVValue.number(text) {
        case .missing: return nil
        case .notANumber: throw IngestIssue("\(field(role)): '\(text)' is not a number")
        case .value(let v, let unit):
            if let unit, !units.contains(unit) { throw IngestIssue("\(field(role)): unit '\(unit)' not understood") }
            let scaled = unit == "kpa" ? v * BLEReadingConverter.mmHgPerKPa : unit == "mmhg" ? v : v * factor
            guard let r = BLEReadingConverter.rounded(scaled) else { throw IngestIssue("\(field(role)): '\(text)' out of range") }
            return r
        }
    }

    func stamp() throws(IngestIssue) -> CSVTimestamp.Stamp? {
        if let ms = cell(.unixMilliseconds) {
            guard let t = CSVTimestamp.unixMilliseconds(ms) else {
                throw IngestIssue("\(field(.unixMilliseconds)): '\(ms)' is not Unix milliseconds")
            }
            return .instant(t)
        }
        let (role, text, time): (CSVHeader.Role, String?, String?) =
            if let dt = cell(.dateTime) { (.dateTime, dt, cell(.time)) }
            else if let d = cell(.date) { (.date, d, cell(.time)) }
            else { (header.columns[.dateTime] != nil ? .dateTime : .date, nil, nil) }
        guard let text else {
            // A stamp column whose cell is empty: the row has no time; never guess one.
            if header.hasStamp { throw IngestIssue("\(field(role)): missing") }
            return nil
        }
        // A date-time column of Unix seconds or milliseconds (`--column datetime=N` on an epoch column).
        if role == .dateTime, time == nil, let instant = CSVTimestamp.unixEpoch(text) { return .instant(instant) }
        guard let stamp = CSVTimestamp.parse(text, time: time, order: order) else {
            let shown = time.map { "'\(text)' '\($0)'" } ?? "'\(text)'"
            throw IngestIssue("\(field(role)): \(shown) is not a date and time of day")
        }
        return stamp
    }
}
