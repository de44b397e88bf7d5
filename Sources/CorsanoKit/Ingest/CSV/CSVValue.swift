/// Cell values of cuff exports: missing markers, decimal commas, unit text.
public enum CSVValue {
    /// A number read from a cell, or why not.
    public enum Number: Equatable, Sendable {
        case missing
        case value(Double, unit: String?)
        case notANumber
    }

    /// Unit words a value may carry (`120 mmHg`, `64 bpm`, `69 1/min`, `69 Schläge/min`),
    /// lowercased; anything else makes it no number.
    public static let units: Set<String> = ["mmhg", "kpa", "bpm", "/min", "1/min", "beats/min", "min", "p/min",
                                            "schläge/min", "spm", "ppm", "count/min"]

    /// The units a pulse may carry.
    public static let pulseUnits: Set<String> = units.subtracting(["mmhg", "kpa"])

    /// A yes/no cell (`--column manual=...`: HealthForYou's `Added manually` writes `Yes`/`No`):
    /// true for yes, true, 1, x, y and the project's languages' yes; false for the noes; nil otherwise.
    public static func yesNo(_ cell: String) -> Bool? {
        let word = cell.trimmingBlanks.lowercased()
        if yes.contains(word) { return true }
        if no.contains(word) { return false }
        return nil
    }

    static let yes: Set<String> = ["yes", "y", "true", "1", "x", "ja", "j", "oui", "sí", "si", "sì", "sim", "tak", "evet", "kyllä",
                                   "ναι", "כן", "نعم", "დიახ", "có", "はい", "是"]
    static let no: Set<String> = ["no", "n", "false", "0", "nein", "non", "nee", "nej", "nei", "não", "nao", "nie", "hayır", "ei",
                                  "όχι", "לא", "لا", "არა", "không", "いいえ", "否"]

    /// True for cells that mean "no value": empty, `-`, `--`, `null`, `n/a`.
    public static func isMissing(_ cell: String) -> Bool {
        var utf8 = cell.utf8[...]
        while let f = utf8.first, f == 32 || f == 9 { utf8 = utf8.dropFirst() }
        while let l = utf8.last, l == 32 || l == 9 { utf8 = utf8.dropLast() }
        if utf8.contains(where: { $0 >= 0x80 }) {
            let t = cell.trimmingBlanks  // no-break spaces at the ends
            return t.utf8.allSatisfy { $0 < 0x80 } && isMissing(t)
        }
        guard utf8.count <= 4 else { return false }
        let word = utf8.map { (65...90).contains($0) ? $0 | 0x20 : $0 }  // ASCII lowercase
        return missingWords.contains(word)
    }

    private static let missingWords: Set<[UInt8]> = Set(["", "-", "--", "null", "n/a", "na", "none"].map { Array($0.utf8) })

    /// Reads `120`, `120.5`, `120,5` (decimal comma), `120 mmHg`, `64bpm`; the unit (one of `units`)
    /// is returned lowercased. Only digits, one decimal separator and a sign are read as the
    /// number, so values never overflow: at most 15 significant digits are kept.
    public static func number(_ cell: String) -> Number {
        if isMissing(cell) { return .missing }
        let bytes = Array(cell.trimmingBlanks.utf8)
        var i = 0
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: Double = 0
        var scale: Double = 1
        var digits = 0
        var seenSeparator = false
        while i < bytes.count {
            let c = bytes[i]
            if c >= 48 && c <= 57 {
                if digits < 15 {
                    mantissa = mantissa * 10 + Double(c - 48)
                    if seenSeparator { scale *= 10 }
                } else if !seenSeparator {
                    mantissa *= 10
                }
                digits += 1
            } else if (c == UInt8(ascii: ".") || c == UInt8(ascii: ",")) && !seenSeparator && digits > 0 {
                seenSeparator = true
            } else {
                break
            }
            i += 1
        }
        guard digits > 0 else { return .notANumber }
        let unitText = String(decoding: bytes[i...], as: UTF8.self).trimmingBlanks.lowercased()
        guard unitText.isEmpty || units.contains(unitText) else { return .notANumber }
        let v = mantissa / scale
        return .value(negative ? -v : v, unit: unitText.isEmpty ? nil : unitText)
    }
}
