import CorsanoKit
import Testing

@Suite struct ClockAnchorTests {
    static func naive(_ s: String) -> NaiveDateTime { RFC3339.parseNaive(s)! }
    static func instant(_ s: String) -> Instant { RFC3339.parseInstant(s)! }

    @Test func phonePlusElapsedNaiveSecondsWhateverYearTheCuffBelieves() {
        let anchor = ClockAnchor(device: Self.naive("2025-01-01T00:03:10"), phone: Self.instant("2026-11-29T10:00:05Z"))
        #expect(anchor.realTime(of: Self.naive("2025-01-01T00:04:00")) == Self.instant("2026-11-29T10:00:55Z"))
        #expect(anchor.realTime(of: Self.naive("2024-12-30T08:15:00")) == Self.instant("2026-11-27T18:11:55Z"))
        #expect(anchor.realTime(of: Self.naive("2024-02-29T00:03:10")) == Self.instant("2026-01-26T10:00:05Z"))
    }

    /// New York springs forward at 2026-03-08 02:00 local: between anchor and record only one
    /// hour of New York wall time passes, but the cuff clock counted two. The anchor must use the
    /// cuff's two hours (pure elapsed seconds); a zone-aware computation would give one.
    @Test func noZoneOrDSTEntersBetweenAnchorAndRecord() {
        let anchor = ClockAnchor(device: Self.naive("2026-03-08T01:30:00"), phone: Self.instant("2026-03-08T06:30:00Z"))
        #expect(anchor.realTime(of: Self.naive("2026-03-08T03:30:00")) == Self.instant("2026-03-08T08:30:00Z"))
        let ny = ZoneReader(identifier: "America/New_York")!
        let wallClockElapsed = ny.instant(for: Self.naive("2026-03-08T03:30:00")).seconds(since: ny.instant(for: Self.naive("2026-03-08T01:30:00")))
        #expect(wallClockElapsed == 3600)
    }

    @Test(arguments: [
        ("America/New_York", "2026-03-08T01:30:00", "2026-03-08T06:30:00Z"),
        ("America/New_York", "2026-03-08T03:30:00", "2026-03-08T07:30:00Z"),
        ("America/New_York", "2026-03-08T02:30:00", "2026-03-08T07:30:00Z"),  // gap: read as 03:30 EDT
        ("America/New_York", "2026-11-01T01:30:00", "2026-11-01T05:30:00Z"),  // overlap: the earlier (EDT)
        ("Europe/Berlin", "2026-11-29T11:00:00", "2026-11-29T10:00:00Z"),
        ("Europe/Berlin", "2026-07-01T11:00:00", "2026-07-01T09:00:00Z"),
        ("Asia/Kolkata", "2026-07-01T05:30:00", "2026-07-01T00:00:00Z"),
        ("UTC", "2026-07-01T05:30:00", "2026-07-01T05:30:00Z"),
    ])
    func zoneReadsWallClock(_ zone: String, _ naive: String, _ utc: String) throws {
        let reader = try #require(ZoneReader(identifier: zone))
        #expect(reader.instant(for: Self.naive(naive)) == Self.instant(utc))
    }

    /// An anchor pair years apart can shift a valid cuff stamp past 9999 or before 0001; such a
    /// time has no RFC 3339 text, so the record is rejected naming `deviceTime`, never written.
    @Test(arguments: [
        ("0001-01-01T00:00:00", "9999-12-31T23:59:59Z", "9999-12-31T23:59:59", "by the clock anchor"),
        ("9999-12-31T23:59:59", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00", "by the clock anchor"),
    ])
    func anchoredTimeOutsideYears1To9999IsRejected(_ device: String, _ phone: String, _ stamp: String, _ how: String) {
        let anchor = ClockAnchor(device: Self.naive(device), phone: Self.instant(phone))
        var normalizer = IngestNormalizer(basis: NaiveTimeBasis(anchor: anchor, zone: ZoneReader(identifier: "UTC")!))
        var reading = CuffReading(systolic: 120, diastolic: 80, pulse: 60, deviceTime: Self.naive(stamp))
        #expect(normalizer.finish(reading: &reading)
            == .reject(IngestIssue("deviceTime: \(stamp) maps to a real time outside years 0001-9999 (\(how))", field: "deviceTime")))
        // The edge itself is still writable: 0001-01-01T00:00:00 with a zero shift.
        var edge = CuffReading(systolic: 120, diastolic: 80, pulse: 60, deviceTime: Self.naive("0001-01-01T00:00:00"))
        var same = IngestNormalizer(basis: NaiveTimeBasis(anchor: ClockAnchor(device: Self.naive("2026-01-01T00:00:00"),
            phone: Self.instant("2026-01-01T00:00:00Z")), zone: ZoneReader(identifier: "UTC")!))
        #expect(same.finish(reading: &edge) == .keep(note: nil))
        #expect(edge.measuredAt.map(RFC3339.format) == "0001-01-01T00:00:00Z")
    }

    @Test func zoneReadTimeBeforeYear1IsRejected() {
        var normalizer = IngestNormalizer(basis: NaiveTimeBasis(anchor: nil, zone: ZoneReader(identifier: "Asia/Tokyo")!))
        var reading = CuffReading(systolic: 120, diastolic: 80, pulse: 60, deviceTime: Self.naive("0001-01-01T05:00:00"))
        #expect(normalizer.finish(reading: &reading)
            == .reject(IngestIssue("deviceTime: 0001-01-01T05:00:00 maps to a real time outside years 0001-9999 (read in the zone)", field: "deviceTime")))
    }

    @Test func measuredAtPastYear9999InUTCIsRejected() throws {
        var normalizer = IngestNormalizer(basis: NaiveTimeBasis(anchor: nil, zone: ZoneReader(identifier: "UTC")!))
        var reading = CuffReading(systolic: 120, diastolic: 80, pulse: 60,
                                  measuredAt: try #require(RFC3339.parseInstant("9999-12-31T23:30:00-01:00")))
        #expect(normalizer.finish(reading: &reading) == .reject(IngestIssue("measuredAt: outside years 0001-9999 in UTC", field: "measuredAt")))
    }

    @Test func formatIfRepresentableRefusesYearsOutside1To9999() {
        #expect(RFC3339.formatIfRepresentable(Instant(secondsSinceEpoch: 253_402_300_799)) == "9999-12-31T23:59:59Z")
        #expect(RFC3339.formatIfRepresentable(Instant(secondsSinceEpoch: 253_402_300_800)) == nil)
        #expect(RFC3339.formatIfRepresentable(Instant(secondsSinceEpoch: -62_135_596_800)) == "0001-01-01T00:00:00Z")
        #expect(RFC3339.formatIfRepresentable(Instant(secondsSinceEpoch: -62_135_596_801)) == nil)
    }

    @Test func unknownZoneIsNil() {
        #expect(ZoneReader(identifier: "Mars/Olympus") == nil)
        #expect(ZoneReader(identifier: "") == nil)
    }
}

@Suite struct ReadingValidatorTests {
    static func r(_ s: Int, _ d: Int, _ p: Int? = 60, map: Int? = nil) -> CuffReading {
        CuffReading(systolic: s, diastolic: d, pulse: p, meanArterialPressure: map)
    }

    @Test(arguments: [
        (r(120, 80), nil), (r(50, 20), nil), (r(300, 200), nil), (r(120, 80, nil), nil), (r(120, 80, 20), nil), (r(120, 80, 250), nil),
        (r(49, 20), "systolic: 49 mmHg outside 50-300"), (r(301, 80), "systolic: 301 mmHg outside 50-300"),
        (r(120, 19), "diastolic: 19 mmHg outside 20-200"), (r(250, 201), "diastolic: 201 mmHg outside 20-200"),
        (r(80, 80), "systolic: 80 mmHg not above diastolic 80 mmHg"), (r(80, 90), "systolic: 80 mmHg not above diastolic 90 mmHg"),
        (r(120, 80, 19), "pulse: 19 bpm outside 20-250"), (r(120, 80, 251), "pulse: 251 bpm outside 20-250"),
        (r(Int.max, Int.min, Int.min), "systolic: \(Int.max) mmHg outside 50-300"),
    ] as [(CuffReading, String?)])
    func ranges(_ reading: CuffReading, _ reason: String?) {
        #expect(ReadingValidator.standard.validate(reading)?.reason == reason)
    }

    @Test func reportedMAPMustLieBetweenDiastolicAndSystolic() {
        #expect(ReadingValidator.standard.reportedMAPIssue(Self.r(120, 80, map: 80)) == nil)
        #expect(ReadingValidator.standard.reportedMAPIssue(Self.r(120, 80, map: 120)) == nil)
        #expect(ReadingValidator.standard.reportedMAPIssue(Self.r(120, 80)) == nil)
        #expect(ReadingValidator.standard.reportedMAPIssue(Self.r(120, 80, map: 79))?.field == "meanArterialPressure")
        #expect(ReadingValidator.standard.reportedMAPIssue(Self.r(120, 80, map: 121))?.field == "meanArterialPressure")
    }
}

@Suite struct ReadingJSONBytesTests {
    static let readings: [CuffReading] = [
        CuffReading(systolic: 121, diastolic: 79, pulse: 64),
        CuffReading(systolic: -5, diastolic: Int.min, pulse: Int.max, meanArterialPressure: 0,
                    measuredAt: Instant(secondsSinceEpoch: 1_795_953_600, nanoseconds: 120_000_000),
                    deviceTime: RFC3339.parseNaive("0001-01-01T00:00:00"), receivedAt: "t\"\\\n\r\t\u{01}\u{1F}é😀",
                    isManualEntry: true,
                    provenance: [ProvenanceField(name: "us\"er", rawJSON: "1"), ProvenanceField(name: "s", rawJSON: #"{"a":[1,2]}"#)]),
        CuffReading(systolic: 120, diastolic: 80, pulse: nil, measuredAt: Instant(secondsSinceEpoch: -1, nanoseconds: 1)),
        // The longest fixed part: four 20-byte integers, a 30-byte stamp, a device time.
        CuffReading(systolic: Int.min, diastolic: Int.min, pulse: Int.min, meanArterialPressure: Int.min,
                    measuredAt: Instant(secondsSinceEpoch: 253_402_300_799, nanoseconds: 999_999_999),
                    deviceTime: RFC3339.parseNaive("9999-12-31T23:59:59"), isManualEntry: true),
        CuffReading(systolic: 120, diastolic: 80, pulse: 60, measuredAt: Instant(secondsSinceEpoch: 400_000_000_000)),
        CuffReading(systolic: 120, diastolic: 80, pulse: 60, measuredAt: Instant(secondsSinceEpoch: -70_000_000_000, nanoseconds: 5)),
        CuffReading(systolic: 120, diastolic: 80, pulse: nil, measuredAt: Instant(secondsSinceEpoch: 253_402_300_799)),
    ]

    @Test(arguments: readings)
    func bytesEqualJSONLine(_ reading: CuffReading) {
        for derive in [false, true] {
            var bytes: [UInt8] = []
            reading.appendJSONLine(to: &bytes, includeDerivedMAP: derive)
            #expect(String(decoding: bytes, as: UTF8.self) == reading.jsonLine(includeDerivedMAP: derive))
        }
    }

    @Test func formatsAsBefore() {
        #expect(RFC3339.format(Instant(secondsSinceEpoch: -1, nanoseconds: 1)) == "1969-12-31T23:59:59.000000001Z")
        #expect(RFC3339.format(Instant(secondsSinceEpoch: 0, nanoseconds: 500_000_000)) == "1970-01-01T00:00:00.5Z")
        #expect(RFC3339.parseNaive("0099-02-03T04:05:06")?.description == "0099-02-03T04:05:06")
    }
}

@Suite struct JSONBytesIntTests {
    @Test(arguments: [0, 9, 10, 99, 100, 999, 1000, 12_345, -1, -10, Int.max, Int.min])
    func decimalLikeString(_ value: Int) {
        var out: [UInt8] = []
        JSONBytes.appendInt(value, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == String(value))
    }
}
