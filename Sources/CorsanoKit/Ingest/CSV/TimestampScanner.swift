/// A cursor over the bytes of a date or time cell (see `CSVTimestamp` for the forms read).
struct TimestampScanner {
    private let b: [UInt8]
    private var i = 0

    init(_ bytes: [UInt8]) { b = bytes }

    var atEnd: Bool { i == b.count }

    /// A date as written, before the day/month order is applied.
    enum DateParts: Equatable {
        /// Year, month and day are known (ISO, dotted day-first, or a month name).
        case known(year: Int, month: Int, day: Int)
        /// `a/b/yyyy` or `a-b-yyyy`: day and month in an order the cell does not tell.
        case yearLast(first: Int, second: Int, year: Int)
    }

    /// The date at the cursor in one of the forms; nil when none matches.
    mutating func date() -> DateParts? {
        let start = i
        if let first = number(maxDigits: 4) {
            if first.digits == 4, let sep = take(anyOf: "-/."), let m = number(maxDigits: 2), take(sep),
               let d = number(maxDigits: 2) {
                return .known(year: first.value, month: m.value, day: d.value)
            }
            i = start
            if let d = number(maxDigits: 2), take("."), let m = number(maxDigits: 2), take("."),
               let y = number(maxDigits: 4), y.digits == 4 {
                return .known(year: y.value, month: m.value, day: d.value)
            }
            i = start
            if let a = number(maxDigits: 2), let sep = take(anyOf: "/-"), let c = number(maxDigits: 2) {
                let afterDay = i
                if take(sep), let y = number(maxDigits: 4), y.digits == 4 {
                    return .yearLast(first: a.value, second: c.value, year: y.value)
                }
                // `11/21, 2026`: OMRON connect's Portuguese logbook (`PDF_DATE_OUTPUT` `n/j, Y`):
                // month first, then a comma before the year; no other export writes it.
                i = afterDay
                if sep == "/", take(","), skipSpaces() > 0, let y = number(maxDigits: 4), y.digits == 4 {
                    return .known(year: y.value, month: a.value, day: c.value)
                }
            }
            i = start
            // `21 Nov 2026`, `21. November 2026`, `21 de noviembre de 2026`
            if let d = number(maxDigits: 2) {
                _ = take(".")
                if skipSpaces() > 0 || b[safe: i].map({ $0 >= 0x80 || isLetter($0) }) == true {
                    skipWord("de")
                    if let m = monthName() {
                        _ = take(",")
                        skipSpaces()
                        skipWord("de")
                        if let y = number(maxDigits: 4), y.digits == 4 { return .known(year: y.value, month: m, day: d.value) }
                    }
                }
            }
            i = start
            return nil
        }
        // `Nov 21 2026`, `November 21, 2026`
        guard let m = monthName(), skipSpaces() > 0, let d = number(maxDigits: 2) else { i = start; return nil }
        _ = take(",")
        skipSpaces()
        guard let y = number(maxDigits: 4), y.digits == 4 else { i = start; return nil }
        return .known(year: y.value, month: m, day: d.value)
    }

    /// The separator between a date and a time: `T`, spaces, `, ` or ` - `.
    mutating func dateTimeSeparator() -> Bool {
        if take("T") || take("t") { return true }
        let start = i
        _ = take(",")
        skipSpaces()
        if take("-") { skipSpaces() }
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

    private func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 97 && (c | 0x20) <= 122 }

    /// A month name or abbreviation in any of the project's languages (`CSVMonthNames`).
    private mutating func monthName() -> Int? {
        let start = i
        while i < b.count, b[i] >= 0x80 || isLetter(b[i]) { i += 1 }
        guard i > start else { return nil }
        let word = String(decoding: b[start..<i], as: UTF8.self)
        _ = take(".")
        guard let m = CSVMonthNames.month(word) else { i = start; return nil }
        return m
    }

    /// Skips `word` and the spaces after it when it stands at the cursor as a whole word.
    private mutating func skipWord(_ word: String) {
        let w = Array(word.utf8)
        guard i + w.count < b.count, Array(b[i..<i + w.count]) == w, b[i + w.count] == 32 else { return }
        i += w.count
        skipSpaces()
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
        guard i < b.count, b[i] < 0x80 else { return nil }
        let c = Character(Unicode.Scalar(b[i]))
        guard set.contains(c) else { return nil }
        i += 1
        return c
    }

    @discardableResult
    private mutating func skipSpaces() -> Int {
        let start = i
        while i < b.count, b[i] == 32 { i += 1 }
        return i - start
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
