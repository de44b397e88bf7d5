/// The stamps of an Apple Health export: `2023-07-23 09:24:00 -0400`, local wall time with its
/// UTC offset (as every export since iOS 8 writes them). The offset makes each one an instant:
/// no zone, no anchor.
public enum AppleHealthStamp {
    /// The instant `text` names, nil when it is not `YYYY-MM-DD HH:MM:SS ±HHMM` with a valid
    /// date, time (second 60 is refused) and an offset of at most 18 hours.
    public static func instant(_ text: UnsafeRawBufferPointer) -> Instant? {
        guard text.count == 25, text[4] == 45, text[7] == 45, text[10] == 32, text[13] == 58, text[16] == 58,
              text[19] == 32, text[20] == 43 || text[20] == 45 else { return nil }
        func digits(_ at: Int, _ count: Int) -> Int? {
            var v = 0
            for i in at..<(at + count) {
                let d = Int(text[i]) - 48
                guard d >= 0, d <= 9 else { return nil }
                v = v * 10 + d
            }
            return v
        }
        guard let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2), let hour = digits(11, 2),
              let minute = digits(14, 2), let second = digits(17, 2), let oh = digits(21, 2), let om = digits(23, 2),
              CivilCalendar.isValid(year: year, month: month, day: day, hour: hour, minute: minute, second: second),
              oh <= 18, om <= 59 else { return nil }
        let offset = Int64((oh * 60 + om) * 60) * (text[20] == 45 ? -1 : 1)
        let days = CivilCalendar.daysFromCivil(year: year, month: month, day: day)
        let local = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return Instant(secondsSinceEpoch: local - offset)
    }

    /// `instant(_:)` on a string.
    public static func instant(_ text: String) -> Instant? {
        var copy = text
        return copy.withUTF8 { instant(UnsafeRawBufferPointer($0)) }
    }
}
