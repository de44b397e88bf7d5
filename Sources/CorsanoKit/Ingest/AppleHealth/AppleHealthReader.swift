/// Reads the blood pressure of an Apple Health export.xml (docs/design.md "Cuff input formats",
/// `applehealth`; the export's own DTD: "Any Records that appear as children of a correlation
/// also appear as top-level records in this document").
///
/// A reading is one `Correlation` of type `HKCorrelationTypeIdentifierBloodPressure` (a child of
/// `HealthData`) holding a systolic and a diastolic `Record`; `measuredAt` is its `startDate`
/// with the stamp's own UTC offset; `HKWasUserEntered` = 1 on it or its records makes it a
/// manual entry; its `sourceName` (the app) and `device` are kept as provenance. The top-level
/// copies of its records are counted, never read again; every other record is counted.
/// Pulse is a separate record (`HKQuantityTypeIdentifierHeartRate`): `heartRates` finds those of
/// a source at an instant, for a second pass over the file.
public enum AppleHealthReader {
    /// One blood-pressure correlation: a reading, or why not, with its line.
    public struct Item: Sendable {
        /// Line of the `<Correlation` tag.
        public var line: Int
        /// The reading (pulse nil until joined), or the reason it is not one.
        public var result: Result<CuffReading, IngestIssue>
        /// The source name and instant to join a heart-rate record on (nil when either is missing).
        public var joinKey: JoinKey?
        /// The tag, shortened, for a reject's raw text.
        public var raw: String
    }

    /// A heart-rate record's identity for the pulse join: the same app at the same instant.
    public struct JoinKey: Hashable, Sendable {
        public var sourceName: String
        public var at: Instant
    }

    /// What the file held besides blood-pressure correlations.
    public struct Tally: Equatable, Sendable {
        /// Top-level copies of correlation records (blood-pressure systolic and diastolic records).
        public var correlationCopies = 0
        /// Top-level heart-rate records.
        public var heartRates = 0
        /// Other top-level records, correlations and elements (`Workout`, `ActivitySummary`, ...).
        public var other = 0
    }

    /// What a heart-rate pass found for one join key.
    public enum Pulse: Equatable, Sendable {
        case bpm(Int)
        /// Records of the same source at the same instant disagree: no pulse is chosen.
        case ambiguous
    }

    /// Reads every blood-pressure correlation of the export in `source`, in file order.
    /// - Throws: `HealthXMLError` at a construct the scanner does not read or when the root is
    ///   not `HealthData`; `ByteSourceError`; what `each` throws.
    /// `bufferSize`: the scanner's first buffer, bytes (it grows for a longer construct).
    public static func readBloodPressure(_ source: any ByteSource, willRead: (() throws -> Void)? = nil, bufferSize: Int = 1 << 20,
                                         each: (Item) throws -> Void) throws -> Tally {
        var scanner = HealthXMLScanner(source: source, chunk: bufferSize)
        defer { scanner.deallocate() }
        scanner.willRead = willRead
        var tally = Tally()
        var open: Pending?
        while let event = try scanner.next() {
            switch event {
            case .start(let selfClosing):
                let level = scanner.depth + (selfClosing ? 1 : 0)
                if level == 1 {
                    guard scanner.nameIs("HealthData") else {
                        throw HealthXMLError(line: scanner.tagLine, reason: "root element <\(String(decoding: scanner.name, as: UTF8.self))>, not <HealthData>: not an Apple Health export")
                    }
                    continue
                }
                if var pending = open {
                    pending.read(&scanner, level: level)
                    open = pending
                    continue
                }
                guard level == 2 else { continue }
                if scanner.nameIs("Record") {
                    guard let t = scanner.attribute("type") else { tally.other += 1; continue }
                    if scanner.value(t, is: "HKQuantityTypeIdentifierBloodPressureSystolic")
                        || scanner.value(t, is: "HKQuantityTypeIdentifierBloodPressureDiastolic") {
                        tally.correlationCopies += 1
                    } else if scanner.value(t, is: "HKQuantityTypeIdentifierHeartRate") {
                        tally.heartRates += 1
                    } else {
                        tally.other += 1
                    }
                } else if scanner.nameIs("Correlation"), let t = scanner.attribute("type"),
                          scanner.value(t, is: "HKCorrelationTypeIdentifierBloodPressure") {
                    let pending = Pending(&scanner)
                    if selfClosing { try each(pending.finish()) } else { open = pending }
                } else {
                    tally.other += 1
                }
            case .end:
                if let pending = open, scanner.depth == 1 {
                    open = nil
                    try each(pending.finish())
                }
            }
        }
        return tally
    }

    /// The heart rates of the top-level records whose source and instant are in `wanted`.
    /// - Throws: as `readBloodPressure`.
    public static func heartRates(_ source: any ByteSource, wanted: Set<JoinKey>,
                                  willRead: (() throws -> Void)? = nil, bufferSize: Int = 1 << 20) throws -> [JoinKey: Pulse] {
        var found: [JoinKey: Pulse] = [:]
        guard !wanted.isEmpty else { return found }
        let sources = Set(wanted.map(\.sourceName)).map { Array($0.utf8) }
        var scanner = HealthXMLScanner(source: source, chunk: bufferSize)
        defer { scanner.deallocate() }
        scanner.willRead = willRead
        while let event = try scanner.next() {
            guard case .start(let selfClosing) = event, scanner.depth + (selfClosing ? 1 : 0) == 2,
                  scanner.nameIs("Record"), let t = scanner.attribute("type"),
                  scanner.value(t, is: "HKQuantityTypeIdentifierHeartRate"), let s = scanner.attribute("sourceName") else { continue }
            // Most heart-rate records come from a watch, not the cuff's app: compare bytes first.
            if let raw = scanner.rawValue(s), !sources.contains(where: { $0.elementsEqual(raw) }) { continue }
            guard let d = scanner.attribute("startDate"), let at = AppleHealthStamp.instant(scanner.value(d)) else { continue }
            let key = JoinKey(sourceName: scanner.value(s), at: at)
            guard wanted.contains(key), let v = scanner.attribute("value"),
                  case .value(let bpm, _) = CSVValue.number(scanner.value(v)), let pulse = BLEReadingConverter.rounded(bpm) else { continue }
            if let known = found[key], known != .bpm(pulse) { found[key] = .ambiguous } else { found[key] = .bpm(pulse) }
        }
        return found
    }

    /// A correlation being read.
    struct Pending {
        var line: Int
        var sourceName: String?
        var device: String?
        var start: String?
        var manual = false
        var systolic: String?, diastolic: String?
        var systolicUnit: String?, diastolicUnit: String?
        /// Which child record is open (its metadata may say `HKWasUserEntered`).
        var inRecord = false

        init(_ scanner: inout HealthXMLScanner) {
            line = scanner.tagLine
            sourceName = scanner.attribute("sourceName").map { scanner.value($0) }
            device = scanner.attribute("device").map { scanner.value($0) }
            start = scanner.attribute("startDate").map { scanner.value($0) }
        }

        /// A start tag inside the correlation at `level` (the correlation is at 2).
        mutating func read(_ scanner: inout HealthXMLScanner, level: Int) {
            if scanner.nameIs("MetadataEntry"), level <= 4, let k = scanner.attribute("key"),
               scanner.value(k, is: "HKWasUserEntered"), let v = scanner.attribute("value"), scanner.value(v, is: "1") {
                manual = true
            }
            guard level == 3, scanner.nameIs("Record"), let t = scanner.attribute("type") else { return }
            let value = scanner.attribute("value").map { scanner.value($0) }
            let unit = scanner.attribute("unit").map { scanner.value($0) }
            if scanner.value(t, is: "HKQuantityTypeIdentifierBloodPressureSystolic") {
                (systolic, systolicUnit) = (value ?? "", unit)
            } else if scanner.value(t, is: "HKQuantityTypeIdentifierBloodPressureDiastolic") {
                (diastolic, diastolicUnit) = (value ?? "", unit)
            }
        }

        func finish() -> Item {
            let raw = #"<Correlation type="HKCorrelationTypeIdentifierBloodPressure""#
                + (sourceName.map { #" sourceName="\#($0)""# } ?? "") + (start.map { #" startDate="\#($0)""# } ?? "")
                + " systolic=\(systolic ?? "none") diastolic=\(diastolic ?? "none")>"
            func fail(_ reason: String) -> Item { Item(line: line, result: .failure(IngestIssue(reason)), joinKey: nil, raw: raw) }
            func pressure(_ field: String, _ text: String?, _ unit: String?) -> Result<Int, IngestIssue> {
                guard let text else { return .failure(IngestIssue("\(field): the correlation has no \(field) record")) }
                guard unit == nil || unit == "mmHg" else { return .failure(IngestIssue("\(field): unit '\(unit!)', not mmHg")) }
                guard case .value(let v, .none) = CSVValue.number(text), let r = BLEReadingConverter.rounded(v) else {
                    return .failure(IngestIssue("\(field): '\(text)' is not a number"))
                }
                return .success(r)
            }
            let sys: Int, dia: Int
            switch pressure("systolic", systolic, systolicUnit) { case .success(let v): sys = v; case .failure(let e): return fail(e.reason) }
            switch pressure("diastolic", diastolic, diastolicUnit) { case .success(let v): dia = v; case .failure(let e): return fail(e.reason) }
            guard let start else { return fail("startDate: missing") }
            guard let at = AppleHealthStamp.instant(start) else {
                return fail("startDate: '\(start)' is not YYYY-MM-DD HH:MM:SS ±HHMM")
            }
            var provenance: [ProvenanceField] = []
            if let sourceName { provenance.append(ProvenanceField(name: "sourceName", rawJSON: JSONValue.string(sourceName).serialized)) }
            if let device { provenance.append(ProvenanceField(name: "device", rawJSON: JSONValue.string(device).serialized)) }
            let reading = CuffReading(systolic: sys, diastolic: dia, pulse: nil, measuredAt: at, isManualEntry: manual,
                                      provenance: provenance)
            return Item(line: line, result: .success(reading), joinKey: sourceName.map { JoinKey(sourceName: $0, at: at) }, raw: raw)
        }
    }
}
