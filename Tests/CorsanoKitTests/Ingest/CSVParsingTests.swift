import CorsanoKit
import Testing

@Suite struct CSVParsingTests {
    static func read(_ text: String) -> [CSVExpect] {
        let bytes = Array(text.utf8)
        let whole = readCSV(bytes, chunk: max(1, bytes.count))
        for chunk in 1...max(1, bytes.count) { #expect(readCSV(bytes, chunk: chunk) == whole, "chunk \(chunk)") }
        return whole
    }

    @Test func semicolonsDecimalCommasBOMAndBareCR() {
        let text = "\u{FEFF}Date;Systolic (mmHg);Diastolic (mmHg);Pulse (bpm)\r20.11.2026 07:02;124,4;79,5;61\r21.11.2026 7:05 PM;119;77;58"
        #expect(Self.read(text) == [
            .line(2, reading(124, 80, 61, device: "2026-11-20T07:02:00")),
            .line(3, reading(119, 77, 58, device: "2026-11-21T19:05:00")),
        ])
    }

    @Test func dateHeaderAliasAndDayMonthYear() {
        let text = "date;sys;dia;pulse\r\n20.11.2026 07:02;124,4;79,5;61\r\n21.11.2026 7:05 PM;119;77;58\r\n"
        #expect(Self.read(text) == [
            .line(2, reading(124, 80, 61, device: "2026-11-20T07:02:00")),
            .line(3, reading(119, 77, 58, device: "2026-11-21T19:05:00")),
        ])
    }

    @Test func quotedCellsWithDelimitersLineBreaksAndEscapedQuotes() {
        let text = "sys,dia,bpm,notes,time stamp\n120,80,60,\"tired, \"\"very\"\"\nsecond line\",2026-11-29T10:00:00+01:00\n121,79,,\"x\",\n"
        #expect(Self.read(text) == [
            .line(2, reading(120, 80, 60, at: "2026-11-29T09:00:00Z")),
            .reject(4, "dateTime (column 'time stamp'): missing"),
        ])
    }

    @Test func unitTextMissingMarkersAndKPa() {
        let text = "Systolic,Diastolic (kPa),Heart rate,MAP,Date,Time\n120 mmHg,10.7,64 bpm,-,Nov 21 2026,12:00 AM\n16 kPa,null,,,\"Nov 21, 2026\",12:30 pm\n"
        #expect(Self.read(text) == [
            .line(2, reading(120, 80, 64, device: "2026-11-21T00:00:00")),
            .reject(3, "diastolic (column 'Diastolic (kPa)'): missing"),
        ])
    }

    @Test(arguments: [
        ("2026-11-20 07:02:14", "2026-11-20T07:02:14"), ("2026-11-20T07:02", "2026-11-20T07:02:00"),
        ("2026/11/20 07:02:14.250", "2026-11-20T07:02:14"), ("20.11.2026 23:59:59", "2026-11-20T23:59:59"),
        ("Nov 21 2026 9:05 AM", "2026-11-21T09:05:00"), ("November 21, 2026, 12:05 p.m.", "2026-11-21T12:05:00"),
        ("21 Sept 2026 12:00 AM", "2026-09-21T00:00:00"), ("Feb 29 2028 00:00", "2028-02-29T00:00:00"),
    ])
    func dateForms(_ text: String, _ naive: String) {
        #expect(CSVTimestamp.parse(text) == .naive(RFC3339.parseNaive(naive)!))
    }

    @Test(arguments: ["2026-11-20", "Feb 29 2026 10:00", "20.11.26 10:00", "03/04/2026 10:00", "2026-11-20 13:00 PM",
                      "2026-11-20 0:00 AM", "2026-11-20 24:00", "Noc 21 2026 10:00", "2026-11-20 10:00 xyz"])
    func notDates(_ text: String) {
        #expect(CSVTimestamp.parse(text) == nil)
    }

    @Test func zonedISOIsAnInstantAndUnixMillisecondsAreExact() {
        #expect(CSVTimestamp.parse("2026-11-29T10:00:00.5-02:00") == .instant(Instant(secondsSinceEpoch: 1_795_953_600, nanoseconds: 500_000_000)))
        #expect(CSVTimestamp.unixMilliseconds("-1") == Instant(secondsSinceEpoch: -1, nanoseconds: 999_000_000))
        #expect(CSVTimestamp.unixMilliseconds("99999999999999999999") == nil)
        #expect(CSVTimestamp.unixMilliseconds("1795677734.5") == nil)
    }

    @Test func rejectsNameTheFieldAndColumn() {
        let text = "sys,dia,pulse,datetime\n12o,80,60,\n120,,60,\n120,80,sixty,\n120,80,60,yesterday\n120,80,60 kPa,\n99999999999999999999999,80,60,\n"
        #expect(Self.read(text) == [
            .reject(2, "systolic (column 'sys'): '12o' is not a number"),
            .reject(3, "diastolic (column 'dia'): missing"),
            .reject(4, "pulse (column 'pulse'): 'sixty' is not a number"),
            .reject(5, "dateTime (column 'datetime'): 'yesterday' is not a date and time of day"),
            .reject(6, "pulse (column 'pulse'): unit 'kpa' not understood"),
            .reject(7, "systolic (column 'sys'): '99999999999999999999999' out of range"),
        ])
    }

    /// One error for the problem, the other lines counted under it.
    @Test func headerWithoutPressureColumnsIsOneRejectAndTheRowsAreCounted() {
        #expect(Self.read("when,what\n2026-11-20 07:00,120/80\n") == [
            .reject(1, "header: no systolic or diastolic column (columns: when, what); no row names systolic and diastolic columns; see corsano-formats(5) for the column names read, or give --header-line N"),
            .skip(2, .unusableHeader),
        ])
    }

    @Test func overlongAndUnclosedRecordsAreRejectedNotBuffered() {
        var splitter = CSVRecordSplitter(maxRecordBytes: 16)
        var records: [CSVRawRecord] = []
        splitter.feed(Array("sys,dia\n\"120,80 and a very long unclosed cell\n121,81\n".utf8)) { records.append($0) }
        splitter.finish { records.append($0) }
        #expect(records.map(\.line) == [1, 2])
        #expect(records.map(\.overflowed) == [false, true])
        #expect(records[1].bytes.count == 16)
        var reader = CSVReadingReader()
        var outcomes: [CSVOutcome] = []
        for r in records + [CSVRawRecord(line: 3, bytes: Array("\"120,80".utf8))] { reader.read(r) { outcomes.append($0) } }
        reader.finish { outcomes.append($0) }
        let rejects = outcomes.compactMap { o -> String? in
            if case .row(_, _, .failure(let issue), _) = o { return issue.reason } else { return nil }
        }
        #expect(rejects == ["record: longer than 16 bytes", "record: quoted cell not closed"])
    }

    @Test(arguments: [("a,b;c", UInt8(44)), ("a;b;c,d", 59), ("a\tb\tc", 9), ("\"a;b;c\",d", 44)])
    func delimiterFromHeader(_ header: String, _ delimiter: UInt8) {
        #expect(CSVFields.detectDelimiter(Array(header.utf8)) == delimiter)
    }

    @Test(arguments: [("Systolic (mmHg)", CSVHeader.Role.systolic), ("SYS", .systolic), ("systolic_pressure", .systolic),
                      ("Diastolic Pressure", .diastolic), ("Heart rate", .pulse), ("Pulse Rate", .pulse), ("bpm", .pulse),
                      ("Mean Arterial Pressure", .meanArterialPressure), ("Time Stamp", .dateTime), ("Date/Time", .dateTime),
                      ("timestampUnixMs", .unixMilliseconds), ("User ID", .userId), ("Date", .date), ("Time", .time)])
    func headerSynonyms(_ name: String, _ role: CSVHeader.Role) {
        #expect(CSVHeader(cells: ["x", name]).columns[role] == 1)
    }
}
