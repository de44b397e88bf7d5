/// The accepted range of each user-profile field, stated once for validation, flags and docs.
///
/// Height 50-250 cm and weight 20-300 kg cover adult and paediatric wearers of a wrist bracelet
/// and refuse typos (0, 1000); a birthdate is a real calendar date from 1900-01-01 up to today
/// (never in the future); skin tone is the Fitzpatrick scale I-VI as 1-6.
public enum ProfileRules {
    /// Height in cm.
    public static let heightCm: ClosedRange<Int> = 50...250
    /// Weight in kg.
    public static let weightKg: ClosedRange<Int> = 20...300
    /// Fitzpatrick skin type.
    public static let skinTone: ClosedRange<Int> = 1...6
    /// The earliest birthdate accepted.
    public static let earliestBirthdate = CalendarDate(year: 1900, month: 1, day: 1)

    /// The JSON field names, which are also the flag names in camelCase (`skinTone` = `--skin-tone`).
    public static let fields = ["height", "weight", "wrist", "gender", "unit", "birthdate", "skinTone", "hairDensity"]

    /// The fields whose JSON values are integers (the rest are strings).
    public static let integerFields: Set<String> = ["height", "weight", "skinTone"]

    /// The flag spelling of a JSON field name: `skinTone` → `skin-tone`.
    public static func flagName(_ field: String) -> String {
        var out = ""
        for c in field {
            if c.isUppercase { out += "-" + c.lowercased() } else { out.append(c) }
        }
        return out
    }
}

/// A calendar date without time or zone (`YYYY-MM-DD`), as a birthdate is.
public struct CalendarDate: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int

    /// Creates a date; fields are not checked (use `parse` for input).
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD` naming a real date; nil otherwise.
    public static func parse(_ text: String) -> CalendarDate? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              CivilCalendar.isValid(year: y, month: m, day: d, hour: 0, minute: 0, second: 0) else { return nil }
        return CalendarDate(year: y, month: m, day: d)
    }

    /// The UTC calendar date of `instant` (the caller's "today").
    public init(utcDateOf instant: Instant) {
        let days = instant.secondsSinceEpoch >= 0 ? instant.secondsSinceEpoch / 86_400
            : (instant.secondsSinceEpoch - 86_399) / 86_400
        let civil = CivilCalendar.civilFromDays(days)
        self.init(year: civil.year, month: civil.month, day: civil.day)
    }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ v: Int, _ w: Int) -> String { String(repeating: "0", count: max(0, w - String(v).count)) + String(v) }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}
