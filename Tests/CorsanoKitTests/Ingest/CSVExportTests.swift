import CorsanoKit
import Foundation
import Testing

/// The exports people have: each kind of problem, built from a real export's layout
/// (Tests/Fixtures/README.md names the sources), fed through the whole ingester in every chunk size.
@Suite struct CSVExportTests {
    /// The fixtures this suite reads (each from a real export's layout).
    static let fixtures: Set<String> = [
        "csv/omron-connect-tz.csv", "csv/omron-connect-email-de.csv", "csv/omron-connect-email-de-cp1252.csv",
        "csv/samsung-health-bp.csv", "csv/healthforyou-export.csv", "csv/health-auto-export.csv", "csv/beurer-bm58-de.csv",
        "csv/omron-connect-report-utf16le.csv", "csv/omron-connect-report-utf16be.csv",
    ]

    struct Run: Equatable, CustomStringConvertible {
        var lines: [String]
        var rejects: [String]
        var skips: [String]
        var notes: [String]
        var layouts: [String]
        var description: String { "lines \(lines)\nrejects \(rejects)\nskips \(skips)\nnotes \(notes)\nlayouts \(layouts)" }
    }

    static func run(_ bytes: [UInt8], chunk: Int = .max, options: CuffIngester.Options = .init(),
                    zone: ZoneReader = IngestRun.utc, format: IngestFormat? = nil) throws -> Run {
        let sink = RecordingSink()
        let ingester = CuffIngester(normalizer: IngestNormalizer(basis: NaiveTimeBasis(anchor: nil, zone: zone)), sink: sink)
        try ingester.ingest(MemoryByteSource(bytes, chunk: chunk), name: "in", format: format, options: options)
        return Run(lines: sink.lines, rejects: sink.rejects.map(\.message), skips: sink.skips, notes: sink.notes,
                   layouts: ingester.layouts.map(\.layout))
    }

    /// The same result in every chunk size (1 byte up to the whole input).
    static func runEveryChunk(_ bytes: [UInt8], options: CuffIngester.Options = .init(), zone: ZoneReader = IngestRun.utc) throws -> Run {
        let whole = try run(bytes, options: options, zone: zone)
        for chunk in 1...max(1, bytes.count) {
            let got = try run(bytes, chunk: chunk, options: options, zone: zone)
            #expect(got == whole, "chunk \(chunk)")
            if got != whole { break }
        }
        return whole
    }

    static func text(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// The fast path gives what the full reader gives, for every fixture in every chunk size.
    @Test(arguments: ["csv/bpm-app.csv", "csv/omblepy-user1.csv", "csv/omron-connect-report.csv", "csv/sbm69.csv",
                      "csv/withings-bp.csv"] + fixtures.sorted())
    func fastPathEqualsFullReader(_ file: String) throws {
        let bytes = try Fixtures.bytes(file)
        let encoding: TextEncoding? = file.contains("cp1252") ? .windows1252 : nil
        let full = try Self.run(bytes, options: .init(encoding: encoding, csvFastPath: false))
        #expect(!full.lines.isEmpty)
        for chunk in [1, 2, 3, 5, 8, 13, 64, 4096] {
            #expect(try Self.run(bytes, chunk: chunk, options: .init(encoding: encoding)) == full, "chunk \(chunk)")
        }
    }

    @Test func fastPathRowsKeepTheirLineNumbersAmongFullReaderRows() throws {
        let csv = "Date,Time,Sys,Dia,Pulse\r\n2026-11-20,07:02,124,79,61\r\n\"2026-11-20\",08:00,125,79,61\r\n2026-11-20,09:00,12o,79,61\r\n\r\n2026-11-20,10:00,126,79,\r\n2026-11-20,11:00,127,79\r\n"
        for fast in [true, false] {
            let r = try Self.run(Self.text(csv), chunk: 7, options: .init(csvFastPath: fast))
            #expect(r.lines.count == 3)
            #expect(r.rejects == ["in:4: systolic (column 'Sys'): '12o' is not a number", "in:7: record: 4 cells, the header (line 1) has 5"])
        }
    }

    // MARK: per-row zones

    @Test func omronConnectTimezoneColumnWinsOverTz() throws {
        let r = try Self.runEveryChunk(try Fixtures.bytes("csv/omron-connect-tz.csv"), zone: ZoneReader(identifier: "America/Los_Angeles")!)
        #expect(r.lines == [
            // Irregular heartbeat, Body Movement, Cuff wrap guide and Positioning Indicator: the status.
            reading(124, 79, 61, at: "2026-11-20T06:02:00Z", extra: #","status":{"bodyMovement":false,"cuffTooLoose":false,"irregularPulse":false,"improperPosition":false}"#),   // Europe/Berlin, UTC+01:00
            reading(131, 83, 66, at: "2026-11-20T20:47:00Z", extra: #","status":{"bodyMovement":false,"cuffTooLoose":false,"irregularPulse":true,"improperPosition":false}"#),
            reading(119, 77, 58, at: "2026-11-23T13:15:00Z", extra: #","status":{"bodyMovement":true,"cuffTooLoose":false,"irregularPulse":false,"improperPosition":false}"#),   // America/New_York, UTC-05:00
            reading(128, 81, 63, at: "2026-11-23T22:30:00Z", extra: #","status":{"bodyMovement":false,"cuffTooLoose":false,"irregularPulse":false,"improperPosition":false}"#),   // Asia/Manila, UTC+08:00
        ])
        #expect(r.layouts == ["omron-connect"])
        #expect(r.notes == ["in:1: columns ignored: IHB detection count, room temperature(°C), Measurement Mode, Device"])
        #expect(r.rejects.isEmpty)
    }

    @Test func offsetInTheStampWinsOverTheZoneColumn() throws {
        let csv = "Measurement Date,Timezone,SYS(mmHg),DIA(mmHg),Pulse(bpm)\n2026-11-20T07:02:00+09:00,Europe/Berlin,124,79,61\n"
        #expect(try Self.run(Self.text(csv)).lines == [reading(124, 79, 61, at: "2026-11-19T22:02:00Z")])
    }

    @Test func zoneCellsAsOffsetsAndBadZonesAreRejected() throws {
        let csv = """
        Date,Time,Sys,Dia,Time Zone
        2026-11-20,07:02,124,79,UTC+0200
        2026-11-20,07:02,124,79,-05:30
        2026-11-20,07:02,124,79,Mars/Olympus
        2026-11-20,07:02,124,79,

        """
        let r = try Self.run(Self.text(csv))
        #expect(r.lines == [reading(124, 79, nil, at: "2026-11-20T05:02:00Z"), reading(124, 79, nil, at: "2026-11-20T12:32:00Z")])
        #expect(r.rejects == ["in:4: zone (column 'Time Zone'): 'Mars/Olympus' is not a tz database zone or a UTC offset",
                              "in:5: zone (column 'Time Zone'): missing (the row's time has no zone)"])
    }

    @Test func dstGapIsRejectedNamingTheTransitionAndRepeatedHourTakesTheEarlierWithANote() throws {
        let csv = """
        Measurement Date,Timezone,SYS(mmHg),DIA(mmHg),Pulse(bpm)
        2026/03/29 02:30,Europe/Berlin,124,79,61
        2026/10/25 02:30,Europe/Berlin,131,83,66

        """
        let r = try Self.run(Self.text(csv))
        #expect(r.rejects == ["in:2: measuredAt: 2026-03-29T02:30:00 does not exist in Europe/Berlin (the clocks went from UTC+01:00 to UTC+02:00 around then); give the time with its offset"])
        #expect(r.lines == [reading(131, 83, 66, at: "2026-10-25T00:30:00Z")])
        #expect(r.notes.last == "in:3: measuredAt: 2026-10-25T02:30:00 happened twice in Europe/Berlin (UTC+02:00, then UTC+01:00); the earlier, UTC+02:00, was taken")
    }

    /// The same rule for naive stamps read with --tz (every format): one implementation in the core.
    @Test func tzReadingRejectsAGapAndNotesAFold() throws {
        let text = """
        {"systolic":120,"diastolic":80,"deviceTime":"2026-03-08T02:30:00"}
        {"systolic":121,"diastolic":80,"deviceTime":"2026-11-01T01:30:00"}
        {"systolic":122,"diastolic":80,"deviceTime":"2026-11-01T03:30:00"}

        """
        let (sink, _) = try IngestRun.run(text, zone: ZoneReader(identifier: "America/New_York")!)
        #expect(sink.rejects.map(\.message) == ["in:1: deviceTime: 2026-03-08T02:30:00 does not exist in America/New_York (the clocks went from UTC-05:00 to UTC-04:00 around then); give the time with its offset (--tz)"])
        #expect(sink.lines == [
            #"{"systolic":121,"diastolic":80,"measuredAt":"2026-11-01T05:30:00Z","deviceTime":"2026-11-01T01:30:00","isManualEntry":false}"#,
            #"{"systolic":122,"diastolic":80,"measuredAt":"2026-11-01T08:30:00Z","deviceTime":"2026-11-01T03:30:00","isManualEntry":false}"#,
        ])
        #expect(sink.notes == ["in:2: deviceTime: 2026-11-01T01:30:00 happened twice in America/New_York (UTC-04:00, then UTC-05:00); the earlier, UTC-04:00, was taken"])
    }

    @Test func samsungHealthStampsAreUTCAfterItsPreambleLine() throws {
        let r = try Self.runEveryChunk(try Fixtures.bytes("csv/samsung-health-bp.csv"), zone: ZoneReader(identifier: "Asia/Tokyo")!)
        #expect(r.lines == [
            reading(124, 79, 61, map: 94, at: "2026-11-20T06:02:14Z"),
            reading(131, 83, 66, map: 99, at: "2026-11-20T20:47:50Z"),
            reading(119, 77, nil, map: 91, at: "2026-11-21T06:05:03Z"),
        ])
        #expect(r.skips == ["in:1: 1 line before the header (the header is line 2)"])
        #expect(r.layouts == ["samsung-health"])
    }

    // MARK: names in other languages, units, qualifiers

    @Test func germanColumnNamesMapDatePulseAndPressures() throws {
        let r = try Self.runEveryChunk(try Fixtures.bytes("csv/beurer-bm58-de.csv"))
        #expect(r.lines == [
            reading(124, 79, 61, at: "2026-11-20T07:02:00Z", device: "2026-11-20T07:02:00"),
            reading(131, 83, 66, at: "2026-11-20T21:47:00Z", device: "2026-11-20T21:47:00"),
            reading(119, 77, 58, at: "2026-11-21T07:05:00Z", device: "2026-11-21T07:05:00"),
        ])
        #expect(r.notes == ["in:1: columns ignored: Speicherplatz"])
        #expect(r.layouts == ["beurer-bm58"])
    }

    @Test func healthAutoExportBracketedQualifiersAreNamesNotUnits() throws {
        let r = try Self.runEveryChunk(try Fixtures.bytes("csv/health-auto-export.csv"))
        #expect(r.lines == [reading(124, 79, nil, at: "2026-11-20T07:02:00Z", device: "2026-11-20T07:02:00"),
                            reading(131, 83, nil, at: "2026-11-20T21:47:00Z", device: "2026-11-20T21:47:00")])
        #expect(r.skips == ["in:3: no pressure values"])
        #expect(r.notes == ["in:1: columns ignored: Heart Rate [Min] (count/min), Heart Rate [Max] (count/min), Heart Rate [Avg] (count/min), Resting Heart Rate (count/min)"])
    }

    @Test(arguments: [("Blood Pressure [Systolic] (mmHg)", CSVHeader.Role.systolic), ("SYS(mmHg)", .systolic),
                      ("最高血圧（mmHg）", .systolic), ("Puls (1/min)", .pulse), ("Systole", .systolic), ("Diastole", .diastolic),
                      ("Uhrzeit", .time), ("Datum", .date), ("com.samsung.health.blood_pressure.pulse", .pulse),
                      ("Fuseau horaire", .zone), ("Zeitzone", .zone), ("Tętno", .pulse), ("Συστολική", .systolic),
                      ("לחץ דיאסטולי", .diastolic), ("სისტოლური", .systolic), ("النبض", .pulse), ("Yläpaine", .systolic),
                      ("Pulso", .pulse), ("Hartslag", .pulse), ("Messdatum", .dateTime)])
    func aliasesInTheLocales(_ name: String, _ role: CSVHeader.Role) {
        #expect(CSVHeader(cells: ["x", name]).columns[role] == 1)
    }

    /// Every role the table knows has names in English and in each of the 17 locales' languages.
    @Test func aliasTableCoversEveryLocaleAndNamesItsSource() {
        let sources = CSVHeader.aliasSources
        #expect(sources.allSatisfy { !$0.isEmpty })
        for locale in ["de", "fr", "es", "it", "nl", "da", "nb", "sv", "fi", "pl", "pt-PT", "el", "he", "ar", "ka"] {
            for role in [CSVHeader.Role.systolic, .diastolic, .pulse] {
                #expect(CSVHeader.aliases(for: role).contains { $0.source.contains(locale) }, "\(role) in \(locale)")
            }
        }
    }

    @Test func unitsInCellsDashBeforeTheTimeAndMonthNames() throws {
        let csv = """
        Datum;Systole;Diastole;Puls
        25.06.2025 - 19:14;118 mmHg;76 mmHg;69 bpm
        26. Juni 2025 07:05;121\u{A0}mmHg;78 mmHg;64 1/min
        27 juin 2025 08:00;119;77;60
        2 listopada 2025 08:00;119;77;60

        """
        let r = try Self.run(Self.text(csv))
        #expect(r.rejects.isEmpty, "\(r.rejects)")
        #expect(r.lines == [
            reading(118, 76, 69, at: "2025-06-25T19:14:00Z", device: "2025-06-25T19:14:00"),
            reading(121, 78, 64, at: "2025-06-26T07:05:00Z", device: "2025-06-26T07:05:00"),
            reading(119, 77, 60, at: "2025-06-27T08:00:00Z", device: "2025-06-27T08:00:00"),
            reading(119, 77, 60, at: "2025-11-02T08:00:00Z", device: "2025-11-02T08:00:00"),
        ])
    }

    // MARK: encodings

    @Test(arguments: ["csv/omron-connect-report-utf16le.csv", "csv/omron-connect-report-utf16be.csv"])
    func utf16WithBOMReadsAsTheUTF8FileWithTheSameLines(_ file: String) throws {
        let utf16 = try Self.runEveryChunk(try Fixtures.bytes(file))
        let utf8 = try Self.run(try Fixtures.bytes("csv/omron-connect-report.csv"))
        #expect(utf16 == utf8)
        #expect(utf16.lines.count == 4)
    }

    @Test func windows1252IsRefusedNamingTheOffsetAndReadWithEncoding() throws {
        let bytes = try Fixtures.bytes("csv/omron-connect-email-de-cp1252.csv")
        #expect(throws: IngestError.undecodable(source: "in", offset: 51, detail: "the bytes at this offset are not UTF-8")) {
            try Self.run(bytes)
        }
        let refused = RecordingSink()
        _ = try? CuffIngester(normalizer: IngestNormalizer(basis: NaiveTimeBasis(anchor: nil, zone: IngestRun.utc)), sink: refused)
            .ingest(MemoryByteSource(bytes, chunk: 7), name: "in", format: nil)
        #expect(refused.lines.isEmpty && refused.notes.isEmpty, "nothing before the refusal is half-read")
        let cp1252 = try Self.runEveryChunk(bytes, options: .init(encoding: .windows1252))
        let utf8 = try Self.run(try Fixtures.bytes("csv/omron-connect-email-de.csv"))
        #expect(cp1252 == utf8)
        #expect(cp1252.notes == ["in:1: columns ignored: Modellname des Geräts"])
        #expect(try Self.run(bytes, options: .init(encoding: .latin1)) == utf8)
    }

    @Test func badUTF8LaterInTheFileStopsAtItsLine() throws {
        var bytes = Self.text("sys,dia,datetime\n120,80,2026-11-20 07:00\n")
        bytes += [0x31, 0x32, 0xFF] + Self.text(",80,2026-11-20 08:00\n")
        #expect(throws: IngestError.undecodable(source: "in", offset: 43, detail: "byte 0xFF is not UTF-8")) { try Self.run(bytes) }
        let sink = RecordingSink()
        _ = try? CuffIngester(normalizer: IngestNormalizer(basis: NaiveTimeBasis(anchor: nil, zone: IngestRun.utc)), sink: sink)
            .ingest(MemoryByteSource(bytes, chunk: 5), name: "in", format: nil)
        #expect(sink.lines.count == 1)
    }

    @Test func utf16OddEndAndUnpairedSurrogateAreRefused() throws {
        let half: [UInt8] = [0xFF, 0xFE] + Array("sys,dia\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }) + [0x31]
        #expect(throws: IngestError.undecodable(source: "in", offset: 18, detail: "the input ends inside a UTF-16 character")) { try Self.run(half) }
        let lone: [UInt8] = [0xFF, 0xFE, 0x73, 0x00, 0x00, 0xDC]
        #expect(throws: IngestError.undecodable(source: "in", offset: 4, detail: "an unpaired UTF-16 surrogate")) { try Self.run(lone) }
    }

    // MARK: preambles, trailers, header line

    @Test func healthForYouSectionsBeforeAndAfterTheReadingTableAreReportedWithLines() throws {
        let r = try Self.runEveryChunk(try Fixtures.bytes("csv/healthforyou-export.csv"))
        #expect(r.lines == [
            reading(128, 81, 63, map: 97, at: "2026-11-21T21:12:00Z", device: "2026-11-21T21:12:00"),
            reading(119, 77, 58, map: 91, at: "2026-11-21T07:05:00Z", device: "2026-11-21T07:05:00"),
            reading(131, 83, 66, map: 99, at: "2026-11-03T21:47:00Z", device: "2026-11-03T21:47:00"),
            reading(124, 79, 61, map: 94, at: "2026-11-03T07:02:00Z", device: "2026-11-03T07:02:00"),
        ])
        #expect(r.skips == ["in:1-12: 10 lines before the header (the header is line 13)",
                            "in:19-21: 3 lines after the table (the reading table ended at the blank line before line 19 ('PULSE OXIMETER'))"])
        #expect(r.layouts == ["healthforyou"])
        #expect(r.rejects.isEmpty)
    }

    @Test func headerLineOverridesTheSearch() throws {
        let csv = "Sys;Dia;Date\n1;2;3\nsys;dia;datetime\n120;80;2026-11-20 07:00\n"
        let found = try Self.run(Self.text(csv), format: .csv)
        #expect(found.rejects.count == 2 && found.lines.count == 1)   // the first row names sys and dia, so it is taken
        let forced = try Self.run(Self.text(csv), options: .init(csv: CSVOptions(headerLine: 3)), format: .csv)
        #expect(forced.lines == [reading(120, 80, nil, at: "2026-11-20T07:00:00Z", device: "2026-11-20T07:00:00")])
        #expect(forced.skips == ["in:1-2: 2 lines before the header (the header is line 3)"])
    }

    // MARK: dates

    @Test func dayMonthOrderIsDecidedByTheFirstRowThatShowsItAndEarlierRowsAreHeld() throws {
        let r = try Self.runEveryChunk(try Fixtures.bytes("csv/omron-connect-email-de.csv"))
        #expect(r.lines == [
            reading(124, 79, 61, at: "2026-11-03T06:02:00Z"), reading(131, 83, 66, at: "2026-11-04T20:47:00Z"),
            reading(119, 77, 58, at: "2026-11-20T06:05:00Z"), reading(128, 81, 63, at: "2026-11-21T20:12:00Z"),
        ])
    }

    @Test func aFileAmbiguousToItsEndIsRefusedNamingDateOrder() throws {
        let csv = "Date,Time,Sys,Dia\n03/04/2026,07:00,120,80\n2026-04-05,07:00,121,80\n05/04/2026,07:00,122,80\n"
        let r = try Self.run(Self.text(csv))
        #expect(r.lines == [reading(121, 80, nil, at: "2026-04-05T07:00:00Z", device: "2026-04-05T07:00:00")])
        #expect(r.rejects == [
            "in:2: date: '03/04/2026' reads as day/month and as month/day and no row tells which; give --date-order dmy|mdy",
            "in:4: date: '05/04/2026' reads as day/month and as month/day and no row tells which; give --date-order dmy|mdy",
        ])
        let mdy = try Self.run(Self.text(csv), options: .init(csv: CSVOptions(dateOrder: .mdy)))
        #expect(mdy.lines.first == reading(120, 80, nil, at: "2026-03-04T07:00:00Z", device: "2026-03-04T07:00:00"))
    }

    @Test func aRowContradictingTheDecidedOrderIsRejected() throws {
        let csv = "Date,Sys,Dia\n13/04/2026 9:05 PM,120,80\n04/13/2026 9:05 PM,121,80\n"
        let r = try Self.run(Self.text(csv))
        #expect(r.lines == [reading(120, 80, nil, at: "2026-04-13T21:05:00Z", device: "2026-04-13T21:05:00")])
        #expect(r.rejects == ["in:3: date: '04/13/2026 9:05 PM' is not in dmy order (decided by line 2 ('13/04/2026 9:05 PM')); give --date-order if the file mixes orders"])
    }

    @Test func holdIsBoundedAndThenRowsAreRejectedNotBuffered() throws {
        let rows = (1...50).map { "0\($0 % 9 + 1)/0\($0 % 8 + 1)/2026 07:00,120,80" }.joined(separator: "\n")
        let csv = "Date,Sys,Dia\n" + rows + "\n20/11/2026 07:00,120,80\n"
        let sink = RecordingSink()
        let ingester = CuffIngester(normalizer: IngestNormalizer(basis: NaiveTimeBasis(anchor: nil, zone: IngestRun.utc)), sink: sink)
        try ingester.ingest(MemoryByteSource(Self.text(csv), chunk: 64), name: "in", format: nil,
                            options: .init(csv: CSVOptions(holdLimit: 200)))
        #expect(sink.rejects.first?.error?.contains("no row in the first 0 MiB tells which") == true)
        #expect(sink.lines.count + sink.rejects.count == 51)
    }

    // MARK: every record accounted for

    @Test func cutShortLastRowAndShiftedRowsAreRejectedNotPaddedOrShifted() throws {
        let csv = "Date,Time,Systolic (mmHg),Diastolic (mmHg),Pulse (bpm)\nNov 21 2026,21:12,128,81,63\nNov 21 2026,07:05,119,77,5,8\nNov 20 2026,21:47,131,83"
        let r = try Self.runEveryChunk(Self.text(csv))
        #expect(r.lines == [reading(128, 81, 63, at: "2026-11-21T21:12:00Z", device: "2026-11-21T21:12:00")])
        #expect(r.rejects == ["in:3: record: 6 cells, the header (line 1) has 5 (an unquoted decimal comma?)",
                              "in:4: record: 4 cells, the header (line 1) has 5"])
    }

    @Test func twoColumnsOfOneMeaningAreRefusedNamingBoth() throws {
        let csv = "Date,SYS,Systolic (mmHg),DIA,Pulse\nNov 21 2026 21:12,128,128,81,63\n"
        let r = try Self.run(Self.text(csv))
        #expect(r.lines.isEmpty)
        #expect(r.rejects == ["in:1: header: columns 'SYS' (2) and 'Systolic (mmHg)' (3) both mean systolic; remove one"])
        #expect(r.skips == ["in:2: 1 line under an unusable header (line 1 is not a header corsano can read; see the error for it)"])
    }

    /// Its cells make it a stamp column (issue 29: cells decide, not the name).
    @Test func anUnknownTimeColumnIsNeverDroppedSilently() throws {
        let csv = "Aufnahmezeitpunkt,Systole,Diastole\n2026-11-20 07:02,124,79\n"
        let r = try Self.runEveryChunk(Self.text(csv))
        #expect(r.lines.isEmpty)
        #expect(r.rejects == [
            "in:1: header: column 'Aufnahmezeitpunkt' (1) holds date-times ('2026-11-20 07:02' and 0 more of 1 rows) but no column name says it stamps the readings; readings would come out without their time. Name its role with --column datetime=Aufnahmezeitpunkt (or --column ignore=N to read them unstamped; see corsano-formats(5))",
        ])
    }

    @Test func forcedLayoutMustMatch() throws {
        let bytes = try Fixtures.bytes("csv/withings-bp.csv")
        let r = try Self.run(bytes, options: .init(csv: CSVOptions(layout: CSVLayout.named("omron-connect"))), format: .csv)
        #expect(r.lines.isEmpty)
        #expect(r.rejects.first?.hasPrefix("in:1: header: not the omron-connect layout") == true)
        let ok = try Self.run(bytes, options: .init(csv: CSVOptions(layout: CSVLayout.named("withings"))), format: .csv)
        #expect(ok.lines.count == 3 && ok.layouts == ["withings"])
    }

    @Test func everyLayoutsOwnHeaderDetectsAsThatLayout() {
        for layout in CSVLayout.all {
            let cells = CSVFields.split(Array(layout.header.utf8), delimiter: CSVFields.detectDelimiter(Array(layout.header.utf8))).cells
            let header = CSVHeader(cells: cells)
            #expect(CSVLayout.detect(header)?.name == layout.name, "\(layout.name)")
            #expect(header.problem == nil, "\(layout.name): \(String(describing: header.problem))")
        }
    }
}
