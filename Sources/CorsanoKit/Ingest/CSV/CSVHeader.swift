/// Which reading field each column of a CSV export holds, mapped by column name through the
/// alias table (`CSVHeaderAliases`).
///
/// Names are compared after `normalize`: case folded, punctuation dropped, a unit in
/// parentheses (`(mmHg)`, `(bpm)`) set apart, a bracketed qualifier kept (`Blood Pressure
/// [Systolic]` is systolic), a dotted namespace stripped. `--column ROLE=N|NAME`
/// (`CSVColumnAssignment`) overrides the table for one column. Two columns of one meaning make
/// the header unusable: a reading is never read from the wrong column. Whether an unmapped
/// column holds the readings' time is decided by its cells (`CSVStampSampler`), not its name.
public struct CSVHeader: Equatable, Sendable {
    /// A reading field a column can hold.
    public enum Role: String, CaseIterable, Sendable {
        case systolic, diastolic, pulse, meanArterialPressure, dateTime, date, time, unixMilliseconds, userId, zone
        /// Whether the row was typed in by a person (`isManualEntry`): only by `--column manual=...`.
        case manual
        /// The cuff's own verdict on the measurement, written as the reading's `status` member of
        /// the same name (`ReadingQuality`; the 0x2A35 Measurement Status's fields).
        case bodyMovement, cuffTooLoose, irregularPulse, pulseRateRange, improperPosition

        /// The status roles, in the order `status` lists them.
        public static let statusRoles: [Role] = [.bodyMovement, .cuffTooLoose, .irregularPulse, .pulseRateRange, .improperPosition]

        /// True for the roles that stamp a row by themselves (a time column needs a date).
        public var stamps: Bool { self == .dateTime || self == .date || self == .unixMilliseconds }
    }

    /// Two columns that mean the same field (or two stamp columns that compete).
    public struct Duplicate: Equatable, Sendable {
        public let role: Role
        public let first: Int
        public let second: Int
    }

    /// Column index of each role found.
    public private(set) var columns: [Role: Int] = [:]
    /// The header cells as written, for messages.
    public let names: [String]
    /// The full normalized name of each column (namespace kept), for layout signatures.
    public private(set) var fullKeys: [String] = []
    /// Columns whose unit says kPa (their pressures are converted to mmHg).
    public private(set) var kPaColumns: Set<Int> = []
    /// Columns of one meaning found twice, in column order.
    public private(set) var duplicates: [Duplicate] = []
    /// Named columns that hold no reading field (reported once per input).
    public private(set) var ignored: [Int] = []
    /// Columns whose role `--column` gave (never sampled for stamps).
    public private(set) var assigned: Set<Int> = []
    /// `--column` assignments naming a column this header does not have.
    public private(set) var unresolved: [CSVColumnAssignment] = []

    static let aliases: [String: Role] = {
        var map: [String: Role] = [:]
        for alias in CSVHeaderAliases.all {
            let key = normalize(alias.name).key
            precondition(map[key] == nil || map[key] == alias.role, "alias '\(alias.name)' maps to two roles")
            map[key] = alias.role
        }
        return map
    }()

    /// Every alias of `role`, with its source (for docs and tests).
    public static func aliases(for role: Role) -> [CSVHeaderAlias] { CSVHeaderAliases.all.filter { $0.role == role } }

    /// The source of every alias entry.
    public static var aliasSources: [String] { CSVHeaderAliases.all.map(\.source) }

    /// Unit words a header may give in parentheses (normalized: `/min` is `min`).
    static let units: Set<String> = ["mmhg", "kpa", "bpm", "min", "1min", "countmin", "beatsmin", "pulsemin", "spm", "ppm"]

    /// Maps header cells to roles through the alias table, then applies `assignments`
    /// (`--column`): an assigned column takes its role (or none, for `ignore`), and a column the
    /// table gave the same role (any stamp role, for a stamp) is ignored instead.
    public init(cells: [String], assignments: [CSVColumnAssignment] = []) {
        names = cells
        var roles: [Role?] = []
        var units: [String?] = []
        for cell in cells {
            let (key, unit) = Self.normalize(cell)
            fullKeys.append(Self.normalize(cell, keepNamespace: true).key)
            roles.append(Self.aliases[key])
            units.append(unit)
        }
        for assignment in assignments {
            guard let index = assignment.index(in: cells) else { unresolved.append(assignment); continue }
            if let role = assignment.role {
                for i in roles.indices where !assigned.contains(i) && i != index
                    && (roles[i] == role || (role.stamps && roles[i]?.stamps == true)) {
                    roles[i] = nil
                }
            }
            roles[index] = assignment.role
            assigned.insert(index)
        }
        for (index, role) in roles.enumerated() {
            guard let role else {
                if !Self.normalize(cells[index]).key.isEmpty || assigned.contains(index) { ignored.append(index) }
                continue
            }
            if let first = columns[role] {
                duplicates.append(Duplicate(role: role, first: first, second: index))
                continue
            }
            columns[role] = index
            if units[index] == "kpa" { kPaColumns.insert(index) }
        }
        // Two ways of stamping a row compete just like two systolic columns do.
        let stamps = [Role.unixMilliseconds, .dateTime, .date].compactMap { r in columns[r].map { (r, $0) } }
        if stamps.count > 1 {
            duplicates.append(Duplicate(role: stamps[1].0, first: stamps[0].1, second: stamps[1].1))
        }
    }

    /// True when the row names systolic and diastolic columns: the header of a reading table.
    public var namesPressures: Bool { columns[.systolic] != nil && columns[.diastolic] != nil }

    /// Why a header whose unmapped columns hold no stamps still cannot stamp its rows, or nil.
    public var timeWithoutDate: IngestIssue? {
        guard !hasStamp, let t = columns[.time] else { return nil }
        return IngestIssue("header: column '\(names[t])' holds a time of day but no column holds the date")
    }

    /// The mapped stamp column(s) as `'Name' (N)`, for notes.
    var stampColumnName: String {
        [Role.unixMilliseconds, .dateTime, .date, .time].compactMap { columns[$0] }
            .map { "'\(names[$0].trimmingBlanks)' (\($0 + 1))" }.joined(separator: " and ")
    }

    /// True when some column stamps the rows.
    public var hasStamp: Bool { columns[.dateTime] != nil || columns[.date] != nil || columns[.unixMilliseconds] != nil }

    /// Why this header cannot map readings, or nil.
    public var problem: IngestIssue? {
        if let a = unresolved.first {
            return IngestIssue("header: --column \(a.text): \(a.column.description) is not a column of this header (columns: \(names.joined(separator: ", ")))")
        }
        let missing = [Role.systolic, .diastolic].filter { columns[$0] == nil }.map(\.rawValue)
        if !missing.isEmpty {
            let near = CSVLayout.nearest(self).map { "; it comes nearest to the \($0.layout.name) layout, which also has \($0.missing.joined(separator: ", "))" } ?? ""
            return IngestIssue("header: no \(missing.joined(separator: " or ")) column (columns: \(names.joined(separator: ", ")))\(near)")
        }
        if let d = duplicates.first {
            return IngestIssue("header: columns '\(names[d.first])' (\(d.first + 1)) and '\(names[d.second])' (\(d.second + 1)) both mean \(d.role == .date || d.role == .dateTime || d.role == .unixMilliseconds ? "the time of the reading" : d.role.rawValue); remove one")
        }
        return nil
    }

    /// The names of the ignored columns, for `columns ignored: ...`.
    public var ignoredNames: [String] { ignored.map { names[$0].trimmingBlanks } }

    /// The comparison key of a column name and the unit of its suffix, both lowercased:
    /// `Systolic (mmHg)` → (`systolic`, `mmhg`), `Blood Pressure [Systolic] (mmHg)` →
    /// (`bloodpressuresystolic`, `mmhg`), `com.samsung.health.blood_pressure.pulse` → (`pulse`, nil).
    static func normalize(_ name: String, keepNamespace: Bool = false) -> (key: String, unit: String?) {
        var text = Substring(name.lowercased())
        if !keepNamespace, !text.contains(" "), text.filter({ $0 == "." }).count >= 2,
           let dot = text.lastIndex(of: "."), text.index(after: dot) < text.endIndex {
            text = text[text.index(after: dot)...]
        }
        var key = String.UnicodeScalarView()
        var paren = String.UnicodeScalarView()
        var unit: String?
        var inParen = false
        func keep(_ s: Unicode.Scalar) -> Bool {
            s.properties.isAlphabetic || ("0"..."9").contains(s) || s.properties.generalCategory == .nonspacingMark
        }
        func closeParen() {
            let word = String(paren)
            if units.contains(word) { unit = word } else { key.append(contentsOf: paren) }
            paren.removeAll()
            inParen = false
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "(", "\u{FF08}": if inParen { closeParen() }; inParen = true
            case ")", "\u{FF09}": if inParen { closeParen() }
            default:
                guard keep(scalar) else { continue }
                if inParen { paren.append(scalar) } else { key.append(scalar) }
            }
        }
        if inParen { closeParen() }
        return (String(key), unit)
    }
}
