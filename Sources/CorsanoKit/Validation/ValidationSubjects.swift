import Foundation

/// One study participant as the subjects file describes them (`validate --subjects FILE`,
/// docs/design.md "Validation", corsano-formats(5) "Subjects"): what ISO 81060-2's population
/// requirements need that reading lines do not carry.
public struct SubjectRecord: Equatable, Sendable {
    /// Sex as the standard counts it (ISO 81060-2:2018, 5.1): female or male.
    public enum Sex: String, Equatable, Sendable {
        case female, male
    }

    /// The subject, as `subject` on the reading lines names them.
    public var id: String
    /// Female or male; nil when the file leaves it empty.
    public var sex: Sex?
    /// Age in years; nil when empty.
    public var age: Double?
    /// Upper-arm circumference, cm; nil when empty.
    public var armCircumference: Double?
    /// The reference cuff used (a size name); nil when empty.
    public var cuff: String?

    /// Creates a record.
    public init(id: String, sex: Sex? = nil, age: Double? = nil, armCircumference: Double? = nil, cuff: String? = nil) {
        self.id = id
        self.sex = sex
        self.age = age
        self.armCircumference = armCircumference
        self.cuff = cuff
    }
}

/// The subjects file of a validation: CSV with a header (`id,sex,age,armCircumference,cuff`, any
/// order, `,`/`;`/TAB) or JSON lines (`{"subject":"P01","sex":"female","age":34,…}`), told apart
/// by the first non-blank line (`{` is JSON). Every line that cannot be used is named
/// `FILE:LINE: field: reason` (status 65); nothing is guessed.
public struct ValidationSubjects: Sendable {
    /// The records by id.
    public var records: [String: SubjectRecord] = [:]
    /// Lines that could not be used.
    public var rejected: [String] = []

    /// The field names (CSV header cells or JSON members), case and separators ignored:
    /// `arm_circumference`, `Arm circumference` and `armCircumference` are one name.
    static let names: [String: String] = [
        "id": "id", "subject": "id", "subjectid": "id", "sex": "sex", "age": "age",
        "armcircumference": "armCircumference", "arm": "armCircumference", "cuff": "cuff", "cuffsize": "cuff",
    ]

    static func canonical(_ name: String) -> String? {
        names[String(name.lowercased().filter { $0.isLetter || $0.isNumber })]
    }

    /// Creates an empty set.
    public init() {}

    /// Reads every line of `reader`, naming them `name:LINE`.
    /// - Throws: what the reader's source throws (the caller maps it to 66 or 74).
    public mutating func read(_ reader: LineReader, name: String) throws {
        var header: [String?]?
        var delimiter: UInt8 = 44
        var json: Bool?
        while let item = try reader.next() {
            switch item {
            case .tooLong(let number, let count):
                rejected.append("\(name):\(number): line of \(count) bytes exceeds the \(reader.maxLineLength)-byte limit")
            case .line(let number, let line):
                var bytes = Array(line)
                if bytes.last == 13 { bytes.removeLast() }
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                let origin = "\(name):\(number)"
                if json == nil { json = bytes.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{") }
                if json == true {
                    addJSON(bytes, origin: origin)
                } else if let columns = header {
                    addCSV(CSVFields.split(bytes, delimiter: delimiter), columns: columns, origin: origin)
                } else {
                    delimiter = CSVFields.detectDelimiter(bytes)
                    let cells = CSVFields.split(bytes, delimiter: delimiter).cells
                    let columns = cells.map(Self.canonical)
                    guard columns.contains("id") else {
                        rejected.append("\(origin): header: no id column (expected id,sex,age,armCircumference,cuff)")
                        return
                    }
                    header = columns
                }
            }
        }
    }

    private mutating func addCSV(_ split: (cells: [String], unterminatedQuote: Bool), columns: [String?], origin: String) {
        guard !split.unterminatedQuote else { rejected.append("\(origin): a quoted cell does not end"); return }
        var fields: [String: String] = [:]
        for (cell, column) in zip(split.cells, columns) {
            guard let column else { continue }
            let text = cell.trimmingCharacters(in: .whitespaces)
            if !text.isEmpty { fields[column] = text }
        }
        add(fields: fields.mapValues { .string($0) }, origin: origin)
    }

    private mutating func addJSON(_ bytes: [UInt8], origin: String) {
        guard case .object(let members)? = try? JSONValue.parse(bytes) else {
            rejected.append("\(origin): not a JSON object")
            return
        }
        var fields: [String: JSONValue] = [:]
        for (key, value) in members {
            guard let column = Self.canonical(key) else { continue }
            if value != .null { fields[column] = value }
        }
        add(fields: fields, origin: origin)
    }

    private mutating func add(fields: [String: JSONValue], origin: String) {
        func text(_ name: String) -> String? {
            switch fields[name] {
            case .string(let s)?: return s
            case .int(let i)?: return String(i)
            default: return nil
            }
        }
        func number(_ name: String, _ range: ClosedRange<Double>, unit: String) -> (Double?, String?) {
            guard let value = fields[name] else { return (nil, nil) }
            let x: Double?
            switch value {
            case .int(let i): x = Double(i)
            case .double(let d): x = d
            case .string(let s): x = Double(s.replacingOccurrences(of: ",", with: "."))
            default: x = nil
            }
            guard let x, x.isFinite else { return (nil, "\(origin): \(name): not a number") }
            guard range.contains(x) else {
                return (nil, "\(origin): \(name): \(ValidationSummary.mmHg(x)) \(unit) outside \(Int(range.lowerBound))-\(Int(range.upperBound))")
            }
            return (x, nil)
        }
        guard let id = text("id"), !id.isEmpty else { rejected.append("\(origin): id: missing"); return }
        guard records[id] == nil else { rejected.append("\(origin): id: subject \(JSONString.quoted(id)) listed twice"); return }
        var record = SubjectRecord(id: id)
        if let sex = text("sex") {
            switch sex.lowercased() {
            case "f", "female", "w", "woman": record.sex = .female
            case "m", "male", "man": record.sex = .male
            default:
                rejected.append("\(origin): sex: \(JSONString.quoted(sex)) is neither female (f) nor male (m)")
                return
            }
        }
        // Plausible ranges catch a unit or column mix-up (months for years, inches for cm), not
        // clinical extremes.
        let (age, ageProblem) = number("age", 0...130, unit: "years")
        let (arm, armProblem) = number("armCircumference", 5...100, unit: "cm")
        if let problem = ageProblem ?? armProblem { rejected.append(problem); return }
        record.age = age
        record.armCircumference = arm
        record.cuff = text("cuff")
        records[id] = record
    }
}
