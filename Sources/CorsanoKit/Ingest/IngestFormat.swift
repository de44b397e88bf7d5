/// The cuff input formats of `cuff ingest --from` (DESIGN "Cuff input formats").
public enum IngestFormat: String, CaseIterable, Sendable {
    /// Reading objects, one per line.
    case jsonl
    /// 0x2A35 payloads as hex, one per line: `[TIME<TAB>][UUID ]HEX`.
    case ble
    /// A cuff export with a header row.
    case csv
    /// An Apple Health export.xml, or the export.zip holding it (blood-pressure correlations).
    case applehealth
    /// A Google Fit Takeout JSON file of the blood-pressure data type (one JSON document).
    case googlefit

    /// The whole-document format the first bytes of an input show (`head`: up to 64 KiB), or nil:
    /// a ZIP or an XML document naming `HealthData` (Apple Health's root, in its DOCTYPE or
    /// start tag) is `applehealth`; a JSON object whose first member is Takeout's `Data Source`
    /// or `Data Points` is `googlefit`. Neither overlaps a line format: a reading line's first
    /// member is a reading field, and no CSV header or BLE line starts with `<` or `PK`.
    public static func detect(document head: some Collection<UInt8>) -> IngestFormat? {
        if ZipArchive.isZip(head) { return .applehealth }
        var b = Array(head.prefix(64 * 1024))[...]
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { b = b.dropFirst(3) }
        b = b.drop { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }
        if b.first == UInt8(ascii: "<") {
            let root = Array("HealthData".utf8)
            for prefix in [Array("<!DOCTYPE ".utf8), [UInt8(ascii: "<")]] {
                let needle = prefix + root
                if b.count >= needle.count, (0...(b.count - needle.count)).contains(where: { b[(b.startIndex + $0)...].starts(with: needle) }) {
                    return .applehealth
                }
            }
            return nil
        }
        guard b.first == UInt8(ascii: "{") else { return nil }
        let member = b.dropFirst().drop { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }
        return member.starts(with: Array(#""Data Source""#.utf8)) || member.starts(with: Array(#""Data Points""#.utf8)) ? .googlefit : nil
    }

    /// The format the first non-blank line of an input shows, or nil when it fits none.
    ///
    /// `{` starts a JSON line; a line that reads as a BLE capture line is BLE; a record whose
    /// cells name systolic and diastolic columns is a CSV header. These cannot overlap: a CSV
    /// header needs letters that are not hex digits, and neither starts with `{`.
    public static func detect(firstLine: [UInt8]) -> IngestFormat? {
        var line = firstLine[...]
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }
        guard let first = line.first(where: { $0 != 32 && $0 != 9 }) else { return nil }
        if first == UInt8(ascii: "{") { return .jsonl }
        if let parsed = try? BLECaptureLine.parse(line), parsed != .blank { return .ble }
        let record = Array(line)
        let header = CSVHeader(cells: CSVFields.split(record, delimiter: CSVFields.detectDelimiter(record)).cells)
        return header.namesPressures ? .csv : nil
    }
}

/// Why an input could not be ingested as a whole.
public enum IngestError: Error, Equatable, Sendable {
    /// Auto-detection found no single format (exit 64, asking for `--from`).
    case unknownFormat(source: String, firstLine: String)
    /// Reading the input failed (exit 66).
    case unreadable(source: String, errno: Int32)
    /// Bytes at `offset` are not text in the input's encoding (exit 65, naming `--encoding`).
    case undecodable(source: String, offset: Int, detail: String)
    /// A document format's structure cannot be read (exit 65): an XML construct the Apple Health
    /// scanner does not handle, a damaged ZIP, a Takeout file that is not JSON; `line` when known.
    case malformed(source: String, line: Int?, detail: String)
}
