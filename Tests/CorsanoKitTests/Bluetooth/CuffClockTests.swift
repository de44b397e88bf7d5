import Testing
@testable import CorsanoKit

/// The cuff's clock over GATT and the anchor kept over a run.
@Suite struct CuffClockTests {
    static func naive(_ text: String) -> NaiveDateTime { RFC3339.parseNaive(text)! }
    static func instant(_ text: String) -> Instant { RFC3339.parseInstant(text)! }

    @Test func currentTimeWithFractions() throws {
        // 2025-01-01 00:03:10, Wednesday, 128/256 s, adjust reason 0.
        let value = try CuffClockValue.decode([0xE9, 0x07, 1, 1, 0, 3, 10, 3, 128, 0], characteristic: 0x2A2B)
        #expect(value == CuffClockValue(time: Self.naive("2025-01-01T00:03:10"), fraction: 0.5))
    }

    @Test func dateTimeHasNoFraction() throws {
        let value = try CuffClockValue.decode([0xEA, 0x07, 11, 29, 10, 0, 5], characteristic: 0x2A08)
        #expect(value == CuffClockValue(time: Self.naive("2026-11-29T10:00:05"), fraction: 0))
    }

    @Test(arguments: [[UInt8](repeating: 0, count: 10), [0xE9, 0x07, 0, 1, 0, 0, 0, 1, 0, 0], [0xE9, 0x07, 1, 0, 0, 0, 0, 1, 0, 0]])
    func unknownTimeIsNoClock(bytes: [UInt8]) throws {
        #expect(try CuffClockValue.decode(bytes, characteristic: 0x2A2B) == nil)
    }

    @Test func badValues() {
        #expect(throws: CuffClockValue.Problem.tooShort(characteristic: 0x2A2B, byteCount: 7, needed: 10)) {
            try CuffClockValue.decode([0xE9, 0x07, 1, 1, 0, 3, 10], characteristic: 0x2A2B)
        }
        #expect(throws: CuffClockValue.Problem.notATime("2025-13-1 0:0:0")) {
            try CuffClockValue.decode([0xE9, 0x07, 13, 1, 0, 0, 0], characteristic: 0x2A08)
        }
    }

    /// The value --set-clock writes reads back as the same time; the day of the week is ISO's.
    @Test(arguments: [("2026-11-29T10:00:05", 7), ("2025-01-01T00:03:10", 3), ("2024-02-29T23:59:59", 4), ("1970-01-01T00:00:00", 4)])
    func currentTimeValueRoundTrips(text: String, weekday: Int) throws {
        let time = Self.naive(text)
        let bytes = CuffClockValue.currentTimeValue(time)
        #expect(bytes.count == 10 && bytes[7] == UInt8(weekday) && bytes[9] == 0x01)
        #expect(try CuffClockValue.decode(bytes, characteristic: 0x2A2B)?.time == time)
    }

    @Test func naiveFromSecondsAndZoneWallTime() throws {
        #expect(NaiveDateTime(secondsSinceEpoch: -1) == Self.naive("1969-12-31T23:59:59"))
        #expect(NaiveDateTime(secondsSinceEpoch: Self.naive("2026-11-29T10:00:05").secondsSinceEpoch) == Self.naive("2026-11-29T10:00:05"))
        #expect(NaiveDateTime(secondsSinceEpoch: Self.naive("9999-12-31T23:59:59").secondsSinceEpoch + 1) == nil)
        let berlin = try #require(ZoneReader(identifier: "Europe/Berlin"))
        #expect(berlin.wallTime(of: Self.instant("2026-11-29T10:00:05Z")) == Self.naive("2026-11-29T11:00:05"))
        #expect(berlin.wallTime(of: Self.instant("2026-07-01T10:00:05Z")) == Self.naive("2026-07-01T12:00:05"))
    }

    @Test func firstReadAnchorsTakingTheFractionOff() {
        var clock = LiveCuffClock(zone: ZoneReader(identifier: "UTC")!)
        // The cuff says 00:03:10 and a half at host 10:00:05.6: its whole second began at 10:00:05.1.
        let reading = clock.connected(clock: CuffClockValue(time: Self.naive("2025-01-01T00:03:10"), fraction: 0.5),
                                      hostNow: Self.instant("2026-11-29T10:00:05.6Z"))
        let anchor = ClockAnchor(device: Self.naive("2025-01-01T00:03:10"), phone: Self.instant("2026-11-29T10:00:05Z"))
        #expect(reading == .anchored(anchor, offsetSeconds: -60_256_615))
        #expect(clock.anchor == anchor)
    }

    /// A read of the same clock one connect later, a second off by rounding, keeps the anchor:
    /// a replayed record maps to the instant it had (rule 3 keys on it); a clock that moved does not.
    @Test(arguments: [(Int64(0), true), (1, true), (-2, true), (3, false), (-3600, false)])
    func laterReads(shift: Int64, kept: Bool) throws {
        var clock = LiveCuffClock(zone: ZoneReader(identifier: "UTC")!)
        let first = ClockAnchor(device: Self.naive("2025-01-01T00:03:10"), phone: Self.instant("2026-11-29T10:00:05Z"))
        _ = clock.connected(clock: CuffClockValue(time: first.device), hostNow: first.phone)
        // 100 s later on both clocks, the cuff's shifted by `shift`.
        let device = try #require(first.device.adding(seconds: 100 + shift))
        let reading = clock.connected(clock: CuffClockValue(time: device), hostNow: Self.instant("2026-11-29T10:01:45Z"))
        if kept {
            #expect(reading == .unchanged(first) && clock.anchor == first)
        } else {
            #expect(reading == .moved(ClockAnchor(device: device, phone: Self.instant("2026-11-29T10:01:45Z")), seconds: shift))
        }
    }

    @Test func noClockKeepsAnEarlierAnchorOrReadsTheZone() {
        var clock = LiveCuffClock(zone: ZoneReader(identifier: "UTC")!)
        #expect(clock.connected(clock: nil, hostNow: Self.instant("2026-11-29T10:00:05Z")) == .none)
        let anchor = ClockAnchor(device: Self.naive("2025-01-01T00:03:10"), phone: Self.instant("2026-11-29T10:00:05Z"))
        _ = clock.connected(clock: CuffClockValue(time: anchor.device), hostNow: anchor.phone)
        #expect(clock.connected(clock: nil, hostNow: Self.instant("2026-11-29T10:05:00Z")) == .unchanged(anchor))
    }

    /// After a write: records seen before it, and stamps before the written time, stay on the old
    /// anchor; new stamps take the new one, also where the clock went back over its own range.
    @Test func writeSplitsOldRecordsFromNew() throws {
        var clock = LiveCuffClock(zone: ZoneReader(identifier: "UTC")!)
        // The cuff is 10 minutes ahead.
        let old = ClockAnchor(device: Self.naive("2026-11-29T10:10:05"), phone: Self.instant("2026-11-29T10:00:05Z"))
        _ = clock.connected(clock: CuffClockValue(time: old.device), hostNow: old.phone)
        let stored = CuffReading(systolic: 133, diastolic: 86, pulse: 71, deviceTime: Self.naive("2026-11-29T10:09:05"))
        clock.remember(stored)
        clock.wrote(Self.naive("2026-11-29T10:00:07"), hostNow: Self.instant("2026-11-29T10:00:07.4Z"))
        #expect(clock.basis(for: stored).anchor == old)
        let earlier = CuffReading(systolic: 120, diastolic: 80, pulse: 60, deviceTime: Self.naive("2026-11-29T09:00:00"))
        #expect(clock.basis(for: earlier).anchor == old)
        // Measured after the write, stamped in the range the old clock had already passed.
        let live = CuffReading(systolic: 128, diastolic: 82, pulse: 66, deviceTime: Self.naive("2026-11-29T10:09:05"))
        let new = ClockAnchor(device: Self.naive("2026-11-29T10:00:07"), phone: Self.instant("2026-11-29T10:00:07Z"))
        #expect(clock.basis(for: live).anchor == new)
        // Remembering after the write changes nothing.
        clock.remember(live)
        #expect(clock.basis(for: live).anchor == new)
    }
}
