/// `--column ROLE=N|NAME`: the role of one CSV column, given by the user where the header's
/// names do not say it. N counts from 1; NAME is the header cell as written (blanks
/// around it ignored). It overrides the alias table and a `--from csv:LAYOUT` mapping.
public struct CSVColumnAssignment: Equatable, Sendable {
    /// Which column: its 1-based position or its exact name.
    public enum Column: Equatable, Sendable, CustomStringConvertible {
        case position(Int)
        case name(String)

        public var description: String {
            switch self {
            case .position(let n): return "column \(n)"
            case .name(let name): return "column '\(name)'"
            }
        }
    }

    /// The role words `--column` takes, in the order help lists them, with the field each
    /// reads (`ignore`: none, the column is read as no field).
    public static let roles: [(word: String, role: CSVHeader.Role?)] = [
        ("systolic", .systolic), ("diastolic", .diastolic), ("pulse", .pulse), ("map", .meanArterialPressure),
        ("date", .date), ("time", .time), ("datetime", .dateTime), ("zone", .zone), ("manual", .manual), ("ignore", nil),
    ]

    /// The field the column holds; nil for `ignore`.
    public let role: CSVHeader.Role?
    /// The column.
    public let column: Column
    /// The assignment as given (`datetime=When`), for messages.
    public let text: String

    /// Reads `ROLE=N|NAME`; nil when ROLE is not one of `roles` or the column part is empty.
    /// A column part of digits alone is a position (a header cell that is a number is named by
    /// its position).
    public init?(_ text: String) {
        guard let eq = text.firstIndex(of: "=") else { return nil }
        let word = String(text[..<eq]).lowercased()
        let rest = String(text[text.index(after: eq)...])
        guard let entry = Self.roles.first(where: { $0.word == word }), !rest.trimmingBlanks.isEmpty else { return nil }
        role = entry.role
        if let n = Int(rest), n >= 1, rest.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            column = .position(n)
        } else {
            column = .name(rest.trimmingBlanks)
        }
        self.text = text
    }

    /// The 0-based index of the column in a header with `cells`, or nil when it has none such.
    public func index(in cells: [String]) -> Int? {
        switch column {
        case .position(let n): return n <= cells.count ? n - 1 : nil
        case .name(let name): return cells.firstIndex { $0.trimmingBlanks == name }
        }
    }
}
