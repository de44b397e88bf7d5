/// One station of a stations file: a bracelet, the cuff source its readings come from, and what
/// the line says about them. Source: corsano-formats(5) "Stations"; docs/design.md "Fleet status".
public struct Station: Equatable, Sendable {
    /// The 1-based line it was read from.
    public var line: Int
    /// The station's name (`station=`), else its bracelet URI as written: events and summaries name it.
    public var name: String
    /// The bracelet URI as written (`sim:`, `unix:`, `tcp:`, `exec:`; a relative path is the caller's to resolve).
    public var bracelet: String
    /// The cuff source as `bp-init --cuff` takes it (a file of reading lines, `ble:MAC`, `sim:`…).
    public var cuff: String
    /// `subject=`: the study participant the readings are stamped with.
    public var subject: String?
    /// `cuff=`: the cuff's MAC or serial (one cuff per multi-set calibration).
    public var cuffID: String?
    /// `serial=`: the bracelet's serial, when known (else the bracelet is identified first).
    public var serial: String?

    /// Creates a station.
    public init(line: Int, name: String, bracelet: String, cuff: String, subject: String? = nil, cuffID: String? = nil,
                serial: String? = nil) {
        self.line = line
        self.name = name
        self.bracelet = bracelet
        self.cuff = cuff
        self.subject = subject
        self.cuffID = cuffID
        self.serial = serial
    }
}

/// A stations file refused: which file, line and field, and why (exit 65).
public struct StationsFileError: Error, Equatable, Sendable {
    /// The file as named (`<stdin>` for standard input).
    public var source: String
    /// The 1-based line.
    public var line: Int
    /// The field at fault (`bracelet`, `cuff source`, `subject`, …); nil when the line as a whole is.
    public var field: String?
    /// What is wrong, in words.
    public var reason: String
}

extension StationsFileError: DiagnosticError {
    /// `FILE:LINE: FIELD: reason`.
    public var message: String { "\(source):\(line): " + (field.map { "\($0): " } ?? "") + reason }
}

/// The stations file `fleet run` reads: one station a line, `BRACELET-URI CUFF-SOURCE
/// [NAME=VALUE…]` (the two fields calibrate-many.sh read, then named ones: `subject=`, `cuff=`,
/// `station=`, `serial=`), fields separated by spaces or tabs (no quoting: a field holds no
/// space), `#` starting a comment to the end of the line, blank lines skipped. UTF-8 (a leading
/// BOM and CRLF line ends are taken). Nothing is guessed: an unknown or repeated name, a
/// missing or empty value, a bracelet URI that does not parse, and two stations with the same
/// name, bracelet or serial are refused naming the file, line and field.
/// Source: corsano-formats(5) "Stations".
public enum StationsFile {
    /// The names a line may give, in the order the format lists them.
    public static let names = ["subject", "cuff", "station", "serial"]

    /// The stations in `bytes`, in file order.
    /// - Parameter source: the file as named, for messages.
    /// - Throws: `StationsFileError` for the first line refused (nothing is taken from a file
    ///   with a bad line: a station quietly skipped would go uncalibrated).
    public static func parse(_ bytes: [UInt8], source: String) throws(StationsFileError) -> [Station] {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var stations: [Station] = []
        var byName: [String: Int] = [:], byBracelet: [String: Int] = [:], bySerial: [String: Int] = [:]
        var number = 0
        for raw in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var lineBytes = raw
            if lineBytes.last == UInt8(ascii: "\r") { lineBytes = lineBytes.dropLast() }
            func refuse(_ field: String?, _ reason: String) -> StationsFileError {
                StationsFileError(source: source, line: number, field: field, reason: reason)
            }
            guard let text = String(validating: lineBytes, as: UTF8.self) else { throw refuse(nil, "not UTF-8 text") }
            if let control = text.unicodeScalars.first(where: { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) }) {
                throw refuse(nil, "holds control character U+\(String(control.value, radix: 16, uppercase: true).leftPadded(to: 4))")
            }
            let content = text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !fields.isEmpty else { continue }
            guard fields.count >= 2, !fields[1].contains("=") else {
                throw refuse("cuff source", "missing: a station is BRACELET-URI CUFF-SOURCE [NAME=VALUE...]")
            }
            let bracelet = fields[0]
            do {
                _ = try BraceletAddress(bracelet)
            } catch {
                let expected = (error as? BraceletAddressError)?.expected ?? "sim, unix:PATH, tcp:HOST:PORT or exec:COMMAND"
                throw refuse("bracelet", "'\(bracelet)' is not a bracelet URI (\(expected))")
            }
            var values: [String: String] = [:]
            for field in fields.dropFirst(2) {
                guard let eq = field.firstIndex(of: "=") else {
                    throw refuse(nil, "'\(field)' is not NAME=VALUE (fields hold no spaces; one of \(names.joined(separator: "=, "))=)")
                }
                let name = String(field[..<eq]), value = String(field[field.index(after: eq)...])
                guard names.contains(name) else {
                    throw refuse(name, "unknown name (a line may give \(names.map { $0 + "=" }.joined(separator: ", ")))")
                }
                guard values[name] == nil else { throw refuse(name, "given twice") }
                guard !value.isEmpty else { throw refuse(name, "empty value") }
                values[name] = value
            }
            let station = Station(line: number, name: values["station"] ?? bracelet, bracelet: bracelet, cuff: fields[1],
                                  subject: values["subject"], cuffID: values["cuff"], serial: values["serial"])
            if let earlier = byName[station.name] {
                throw refuse(values["station"] == nil ? "bracelet" : "station", "station '\(station.name)' is also on line \(earlier)")
            }
            if let earlier = byBracelet[bracelet] { throw refuse("bracelet", "'\(bracelet)' is also on line \(earlier)") }
            if let serial = station.serial, let earlier = bySerial[serial] {
                throw refuse("serial", "'\(serial)' is also on line \(earlier)")
            }
            byName[station.name] = number
            byBracelet[bracelet] = number
            if let serial = station.serial { bySerial[serial] = number }
            stations.append(station)
        }
        return stations
    }
}

extension String {
    /// This text with `0` before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
