/// Which reading field each column of a CSV export holds, mapped by column name.
///
/// Names are compared case-insensitively with unit suffixes (`(mmHg)`, `[bpm]`) and
/// non-letters removed, so `Systolic (mmHg)`, `SYS` and `systolic_pressure` all mean systolic.
/// Synonyms come from the exports of real tools (omblepy, OMRON connect, Withings, SilverCrest
/// SBM69, Blood Pressure Monitor app; see Tests/Fixtures/csv).
public struct CSVHeader: Equatable, Sendable {
    /// A reading field a column can hold.
    public enum Role: String, CaseIterable, Sendable {
        case systolic, diastolic, pulse, meanArterialPressure, dateTime, date, time, unixMilliseconds, userId
    }

    /// Column index of each role found (the first column when several match).
    public private(set) var columns: [Role: Int] = [:]
    /// The header cells as written, for messages.
    public let names: [String]
    /// Columns whose unit suffix says kPa (their pressures are converted to mmHg).
    public private(set) var kPaColumns: Set<Int> = []

    static let synonyms: [String: Role] = {
        var map: [String: Role] = [:]
        let table: [(Role, [String])] = [
            (.systolic, ["sys", "systolic", "systolicpressure", "systole", "sbp", "systolicbp",
                         "systolicbloodpressure", "bloodpressuresystolic", "syst"]),
            (.diastolic, ["dia", "diastolic", "diastolicpressure", "diastole", "dbp", "diastolicbp",
                          "diastolicbloodpressure", "bloodpressurediastolic", "diast"]),
            (.pulse, ["pulse", "bpm", "heartrate", "pulserate", "pr", "hr", "pul", "heartbeat"]),
            (.meanArterialPressure, ["map", "meanarterialpressure", "meanpressure", "mean", "meanbloodpressure"]),
            (.dateTime, ["datetime", "timestamp", "measuredat", "measurementtime", "dateandtime", "recordedat",
                         "measurementdatetime", "localtime"]),
            (.date, ["date", "measurementdate", "day"]),
            (.time, ["time", "timeofday"]),
            (.unixMilliseconds, ["timestampunixms", "unixms", "timestampms", "epochms", "unixtimestampms",
                                 "unixtimems", "timems"]),
            (.userId, ["userid", "user", "usernumber", "userno"]),
        ]
        for (role, names) in table { for n in names { map[n] = role } }
        return map
    }()

    /// Maps header cells to roles.
    public init(cells: [String]) {
        names = cells
        for (index, cell) in cells.enumerated() {
            let (key, unit) = Self.normalize(cell)
            guard let role = Self.synonyms[key], columns[role] == nil else { continue }
            columns[role] = index
            if unit == "kpa" { kPaColumns.insert(index) }
        }
    }

    /// Why this header cannot map readings (no systolic or diastolic column), or nil.
    public var problem: IngestIssue? {
        let missing = [Role.systolic, .diastolic].filter { columns[$0] == nil }.map(\.rawValue)
        guard !missing.isEmpty else { return nil }
        return IngestIssue("header: no \(missing.joined(separator: " or ")) column (columns: \(names.joined(separator: ", ")))")
    }

    /// The comparison key of a column name and the unit of its suffix, both lowercased:
    /// `Systolic (mmHg)` → (`systolic`, `mmhg`), `Time Stamp` → (`timestamp`, nil).
    static func normalize(_ name: String) -> (key: String, unit: String?) {
        var key = ""
        var unit = ""
        var depth = 0
        for scalar in name.lowercased().unicodeScalars {
            switch scalar {
            case "(", "[": depth += 1
            case ")", "]": depth = max(0, depth - 1)
            default:
                guard scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) else { continue }
                if depth > 0 { unit.unicodeScalars.append(scalar) } else { key.unicodeScalars.append(scalar) }
            }
        }
        return (key, unit.isEmpty ? nil : unit)
    }
}
