/// A zone column's cell: an IANA zone name (`Europe/Berlin`, OMRON connect's `Timezone`) or a
/// UTC offset (`UTC+0200` as Samsung Health writes it, `+02:00`, `GMT-5`, `Z`).
public enum CSVZoneCell {
    /// The zone `text` names; nil when it is neither a tz database name nor an offset.
    public static func zone(_ text: String) -> ZoneReader? {
        let t = text.trimmingBlanks
        if let seconds = offsetSeconds(t) { return ZoneReader(offsetSeconds: seconds) }
        guard t.contains("/") || t == "UTC" || t == "GMT" else { return nil }
        return ZoneReader(identifier: t)
    }

    /// Seconds east of UTC of `Z`, `UTC`, `GMT`, `±H`, `±HH`, `±HHMM`, `±HH:MM`, optionally after
    /// `UTC` or `GMT`; nil otherwise or beyond ±18:00.
    static func offsetSeconds(_ text: String) -> Int? {
        var s = Substring(text)
        if s == "Z" || s == "UTC" || s == "GMT" { return 0 }
        if s.hasPrefix("UTC") || s.hasPrefix("GMT") { s = s.dropFirst(3) }
        guard let signChar = s.first, signChar == "+" || signChar == "-" || signChar == "\u{2212}" else { return nil }
        s = s.dropFirst()
        let digits = s.filter { $0 != ":" }
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              s.filter({ $0 == ":" }).count <= 1 else { return nil }
        if s.contains(":") {
            let parts = s.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2 else { return nil }
        }
        let hours: Int, minutes: Int
        if s.contains(":") {
            let parts = s.split(separator: ":")
            hours = Int(parts[0]) ?? 99
            minutes = Int(parts[1]) ?? 99
        } else if digits.count <= 2 {
            hours = Int(digits) ?? 99
            minutes = 0
        } else {
            guard digits.count == 4 else { return nil }
            hours = Int(digits.prefix(2)) ?? 99
            minutes = Int(digits.suffix(2)) ?? 99
        }
        guard hours <= 18, minutes < 60, hours * 60 + minutes <= 18 * 60 else { return nil }
        let total = (hours * 60 + minutes) * 60
        return signChar == "+" ? total : -total
    }
}
