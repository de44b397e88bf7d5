@testable import CorsanoKit
import Testing

/// POSIX TZ values without daylight-saving rules read as fixed offsets (the offset is *west* of
/// UTC: `<+03>-3` is three hours east); anything with rules or not a TZ value is refused.
@Suite struct ZoneReaderPOSIXTests {
    @Test(arguments: [
        ("UTC0", 0), ("GMT+0", 0), ("EST5", -5 * 3600), ("<+03>-3", 3 * 3600), ("<-0530>+5:30", -(5 * 3600 + 1800)),
        ("<+0545>-5:45", 5 * 3600 + 45 * 60), ("JST-9", 9 * 3600), ("XYZ-10:30:15", 10 * 3600 + 30 * 60 + 15),
    ])
    func fixedOffsetsAreRead(value: String, secondsEast: Int) throws {
        let zone = try #require(ZoneReader(posixTZ: value))
        #expect(zone.zone.secondsFromGMT() == secondsEast)
        #expect(zone.identifier == value, "the note names the value as given")
    }

    @Test(arguments: ["CET-1CEST,M3.5.0,M10.5.0/3", "EST5EDT,M3.2.0,M11.1.0", "Europe/Nowhere", "UT0", "UTC", "UTC+",
                      "UTC25", "UTC-19", "<+03", "<>-3", "UTC1:60", "UTC1:2:3:4", "UTC١", "", "<+03>-3x"])
    func anythingElseIsRefused(value: String) {
        #expect(ZoneReader(posixTZ: value) == nil, "\(value)")
    }
}
