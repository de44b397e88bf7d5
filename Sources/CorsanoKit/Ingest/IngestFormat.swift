/// The cuff input formats of `cuff ingest --from` (DESIGN "Cuff input formats").
public enum IngestFormat: String, CaseIterable, Sendable {
    /// Reading objects, one per line.
    case jsonl
    /// 0x2A35 (and BLS 1.1 0x2B34, 0x2B36) payloads as hex, one per line: `[TIME<TAB>][UUID ]HEX`,
    /// or an nRF Connect log (`BLECaptureLine`).
    case ble
    /// A cuff export with a header row.
    case csv

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
}
