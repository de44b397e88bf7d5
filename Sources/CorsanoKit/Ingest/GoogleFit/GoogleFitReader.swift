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

    /// Largest file read (a Takeout file of one data type is a few MB).
    public static let maxBytes = 256 << 20

    /// The data points of `document`, each with its line (1-based).
    /// - Throws: `IngestIssue` (with the line it applies to) when the document is not a Takeout file.
    public static func read(_ document: [UInt8]) throws(GoogleFitError) -> [(line: Int, point: Point)] {
        let root: JSONValue
        do { root = try JSONValue.parse(document) } catch {
            throw GoogleFitError(line: nil, reason: "not a JSON document: \(error.message)")
        }
        guard case .object = root else { throw GoogleFitError(line: 1, reason: "not a JSON object (a Takeout file is one)") }
        let dataSource = root["Data Source"]?.stringValue ?? root["dataSourceId"]?.stringValue
        guard let points = (root["Data Points"] ?? root["point"])?.arrayValue else {
            throw GoogleFitError(line: 1, reason: "no \"Data Points\" array (not a Google Fit Takeout data file)")
        }
        let lines = pointLines(document)
        return points.enumerated().map { index, point in
            let line = index < lines.count ? lines[index] : 1
            return (line, Self.point(point, dataSource: dataSource))
        }
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

    /// The line of each object in the root's `Data Points` (or `point`) array, in order: a
    /// structural scan of the text (strings and escapes skipped), since the parsed value has no lines.
    static func pointLines(_ text: [UInt8]) -> [Int] {
        var lines: [Int] = []
        var line = 1, depth = 0
        var inString = false, escaped = false
        var lastString: [UInt8] = [], stringStart = 0
        var pointsDepth: Int?
        for (i, c) in text.enumerated() {
            if c == 10 { line += 1 }
            if inString {
                if escaped { escaped = false } else if c == 92 { escaped = true } else if c == 34 {
                    inString = false
                    lastString = Array(text[stringStart..<i])
                }
                continue
            }
            switch c {
            case 34: inString = true; stringStart = i + 1
            case 123, 91:
                if c == 91, depth == 1, lastString == Array("Data Points".utf8) || lastString == Array("point".utf8) {
                    pointsDepth = depth + 1
                }
                if c == 123, let d = pointsDepth, depth == d { lines.append(line) }
                depth += 1
            case 125, 93:
                depth -= 1
                if let d = pointsDepth, depth < d { pointsDepth = nil }
            default: break
            }
        }
        return lines
    }
}

/// A Takeout file that cannot be read as one (exit 65).
public struct GoogleFitError: Error, Equatable, Sendable {
    public var line: Int?
    public var reason: String
}
