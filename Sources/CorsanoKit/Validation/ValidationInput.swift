/// Reading lines (docs/design.md "Data on the wire") read for a validation: the readings, and every line
/// that could not be used, each named `FILE:LINE: reason` (nothing is dropped silently).
public struct ValidationInput: Sendable {
    /// The usable readings, in input order.
    public var readings: [ValidationReading] = []
    /// Lines that are not a usable reading: malformed, a field wrong, no `measuredAt` (status 65).
    public var rejected: [String] = []
    /// Cuff failure lines (`{"error":"noReading"}`): no reading, counted and reported, not bad data.
    public var cuffFailures = 0
    /// Readings refused by the range check `cuff ingest` and `replay-filter` apply
    /// (`ReadingValidator.standard`): left out of the statistics, counted, and each in `rejected`.
    public var implausible = 0

    /// Creates an empty input.
    public init() {}

    /// Reads every line of `reader`, naming them `name:LINE`.
    /// - Throws: what the reader's source throws (the caller maps it to 66 or 74).
    public mutating func read(_ reader: LineReader, name: String) throws {
        while let item = try reader.next() {
            switch item {
            case .tooLong(let number, let count):
                rejected.append("\(name):\(number): line of \(count) bytes exceeds the \(reader.maxLineLength)-byte limit")
            case .line(let number, let bytes):
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }  // blank lines separate nothing
                add(ReadingLineParser.parse(bytes), origin: "\(name):\(number)")
            }
        }
    }

    /// Adds one parsed line from `origin` (`FILE:LINE`).
    public mutating func add(_ parsed: Result<ReadingLine, ReadingLineError>, origin: String) {
        switch parsed {
        case .failure(let error): rejected.append("\(origin): \(error)")
        case .success(.cuffFailure): cuffFailures += 1
        case .success(.reading(let reading)):
            // A value no cuff reports (−134, 0, 2·10⁹, diastolic above systolic) would move every
            // statistic: refused by ingest's own check, named, never averaged.
            if let issue = ReadingValidator.standard.validate(reading) {
                implausible += 1
                rejected.append("\(origin): \(issue.reason)")
                return
            }
            do { readings.append(try ValidationReading(reading, origin: origin)) } catch {
                rejected.append("\(origin): \(error)")
            }
        }
    }
}
