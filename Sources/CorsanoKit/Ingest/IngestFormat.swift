/// The cuff input formats of `cuff ingest --from` (docs/design.md "Cuff input formats").
public enum IngestFormat: String, CaseIterable, Sendable {
    /// Reading objects, one per line.
    case jsonl
    /// 0x2A35 (and BLS 1.1 0x2B34, 0x2B36) payloads as hex, one per line: `[TIME<TAB>][UUID ]HEX`,
    /// or an nRF Connect log (`BLECaptureLine`).
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
        let cells = CSVFields.split(record, delimiter: CSVFields.detectDelimiter(record)).cells
        let header = CSVHeader(cells: cells)
        if header.namesPressures { return .csv }
        // Recognizably a CSV header that lacks a column: cells split by a delimiter,
        // every one a name (not a number, not empty), one or more of them a name the alias table
        // knows. The CSV reader then says, once, what it lacks (65) instead of a usage error.
        let named = cells.count >= 2 && cells.allSatisfy { c in
            let t = c.trimmingBlanks
            return !t.isEmpty && t.unicodeScalars.contains { $0.properties.isAlphabetic }
        }
        return named && !header.columns.isEmpty ? .csv : nil
    }

    /// True when `bytes` (the first bytes of an input) are not text: a NUL, or control bytes
    /// (other than tab, line ends and form feed) in more than 1 of 20 bytes. Text in another
    /// 8-bit encoding (windows-1252 from Excel) is text: the UTF-8 check names its offset.
    public static func isBinary(_ bytes: [UInt8]) -> Bool {
        if bytes.contains(0) { return true }
        let controls = bytes.reduce(0) { n, b in n + ((b < 0x20 && b != 9 && b != 10 && b != 12 && b != 13) || b == 0x7F ? 1 : 0) }
        return controls * 20 > bytes.count
    }

    /// `bytes` as text with every byte that is not printable UTF-8 written `\xNN` (for messages
    /// about input that is not text: never raw bytes to a terminal).
    public static func escaped(_ bytes: some Collection<UInt8>) -> String {
        var out = ""
        var rest = Array(bytes)[...]
        while let first = rest.first {
            let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC2 ? 2 : 0
            if length > 0, rest.count >= length, let s = String(validating: rest.prefix(length), as: UTF8.self),
               let scalar = s.unicodeScalars.first, !(scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                                                       || scalar.properties.generalCategory == .unassigned) {
                out += s
                rest = rest.dropFirst(length)
            } else {
                out += "\\x" + String(first, radix: 16, uppercase: true).leftPadded(2)
                rest = rest.dropFirst()
            }
        }
        return out
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

    /// The input is not text at all (a NUL, bytes that are no UTF-8): exit 65, its first bytes
    /// shown with the unprintable ones escaped.
    case notText(source: String, firstBytes: String)
}

extension String {
    /// The string with `0`s in front up to `width` characters.
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
