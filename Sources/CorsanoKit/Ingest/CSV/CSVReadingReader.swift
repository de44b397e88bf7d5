/// CSV records to readings: the first record is the header, every later one a row.
///
/// Rows with neither systolic nor diastolic are skipped (Withings writes heart-rate-only rows);
/// a row with only one of them is rejected. Naive stamps become `deviceTime` (anchored later),
/// stamps with a zone and Unix milliseconds become `measuredAt`. Rows keep file order (the
/// OMRON report is newest first; ordering is the consumer's business).
public struct CSVReadingReader: Sendable {
    /// The mapped header, once read.
    public private(set) var header: CSVHeader?
    private var headerLine = 0
    private var headerUnusable = false
    private var delimiter: UInt8 = 44

    /// Creates a reader expecting a header first.
    public init() {}

    /// Reads one record. - Throws: `IngestIssue` naming the field (or the header) at fault.
    public mutating func read(_ record: CSVRawRecord) throws(IngestIssue) -> IngestRecord {
        if record.overflowed { throw IngestIssue("record: longer than \(record.bytes.count) bytes") }
        guard let header else {
            delimiter = CSVFields.detectDelimiter(record.bytes)
            let mapped = CSVHeader(cells: CSVFields.split(record.bytes, delimiter: delimiter).cells)
            self.header = mapped
            headerLine = record.line
            if let problem = mapped.problem {
                headerUnusable = true
                throw problem
            }
            return .none
        }
        if headerUnusable { throw IngestIssue("header: line \(headerLine) names no systolic and diastolic columns") }
        let (cells, unterminated) = CSVFields.split(record.bytes, delimiter: delimiter)
        if unterminated { throw IngestIssue("record: quoted cell not closed") }
        if cells.allSatisfy({ $0.trimmingBlanks.isEmpty }) { return .none }
        return try CSVRow(header: header, cells: cells).record()
    }
}

/// One data row read against its header.
struct CSVRow {
    let header: CSVHeader
    let cells: [String]

    func cell(_ role: CSVHeader.Role) -> String? {
        guard let index = header.columns[role], index < cells.count else { return nil }
        return CSVValue.isMissing(cells[index]) ? nil : cells[index]
    }

    func field(_ role: CSVHeader.Role) -> String {
        guard let index = header.columns[role] else { return role.rawValue }
        return "\(role.rawValue) (column '\(header.names[index])')"
    }

    func record() throws(IngestIssue) -> IngestRecord {
        guard cell(.systolic) != nil || cell(.diastolic) != nil else { return .skipped(.noPressure) }
        var reading = CuffReading(systolic: try pressure(.systolic), diastolic: try pressure(.diastolic),
                                  pulse: try optionalNumber(.pulse, units: ["bpm", "/min", "beats/min", "min"], factor: 1))
        if cell(.meanArterialPressure) != nil { reading.meanArterialPressure = try pressure(.meanArterialPressure) }
        switch try stamp() {
        case .instant(let t)?: reading.measuredAt = t
        case .naive(let t)?: reading.deviceTime = t
        case nil: break
        }
        if let user = cell(.userId)?.trimmingBlanks {
            let raw = Int(user).map(String.init) ?? JSONValue.string(user).serialized
            reading.provenance.append(ProvenanceField(name: "userId", rawJSON: raw))
        }
        return .reading(reading)
    }

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
            if let dt = cell(.dateTime) { (.dateTime, dt, nil) }
            else if let d = cell(.date), let t = cell(.time) { (.date, d, t) }
            else if let d = cell(.date) { (.date, d, nil) }
            else { (.time, cell(.time), nil) }
        guard let text else { return nil }
        guard let stamp = CSVTimestamp.parse(text, time: time) else {
            let shown = time.map { "'\(text)' '\($0)'" } ?? "'\(text)'"
            throw IngestIssue("\(field(role)): \(shown) is not a date and time of day")
        }
        return stamp
    }
}
