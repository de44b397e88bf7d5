/// Reads a Google Fit Takeout JSON file of the blood-pressure data type (Takeout's "Google Fit"
/// folder, `All data/raw_com.google.blood_pressure_*.json` and `derived_...`): one JSON document,
/// pretty-printed, `{"Data Source": ..., "Data Points": [{"fitValue": [...], "startTimeNanos": ...,
/// "dataTypeName": "com.google.blood_pressure", "originDataSourceId": ...}, ...]}`.
///
/// Field order of `com.google.blood_pressure` (Google Fit data types, "Blood pressure"):
/// systolic (float, mmHg), diastolic (float, mmHg), body position, measurement location (ints,
/// optional), each as `{"value": {"fpVal": N}}`. `measuredAt` is `startTimeNanos` (Unix time,
/// UTC). A data source whose stream is `user_input` is the Fit app's typed entry
/// (`isManualEntry`). The type has no pulse: readings carry none (never guessed).
/// The REST API's dataset shape (`point`, `value`) is read the same way.
public enum GoogleFitReader {
    /// The data type read.
    public static let bloodPressureType = "com.google.blood_pressure"

    /// One data point: a reading, a skip (another data type), or why it is not a reading.
    public enum Point: Sendable {
        case reading(CuffReading)
        case otherType(String)
        case issue(IngestIssue)
    }

    /// Largest data point, or `Data Source` string, read (`cuff ingest --max-line-size`): a
    /// point is a few hundred bytes; the document itself may be of any length.
    public static let defaultMaxValueBytes = 16 << 20

    /// The data points of `document`, each with its line (1-based): `stream` over bytes in memory.
    /// - Throws: `GoogleFitError` when the document is not a Takeout file.
    public static func read(_ document: [UInt8]) throws(GoogleFitError) -> [(line: Int, point: Point)] {
        var points: [(line: Int, point: Point)] = []
        var source = MemoryByteSource(document)
        do {
            try stream(&source) { points.append(($0, $1)); return true }
        } catch let error as GoogleFitError {
            throw error
        } catch {
            throw GoogleFitError(line: nil, reason: "\(error)")
        }
        return points
    }

    /// Reads a Takeout document from `source` point by point
    /// (docs/design.md "Cuff input formats"): a structural scan of the bytes (strings and escapes skipped, lines counted)
    /// finds the root's `Data Source` (or `dataSourceId`) and each element of its `Data Points`
    /// (or `point`) array; only one element at a time is held and parsed, so memory is bounded
    /// by the largest point, not by the document. A point that needs the data source before the
    /// document named it (no `dataTypeName` or `originDataSourceId`) waits, with every point
    /// after it, until the root closes (Takeout and the REST API name it first).
    /// - Parameters:
    ///   - maxValueBytes: the longest point or `Data Source` string held; longer is refused.
    ///   - willRead: called before each read (a stop signal ends the read there).
    ///   - point: each data point with the line its value starts on, in order; false stops.
    /// - Throws: `GoogleFitError` (with its line) when the document is not a Takeout file,
    ///   is not JSON, or ends early; what `source`, `willRead` or `point` throw.
    public static func stream(_ source: inout some ByteSource, maxValueBytes: Int = defaultMaxValueBytes,
                              willRead: () throws -> Void = {},
                              point: (Int, Point) throws -> Bool) throws {
        var scan = TakeoutScan(maxValueBytes: maxValueBytes)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var first = true
        while true {
            try willRead()
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            var go = true
            try chunk.withUnsafeBufferPointer { all in
                var bytes = UnsafeBufferPointer(rebasing: all[0..<n])
                if first, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = UnsafeBufferPointer(rebasing: bytes[3...]) }
                first = false
                go = try scan.feed(bytes, point)
            }
            if !go { return }
        }
        try scan.finish(point)
    }

    static func point(_ p: JSONValue, dataSource: String?) -> Point {
        guard case .object = p else { return .issue(IngestIssue("data point: not a JSON object")) }
        let type = p["dataTypeName"]?.stringValue ?? dataSource.flatMap { $0.split(separator: ":").dropFirst().first.map(String.init) }
        guard let type else { return .issue(IngestIssue("dataTypeName: missing")) }
        guard type == bloodPressureType else { return .otherType(type) }
        let values = (p["fitValue"] ?? p["value"])?.arrayValue ?? []
        func pressure(_ i: Int, _ field: String) -> Result<Int, IngestIssue> {
            guard i < values.count else { return .failure(IngestIssue("\(field): missing (fitValue[\(i)])")) }
            let holder = values[i]["value"] ?? values[i]
            guard let v = holder["fpVal"]?.doubleValue ?? holder["intVal"]?.doubleValue else {
                return .failure(IngestIssue("\(field): fitValue[\(i)] has no fpVal"))
            }
            guard let r = BLEReadingConverter.rounded(v) else { return .failure(IngestIssue("\(field): \(v) out of range")) }
            return .success(r)
        }
        let sys: Int, dia: Int
        switch pressure(0, "systolic") { case .success(let v): sys = v; case .failure(let e): return .issue(e) }
        switch pressure(1, "diastolic") { case .success(let v): dia = v; case .failure(let e): return .issue(e) }
        guard let nanos = p["startTimeNanos"].flatMap(Self.int64) else {
            return .issue(IngestIssue("startTimeNanos: missing or not an integer"))
        }
        let (seconds, fraction) = nanos.quotientAndRemainder(dividingBy: 1_000_000_000)
        let at = fraction < 0 ? Instant(secondsSinceEpoch: seconds - 1, nanoseconds: Int32(fraction + 1_000_000_000))
            : Instant(secondsSinceEpoch: seconds, nanoseconds: Int32(fraction))
        let origin = p["originDataSourceId"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? dataSource
        var provenance: [ProvenanceField] = []
        if let origin { provenance.append(ProvenanceField(name: "originDataSourceId", rawJSON: JSONValue.string(origin).serialized)) }
        let manual = origin?.hasSuffix(":user_input") ?? false
        return .reading(CuffReading(systolic: sys, diastolic: dia, pulse: nil, measuredAt: at, isManualEntry: manual,
                                    provenance: provenance))
    }

    /// Nanosecond stamps: a JSON integer, or a decimal string (the REST API writes int64 as strings).
    static func int64(_ v: JSONValue) -> Int64? {
        switch v {
        case .int(let i): return Int64(i)
        case .string(let s): return Int64(s)
        default: return nil
        }
    }
}

/// A Takeout file that cannot be read as one (exit 65).
public struct GoogleFitError: Error, Equatable, Sendable {
    public var line: Int?
    public var reason: String
}

/// The structural scan behind `GoogleFitReader.stream`: one pass over the document's bytes in
/// chunks, holding only the root's current key, the `Data Source` string and one data point.
struct TakeoutScan {
    let maxValueBytes: Int
    private var line = 1
    /// Nesting of objects and arrays around the byte being read (the root object is depth 1).
    private var depth = 0
    private var inString = false, escaped = false
    /// The last string closed at depth 1 (a key, or the `Data Source` value), when wanted.
    private var text: [UInt8] = []
    /// Whether the string being read at depth 1 is kept in `text`.
    private var keepingText = false
    private var key: [UInt8] = []
    /// At depth 1: a key was read and its `:` seen, so the next string is its value.
    private var afterColon = false
    private var dataSource: String?, dataSourceID: String?, sawDataSource = false
    /// Inside the points array: its elements are at depth 2.
    private var inPoints = false, sawPoints = false
    /// The element being held, its first line, and whether one is open.
    private var element: [UInt8] = [], elementLine = 0, inElement = false, pointSeen = false
    /// Points held until the root names its data source (see `stream`).
    private var waiting: [(line: Int, value: JSONValue)] = []
    /// After an element of the points array: the next byte must be `,` or `]`.
    private var needSeparator = false
    private var closed = false

    init(maxValueBytes: Int) { self.maxValueBytes = max(1, maxValueBytes) }

    private static let pointsKeys: [[UInt8]] = [Array("Data Points".utf8), Array("point".utf8)]
    private static let sourceKey = Array("Data Source".utf8), sourceIDKey = Array("dataSourceId".utf8)

    private func fail(_ reason: String, line: Int? = nil) -> GoogleFitError {
        GoogleFitError(line: line ?? self.line, reason: reason)
    }

    /// Scans `bytes`; false when `point` asked to stop. - Throws: `GoogleFitError`, `point`'s errors.
    mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ point: (Int, GoogleFitReader.Point) throws -> Bool) throws -> Bool {
        // Where the held element's bytes start in this chunk (-1: none, or it began in an earlier one).
        var start = inElement ? 0 : -1
        var i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if inString {
                // The hot loop: most bytes are inside strings.
                if escaped {
                    escaped = false
                } else if c == 0x5C {
                    escaped = true
                } else if c == 0x22 {
                    inString = false
                    if keepingText {
                        keepingText = false
                        stringClosedAtRoot()
                    } else if inElement, depth == 2, try !elementEnds(bytes, start, through: i, point) {
                        return false
                    }
                } else if c < 0x20 {
                    throw fail("a control character inside a string (not JSON)")
                } else if keepingText {
                    guard text.count < maxValueBytes else { throw fail("a string longer than \(maxValueBytes) bytes (--max-line-size)") }
                    text.append(c)
                }
                i += 1
                continue
            }
            let blank = c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
            if inElement, depth == 2, blank || c == 0x2C || c == 0x5D {
                // A scalar element (a number, true, false, null) ends before this byte.
                if try !elementEnds(bytes, start, through: i - 1, point) { return false }
                start = -1
            }
            if blank {
                if c == 0x0A { line += 1 }
                i += 1
                continue
            }
            if closed { throw fail("text after the document's end") }
            if depth == 0 {
                guard c == 0x7B else { throw fail(c == 0x5B ? "not a JSON object (a Takeout file is one)" : "not a JSON document") }
                depth = 1
                i += 1
                continue
            }
            if inPoints, depth == 2, !inElement {
                // Between elements of the points array.
                if c == 0x5D {
                    guard needSeparator || !pointSeen else { throw fail("a ',' before the end of the data points (not JSON)") }
                    inPoints = false
                    depth = 1
                    afterColon = false
                    i += 1
                    continue
                }
                if c == 0x2C {
                    guard needSeparator else { throw fail("a ',' where a data point belongs (not JSON)") }
                    needSeparator = false
                    i += 1
                    continue
                }
                guard !needSeparator else { throw fail("no ',' between two data points (not JSON)") }
                inElement = true
                pointSeen = true
                elementLine = line
                start = i
            }
            switch c {
            case 0x22:
                inString = true
                keepingText = depth == 1
                if keepingText { text.removeAll(keepingCapacity: true) }
            case 0x7B, 0x5B:
                if depth == 1, c == 0x5B, afterColon, Self.pointsKeys.contains(key) {
                    guard !sawPoints else { throw fail("a second \"Data Points\" array") }
                    (sawPoints, inPoints, needSeparator) = (true, true, false)
                }
                depth += 1
            case 0x7D, 0x5D:
                depth -= 1
                if depth == 0 {
                    guard c == 0x7D else { throw fail("not JSON: ']' closes the document") }
                    closed = true
                } else if depth == 1 {
                    afterColon = false
                } else if inElement, depth == 2, try !elementEnds(bytes, start, through: i, point) {
                    return false
                }
            case 0x3A:
                if depth == 1 { (afterColon, key) = (true, text) }
            case 0x2C:
                if depth == 1 { afterColon = false }
            default:
                break
            }
            i += 1
        }
        if inElement, start >= 0 {
            element.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<n]))
            if element.count > maxValueBytes { throw fail("a data point longer than \(maxValueBytes) bytes (--max-line-size)", line: elementLine) }
        }
        return true
    }

    /// The held element ends at byte `end` of this chunk (it began at `start`, or in an earlier
    /// chunk when -1... then 0): takes its bytes and hands it on. False when `point` asked to stop.
    private mutating func elementEnds(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, through end: Int,
                                      _ point: (Int, GoogleFitReader.Point) throws -> Bool) throws -> Bool {
        let from = max(start, 0)
        if end >= from { element.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from...end])) }
        return try elementDone(point)
    }

    private mutating func stringClosedAtRoot() {
        guard afterColon else { return }
        if key == Self.sourceKey { dataSource = String(decoding: text, as: UTF8.self); sawDataSource = true }
        else if key == Self.sourceIDKey { dataSourceID = String(decoding: text, as: UTF8.self) }
    }

    private var source: String? { dataSource ?? dataSourceID }

    /// Parses the held element and hands it on (or holds it until the data source is named).
    private mutating func elementDone(_ point: (Int, GoogleFitReader.Point) throws -> Bool) throws -> Bool {
        defer {
            element.removeAll(keepingCapacity: element.capacity <= 1 << 20)
            inElement = false
            needSeparator = true
        }
        guard element.count <= maxValueBytes else {
            throw fail("a data point longer than \(maxValueBytes) bytes (--max-line-size)", line: elementLine)
        }
        let value: JSONValue
        do { value = try JSONValue.parse(element) } catch {
            throw fail("not a JSON document: \(error.message)", line: elementLine)
        }
        if !sawDataSource, waiting.isEmpty == false || Self.needsSource(value) {
            waiting.append((elementLine, value))
            return true
        }
        return try point(elementLine, GoogleFitReader.point(value, dataSource: source))
    }

    /// Whether reading `p` looks at the document's data source.
    private static func needsSource(_ p: JSONValue) -> Bool {
        guard case .object = p else { return false }
        return p["dataTypeName"]?.stringValue == nil || (p["originDataSourceId"]?.stringValue ?? "").isEmpty
    }

    /// At the end of the input: the document must be whole and hold a points array.
    mutating func finish(_ point: (Int, GoogleFitReader.Point) throws -> Bool) throws {
        if depth == 0, !closed { throw GoogleFitError(line: nil, reason: "not a JSON document: it is empty") }
        guard closed, !inString else { throw fail("the document ends early (\(inString ? "inside a string" : "an object or array left open"))") }
        guard sawPoints else { throw GoogleFitError(line: 1, reason: "no \"Data Points\" array (not a Google Fit Takeout data file)") }
        for (line, value) in waiting where try !point(line, GoogleFitReader.point(value, dataSource: source)) { return }
        waiting.removeAll()
    }
}
