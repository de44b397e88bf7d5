/// A cursor over the bytes of a date or time cell (see `CSVTimestamp` for the forms read).
struct TimestampScanner {
    private let b: [UInt8]
    private var i = 0

    init(_ bytes: [UInt8]) { b = bytes }

    var atEnd: Bool { i == b.count }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let fullMonths = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                             "october", "november", "december"]

    /// (year, month, day) in one of the date forms; nil when none matches.
    mutating func date() -> (Int, Int, Int)? {
        let start = i
        if let first = number(maxDigits: 4) {
            if first.digits == 4, let sep = take(anyOf: "-/"), let m = number(maxDigits: 2), take(sep), let d = number(maxDigits: 2) {
                return (first.value, m.value, d.value)
            }
            i = start
            if let d = number(maxDigits: 2), take("."), let m = number(maxDigits: 2), take("."), let y = number(maxDigits: 4), y.digits == 4 {
                return (y.value, m.value, d.value)
            }
            i = start
            if let d = number(maxDigits: 2), take(" "), let m = monthName(), take(" "), let y = number(maxDigits: 4), y.digits == 4 {
                return (y.value, m, d.value)
            }
            i = start
            return nil
        }
        guard let m = monthName(), take(" ") else { i = start; return nil }
        skipSpaces()
        guard let d = number(maxDigits: 2) else { i = start; return nil }
        _ = take(",")
        skipSpaces()
        guard let y = number(maxDigits: 4), y.digits == 4 else { i = start; return nil }
        return (y.value, m, d.value)
    }

    /// The separator between a date and a time: `T`, spaces, or `,` and spaces.
    mutating func dateTimeSeparator() -> Bool {
        if take("T") || take("t") { return true }
        let start = i
        _ = take(",")
        skipSpaces()
        return i > start
    }

    /// (hour, minute, second) from `H:MM[:SS[.fff]]` with an optional AM/PM.
    mutating func timeOfDay() -> (Int, Int, Int)? {
        guard let h = number(maxDigits: 2), take(":"), let m = number(maxDigits: 2), m.digits == 2 else { return nil }
        var second = 0
        if take(":") {
            guard let s = number(maxDigits: 2), s.digits == 2 else { return nil }
            second = s.value
            if take(".") { guard number(maxDigits: 9) != nil else { return nil } }
        }
        skipSpaces()
        var hour = h.value
        if let pm = meridiem() {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (pm ? 12 : 0)
        }
        return (hour, m.value, second)
    }

    /// true for PM, false for AM (`am`, `a.m.`, any case); nil when neither follows.
    private mutating func meridiem() -> Bool? {
        let start = i
        guard i < b.count else { return nil }
        let c = b[i] | 0x20
        guard c == UInt8(ascii: "a") || c == UInt8(ascii: "p") else { return nil }
        i += 1
        _ = take(".")
        guard i < b.count, b[i] | 0x20 == UInt8(ascii: "m") else { i = start; return nil }
        i += 1
        _ = take(".")
        return c == UInt8(ascii: "p")
    }

    private mutating func monthName() -> Int? {
        var word = ""
        while i < b.count, (b[i] | 0x20) >= 97, (b[i] | 0x20) <= 122 {
            word.unicodeScalars.append(Unicode.Scalar(b[i] | 0x20))
            i += 1
        }
        _ = take(".")
        guard word.count >= 3, let index = Self.months.firstIndex(of: String(word.prefix(3))) else { return nil }
        let full = Self.fullMonths[index]
        guard word.count == 3 || full.hasPrefix(word) || (index == 8 && word == "sept") else { return nil }
        return index + 1
    }

    private mutating func number(maxDigits: Int) -> (value: Int, digits: Int)? {
        var value = 0
        var digits = 0
        while i < b.count, b[i] >= 48, b[i] <= 57, digits < maxDigits {
            value = value * 10 + Int(b[i] - 48)
            digits += 1
            i += 1
        }
        return digits > 0 ? (value, digits) : nil
    }

    private mutating func take(_ c: Character) -> Bool {
        guard i < b.count, let a = c.asciiValue, b[i] == a else { return false }
        i += 1
        return true
    }

    private mutating func take(anyOf set: String) -> Character? {
        guard i < b.count else { return nil }
        let c = Character(Unicode.Scalar(b[i]))
        guard set.contains(c) else { return nil }
        i += 1
        return c
    }

    private mutating func skipSpaces() { while i < b.count, b[i] == 32 { i += 1 } }
}
