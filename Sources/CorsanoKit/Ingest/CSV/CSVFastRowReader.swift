/// The byte-level fast path for CSV data rows: one pass over a row's bytes, no copies, no
/// Strings, for the shapes exports mostly have (unquoted cells, integer pressures, ISO-like
/// stamps `YYYY-MM-DD HH:MM[:SS]` or `YYYY/MM/DD HH:MM`, an optional zone column).
///
/// It only ever answers with a reading the full reader (`CSVReadingReader`) would give for the
/// same row, or declines (nil) and leaves the row to it: quotes, units, missing markers,
/// decimals, other date forms, a stamp near a DST change, a cell count that differs — anything
/// that needs a message or a decision goes the full way. The fuzz target checks the two agree.
public struct CSVFastRowReader {
    private enum Slot: UInt8 { case none = 0, systolic, diastolic, pulse, map, dateTime, date, time, zone }
    private let slots: [Slot]
    private let present: [Bool]
    private let delimiter: UInt8
    private let hasZone: Bool
    private let stampsAreUTC: Bool
    /// Start and end offsets of each slot's cell in the row being read.
    private var starts = [Int](repeating: 0, count: 9)
    private var ends = [Int](repeating: 0, count: 9)
    /// The zones of the zone column seen so far (few in practice), each with its day cache.
    private var zones: [(cell: [UInt8], zone: ZoneReader, days: ZoneDayCache)] = []
    private var lastZone = 0

    /// A fast path for rows under `header`, or nil when the header has columns it does not
    /// cover (user ids, Unix milliseconds, kPa units).
    public init?(header: CSVHeader, delimiter: UInt8, layout: CSVLayout?) {
        guard header.problem == nil, header.columns[.userId] == nil, header.columns[.unixMilliseconds] == nil, header.columns[.manual] == nil,
              !CSVHeader.Role.statusRoles.contains(where: { header.columns[$0] != nil }),
              header.kPaColumns.isEmpty, header.names.count <= 256 else { return nil }
        var slots = [Slot](repeating: .none, count: header.names.count)
        let map: [(CSVHeader.Role, Slot)] = [(.systolic, .systolic), (.diastolic, .diastolic), (.pulse, .pulse),
                                             (.meanArterialPressure, .map), (.dateTime, .dateTime), (.date, .date),
                                             (.time, .time), (.zone, .zone)]
        for (role, slot) in map { if let i = header.columns[role] { slots[i] = slot } }
        self.slots = slots
        present = (0..<9).map { raw in slots.contains { $0.rawValue == raw && raw != 0 } }
        self.delimiter = delimiter
        stampsAreUTC = layout?.stampsAreUTC ?? false
        hasZone = header.columns[.zone] != nil && !stampsAreUTC
    }

    /// The reading of `row` (its bytes without the line end), or nil to leave it to the full reader.
    public mutating func read(_ row: UnsafeRawBufferPointer) -> CuffReading? {
        guard splitCells(row) else { return nil }
        guard let sys = integer(row, .systolic, required: true), let dia = integer(row, .diastolic, required: true),
              let pulse = integer(row, .pulse, required: false), let map = integer(row, .map, required: false)
        else { return nil }
        guard let naive = stamp(row) else { return nil }
        var reading = CuffReading(systolic: sys, diastolic: dia, pulse: pulse < 0 ? nil : pulse,
                                  meanArterialPressure: map < 0 ? nil : map)
        if stampsAreUTC {
            reading.measuredAt = naive.asUTC
        } else if hasZone {
            guard let z = zone(row), let instant = zones[z].days.instant(naive, in: zones[z].zone) else { return nil }
            reading.measuredAt = instant
        } else {
            reading.deviceTime = naive
        }
        return reading
    }

    /// Finds the cells of the wanted columns; false on a quote, a stray CR, or a cell count
    /// other than the header's.
    private mutating func splitCells(_ row: UnsafeRawBufferPointer) -> Bool {
        let n = row.count
        guard n > 0 else { return false }
        var column = 0
        var cellStart = 0
        let count = slots.count
        var i = 0
        while i < n {
            let b = row[i]
            if b == delimiter {
                let s = slots[column]
                if s != .none { starts[Int(s.rawValue)] = cellStart; ends[Int(s.rawValue)] = i }
                column += 1
                guard column < count else { return false }
                cellStart = i + 1
            } else if b == 34 || b == 13 || b == 10 {
                return false
            }
            i += 1
        }
        guard column == count - 1 else { return false }
        let s = slots[column]
        if s != .none { starts[Int(s.rawValue)] = cellStart; ends[Int(s.rawValue)] = n }
        return true
    }

    private func bounds(_ slot: Slot) -> (Int, Int)? {
        guard present[Int(slot.rawValue)] else { return nil }
        return (starts[Int(slot.rawValue)], ends[Int(slot.rawValue)])
    }

    /// The cell as a whole number: digits, optionally `.0…` (Samsung writes `124.0`); -1 when
    /// the cell is empty and not `required`; nil for anything else.
    private func integer(_ row: UnsafeRawBufferPointer, _ slot: Slot, required: Bool) -> Int? {
        guard let (s, e) = bounds(slot) else { return required ? nil : -1 }
        if s == e { return required ? nil : -1 }
        var i = s, v = 0
        while i < e, i - s < 4 {
            let d = row[i] &- 48
            guard d < 10 else { break }
            v = v * 10 + Int(d)
            i += 1
        }
        guard i > s else { return nil }
        if i < e {
            guard row[i] == 46, i + 1 < e else { return nil }
            i += 1
            while i < e, row[i] == 48 { i += 1 }
            guard i == e else { return nil }
        }
        return v
    }

    /// `YYYY-MM-DD`, `YYYY/MM/DD` or `YYYY.MM.DD`, then (in the same cell, after a space or `T`,
    /// or in the time column) `H:MM` or `HH:MM[:SS]`.
    private func stamp(_ row: UnsafeRawBufferPointer) -> NaiveDateTime? {
        let dateCell: (Int, Int)
        var timeCell: (Int, Int)?
        if let dt = bounds(.dateTime) {
            dateCell = dt
            timeCell = bounds(.time)
        } else if let d = bounds(.date) {
            dateCell = d
            timeCell = bounds(.time)
        } else {
            return nil
        }
        var i = dateCell.0
        let e = dateCell.1
        guard e - i >= 10 else { return nil }
        func digits(_ at: Int, _ k: Int) -> Int? {
            var v = 0
            for j in at..<at + k {
                let d = row[j] &- 48
                guard d < 10 else { return nil }
                v = v * 10 + Int(d)
            }
            return v
        }
        let sep = row[i + 4]
        guard let year = digits(i, 4), sep == 45 || sep == 47 || sep == 46, let month = digits(i + 5, 2), row[i + 7] == sep,
              let day = digits(i + 8, 2) else { return nil }
        i += 10
        var (ts, te): (Int, Int)
        if let t = timeCell {
            guard i == e, t.0 < t.1 else { return nil }
            (ts, te) = t
        } else {
            guard i < e, row[i] == 32 || row[i] == 84 else { return nil }
            (ts, te) = (i + 1, e)
        }
        // H:MM, HH:MM, HH:MM:SS
        let hourDigits = ts + 1 < te && row[ts + 1] == 58 ? 1 : 2
        guard te - ts >= hourDigits + 3, let hour = digits(ts, hourDigits), row[ts + hourDigits] == 58,
              let minute = digits(ts + hourDigits + 1, 2) else { return nil }
        var second = 0
        let after = ts + hourDigits + 3
        if after < te {
            guard te - after == 3, row[after] == 58, let s = digits(after + 1, 2) else { return nil }
            second = s
        }
        return NaiveDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The index in `zones` of the row's zone (looked up once per distinct cell text).
    private mutating func zone(_ row: UnsafeRawBufferPointer) -> Int? {
        guard let (s, e) = bounds(.zone), s < e else { return nil }
        let cell = UnsafeRawBufferPointer(rebasing: row[s..<e])
        if lastZone < zones.count, cell.elementsEqual(zones[lastZone].cell) { return lastZone }
        if let i = zones.firstIndex(where: { cell.elementsEqual($0.cell) }) {
            lastZone = i
            return i
        }
        guard zones.count < 64, let zone = CSVZoneCell.zone(String(decoding: cell, as: UTF8.self)) else { return nil }
        zones.append((Array(cell), zone, ZoneDayCache()))
        lastZone = zones.count - 1
        return lastZone
    }
}

/// The offset of a zone over one local day, when it does not change within a margin around it:
/// then every wall time of that day names exactly one instant, `local - offset`, the same
/// instant `ZoneReader.resolve` gives; a day with a change gets nil (callers take the full way).
public struct ZoneDayCache: Sendable {
    private var day: Int64 = .min
    private var offset: Int64?

    /// Creates an empty cache (one cache serves one zone).
    public init() {}

    /// The instant of `stamp` in `zone` when its local day has one offset, else nil.
    public mutating func instant(_ stamp: NaiveDateTime, in zone: ZoneReader) -> Instant? {
        let local = stamp.secondsSinceEpoch
        let d = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        if d != day {
            day = d
            // ±2 days covers every offset (at most ±26 h) around the ±1 day `resolve` looks at.
            offset = zone.constantOffset(from: (d - 2) * 86_400, to: (d + 3) * 86_400)
        }
        guard let offset else { return nil }
        return Instant(secondsSinceEpoch: local - offset)
    }
}
