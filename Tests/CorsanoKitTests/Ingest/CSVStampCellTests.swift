import CorsanoKit
import Foundation
import Testing

/// Issue 29: a column's cells, not its name, say whether it stamps the readings; `--column`
/// names a role; the OMRON connect logbook in each of its 15 languages.
@Suite struct CSVStampCellTests {
    /// A fixture as UTF-8 text (UTF-16 by its BOM, windows-1252 by its name).
    static func text(_ file: String) throws -> String {
        let data = try Data(contentsOf: Fixtures.root.appendingPathComponent(file))
        if file.contains("cp1252") { return try #require(String(data: data, encoding: .windowsCP1252)) }
        if file.contains("utf16") { return try #require(String(data: data, encoding: .utf16)) }
        return try #require(String(data: data, encoding: .utf8))
    }

    static func ingest(_ text: String, columns: [CSVColumnAssignment] = []) throws -> CSVExportTests.Run {
        try CSVExportTests.run(Array(text.utf8), options: .init(csv: CSVOptions(columns: columns)))
    }

    /// The fixture with every column the alias table reads as a date, time, date-time or epoch
    /// renamed `StampN` (a word the table does not know), and the new names.
    static func renamingStamps(_ text: String) throws -> (String, [String]) {
        var lines = text.components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { line in
            let bytes = Array(line.utf8)
            return CSVHeader(cells: CSVFields.split(bytes, delimiter: CSVFields.detectDelimiter(bytes)).cells).namesPressures
        })
        var line = lines[index]
        let cr = line.hasSuffix("\r")
        if cr { line.removeLast() }
        let bom = line.hasPrefix("\u{FEFF}")
        if bom { line.removeFirst() }
        let bytes = Array(line.utf8)
        let delimiter = CSVFields.detectDelimiter(bytes)
        var cells = CSVFields.split(bytes, delimiter: delimiter).cells
        let header = CSVHeader(cells: cells)
        var renamed: [String] = []
        for role in [CSVHeader.Role.dateTime, .date, .time, .unixMilliseconds] {
            guard let i = header.columns[role] else { continue }
            cells[i] = "Stamp\(renamed.count + 1)"
            renamed.append(cells[i])
        }
        let d = String(UnicodeScalar(delimiter))
        lines[index] = (bom ? "\u{FEFF}" : "") + cells.map { $0.contains(d) || $0.contains("\"") ? "\"" + $0.replacing("\"", with: "\"\"") + "\"" : $0 }
            .joined(separator: d) + (cr ? "\r" : "")
        return (lines.joined(separator: "\n"), renamed)
    }

    static let csvFixtures: [String] = (try? FileManager.default.contentsOfDirectory(
        atPath: Fixtures.root.appendingPathComponent("csv").path).map { "csv/" + $0 }.sorted()) ?? []

    /// Must show: in every CSV fixture, the stamp columns renamed to words the table
    /// does not know are refused by their cells, naming each; never an unstamped reading. Named
    /// back with the `--column` the refusal gives, today's readings come out.
    @Test(arguments: csvFixtures)
    func renamedStampColumnsAreRefusedThenNamedBackWithColumn(_ file: String) throws {
        let original = try Self.text(file)
        let today = try Self.ingest(original)
        #expect(!today.lines.isEmpty, "\(today)")
        let (text, renamed) = try Self.renamingStamps(original)
        #expect(!renamed.isEmpty)
        let refused = try Self.ingest(text)
        #expect(refused.lines.isEmpty, "an unstamped reading came out: \(refused.lines)")
        #expect(refused.rejects.count == 1, "\(refused.rejects)")
        let reason = try #require(refused.rejects.first)
        for name in renamed { #expect(reason.contains("column '\(name)'"), "\(reason)") }
        // The refusal's own advice reads the file as before.
        let advice = reason.matches(of: /--column ([a-z]+=[^ ;)]+)/).map { String($0.output.1) }.filter { !$0.hasPrefix("ignore=") }
        #expect(advice.count == renamed.count, "\(reason)")
        let named = try Self.ingest(text, columns: advice.compactMap(CSVColumnAssignment.init))
        #expect(named.lines == today.lines, "\(named)")
        #expect(named.rejects == today.rejects)
        #expect(named.layouts == today.layouts)
    }

    @Test func aStampColumnWithAnUnknownNameIsRefusedNamingItsCellsAndTheFix() throws {
        let r = try Self.ingest("When,Systolic,Diastolic\n2026-11-20 07:02,124,79\n2026-11-20 21:47,131,83\n")
        #expect(r.lines.isEmpty)
        #expect(r.rejects == ["in:1: header: column 'When' (1) holds date-times ('2026-11-20 07:02' and 1 more of 2 rows) but no column name says it stamps the readings; readings would come out without their time. Name its role with --column datetime=When (or --column ignore=N to read them unstamped; see corsano-formats(5))"])
        #expect(r.skips == ["in:2-3: 2 lines under an unusable header (line 1 is not a header corsano can read; see the error for it)"])
        let ok = try Self.ingest("When,Systolic,Diastolic\n2026-11-20 07:02,124,79\n", columns: [try #require(CSVColumnAssignment("datetime=1"))])
        #expect(ok.lines == [reading(124, 79, nil, at: "2026-11-20T07:02:00Z", device: "2026-11-20T07:02:00")])
    }

    /// A column whose name says time of day ("Time") but whose cells are Unix time or
    /// date-times, with no date column: refused naming what its cells hold and the --column that
    /// reads it, which then does; a real time-of-day column still says it lacks a date.
    @Test(arguments: [("1795677734", "Unix seconds", "2026-11-26T07:22:14Z"), ("2026-11-26 07:22:14", "date-times", "2026-11-26T07:22:14Z")])
    func aTimeColumnHoldingWholeStampsSuggestsTheColumnThatReadsIt(_ cell: String, _ kind: String, _ at: String) throws {
        let csv = "Time,Systolic,Diastolic\n\(cell),124,79\n"
        let refused = try Self.ingest(csv)
        #expect(refused.lines.isEmpty)
        #expect(refused.rejects == ["in:1: header: column 'Time' (1) holds \(kind) ('\(cell)' and 0 more of 1 rows), not times of day as its name says, "
                                    + "and no column holds the date; read it with --column datetime=Time (see corsano-formats(5))"], "\(refused)")
        let ok = try Self.ingest(csv, columns: [try #require(CSVColumnAssignment("datetime=Time"))])
        #expect(ok.lines.count == 1 && ok.lines[0].contains(at), "\(ok)")
        let timeOfDay = try Self.ingest("Time,Systolic,Diastolic\n07:22,124,79\n")
        #expect(timeOfDay.rejects == ["in:1: header: column 'Time' holds a time of day but no column holds the date"], "\(timeOfDay)")
    }

    @Test(arguments: [("1795677734", "2026-11-26T07:22:14Z"), ("1795677734000", "2026-11-26T07:22:14Z")])
    func epochColumnsAreStampsAndDatetimeReadsThem(_ cell: String, _ at: String) throws {
        let csv = "id,sys,dia,moment\n7,124,79,\(cell)\n"
        let refused = try Self.ingest(csv)
        #expect(refused.rejects.first?.contains("column 'moment' (4) holds Unix") == true, "\(refused)")
        let ok = try Self.ingest(csv, columns: [try #require(CSVColumnAssignment("datetime=moment"))])
        #expect(ok.lines == [reading(124, 79, nil, at: at)])
    }

    /// Record ids, counters and serials are no stamps: a typed list without time stays readable
    /// (and `cuff ingest` counts its readings as unstamped).
    @Test func countersAndIdsAreNoStamps() throws {
        let r = try Self.ingest("Nr,Sys,Dia,Serial\n1,124,79,20261121\n2,131,83,4294967296\n3,119,77,42\n")
        #expect(r.rejects.isEmpty && r.lines.count == 3, "\(r)")
        #expect(CSVStampKind.of("0946684799") == nil && CSVStampKind.of("4102444800") == nil)
        #expect(CSVStampKind.of("1999-12-31 23:59") == nil && CSVStampKind.of("2100-01-01") == nil)
        #expect(CSVStampKind.of("21:12") == .time && CSVStampKind.of("21/11/2026") == .date)
    }

    /// A header that maps its stamp keeps it; other stamp columns are named in a note.
    @Test func aMappedStampWinsAndTheOthersAreNamedInANote() throws {
        let csv = "start_time,update_time,systolic,diastolic\n2026-11-20 06:02:14,2026-11-20 06:03:00,124,79\n"
        let r = try Self.ingest(csv)
        #expect(r.lines == [reading(124, 79, nil, at: "2026-11-20T06:02:14Z", device: "2026-11-20T06:02:14")])
        #expect(r.notes.contains { $0.hasPrefix("in:1: read the time from 'start_time' (1); also column 'update_time' (2) holds date-times") }, "\(r.notes)")
    }

    @Test func columnOverridesTheTableAndIgnoreAndManual() throws {
        // An export whose pressure names are swapped: the user names the columns' roles.
        let csv = "Date,Dia,Sys,Typed\n2026-11-20 07:02,124,79,Yes\n2026-11-20 08:02,125,79,No\n"
        let a = try Self.ingest(csv, columns: ["manual=Typed", "systolic=2", "diastolic=Sys"].compactMap(CSVColumnAssignment.init))
        #expect(a.lines.first?.hasPrefix(#"{"systolic":124,"diastolic":79"#) == true, "\(a)")
        #expect(a.lines.first?.contains(#""isManualEntry":true"#) == true)
        #expect(a.lines.last?.contains(#""isManualEntry":false"#) == true)
        let missing = try Self.ingest(csv, columns: [try #require(CSVColumnAssignment("pulse=Puls"))])
        #expect(missing.rejects.first?.contains("--column pulse=Puls: column 'Puls' is not a column of this header") == true, "\(missing)")
        #expect(CSVColumnAssignment("height=2") == nil && CSVColumnAssignment("pulse=") == nil)
    }

    // MARK: the OMRON connect e-mailed logbook in its 15 languages

    /// `PDF_TITLE_CSV` and `PDF_DATE_OUTPUT` of each language of OMRON connect's mail/PDF
    /// language table (Tests/Fixtures/README.md names it); a zone of that language's country,
    /// the two rows' times as that zone gives them in UTC. Values are invented.
    static let omronLanguages: [(lang: String, header: String, zone: String, rows: (String, String), utc: (String, String))] = {
        let ymd = ("2026/11/21 21:12", "2026/11/03 07:02"), dmy = ("21/11/2026 21:12", "03/11/2026 07:02")
        let plus1 = ("2026-11-21T20:12:00Z", "2026-11-03T06:02:00Z")
        return [
            ("JA", "測定日,タイムゾーン,最高血圧（mmHg）,最低血圧（mmHg）,脈拍（bpm）,機種", "Asia/Tokyo", ymd, ("2026-11-21T12:12:00Z", "2026-11-02T22:02:00Z")),
            ("EN", "Measurement Date,Time Zone,SYS,DIA,Pulse,Device Model Name", "Europe/London",
             ("\"Nov 21, 2026 21:12\"", "\"Nov 3, 2026 07:02\""), ("2026-11-21T21:12:00Z", "2026-11-03T07:02:00Z")),
            ("ZH", "測量日期,時區,收縮壓(mmHg),舒張壓(mmHg),脈搏(bpm),機種", "Asia/Taipei", ymd, ("2026-11-21T13:12:00Z", "2026-11-02T23:02:00Z")),
            ("ZH-HANS", "测量日期,时区,高压（mmHg）,低压（mmHg）,脉搏（bpm）,机型", "Asia/Shanghai", ymd, ("2026-11-21T13:12:00Z", "2026-11-02T23:02:00Z")),
            ("KO", "측정일시,시간 영역,최고혈압 (mmHg),최저혈압 (mmHg),맥박 (bpm),제품 기종", "Asia/Seoul", ymd, ("2026-11-21T12:12:00Z", "2026-11-02T22:02:00Z")),
            ("DE", "Messdatum,Zeitzone,SYS,DIA,Pulse,Modellname des Geräts", "Europe/Berlin", dmy, plus1),
            ("FR", "Date de mesure,Fuseau horaire,SYS,DIA,Pulse,Nom du modèle de l’appareil", "Europe/Paris", dmy, plus1),
            ("IT", "Data misurazione,Fuso orario,SYS,DIA,Pulse,Nome modello dispositivo", "Europe/Rome", dmy, plus1),
            ("ES", "Fecha de medición,Zona horaria,SYS,DIA,Pulso,Nombre del modelo de dispositivo", "Europe/Madrid", dmy, plus1),
            ("NL", "Datum van meting,Tijdzone,SYS,DIA,Pulse,Modelnaam apparaat", "Europe/Amsterdam", dmy, plus1),
            ("PL", "Data pomiaru,Strefa czasowa,SYS,DIA,Pulse,Nazwa modelu urządzenia", "Europe/Warsaw", dmy, plus1),
            ("SV", "Mätdatum,Tidszon,SYS,DIA,Pulse,Enhetens modellnamn", "Europe/Stockholm", dmy, plus1),
            ("TR", "Ölçüm Tarihi,Saat Dilimi,SYS,DIA,Pulse,Cihaz Modeli Adı", "Europe/Istanbul", dmy, ("2026-11-21T18:12:00Z", "2026-11-03T04:02:00Z")),
            ("PT", "Data da medição,Fuso horário,SYS,DIA,Pulse,Nome do modelo do dispositivo", "America/Sao_Paulo",
             ("\"11/21, 2026 21:12\"", "\"11/3, 2026 07:02\""), ("2026-11-22T00:12:00Z", "2026-11-03T10:02:00Z")),
            ("VI", "Ngày đo huyết áp,Múi giờ,Huyết áp tâm thu,Huyết áp tâm trương,Nhịp tim,Tên Model thiết bị", "Asia/Ho_Chi_Minh", dmy,
             ("2026-11-21T14:12:00Z", "2026-11-03T00:02:00Z")),
        ]
    }()

    @Test func theTableHasFifteenLanguages() {
        #expect(Self.omronLanguages.map(\.lang) == ["JA", "EN", "ZH", "ZH-HANS", "KO", "DE", "FR", "IT", "ES", "NL", "PL", "SV", "TR", "PT", "VI"])
    }

    @Test(arguments: omronLanguages.map(\.lang))
    func omronLogbookInEachLanguage(_ lang: String) throws {
        let l = try #require(Self.omronLanguages.first { $0.lang == lang })
        let csv = "\(l.header)\n\(l.rows.0),\(l.zone),128,81,63,HEM-7361T\n\(l.rows.1),\(l.zone),124,79,,HEM-7361T\n"
        let r = try Self.ingest(csv)
        #expect(r.rejects.isEmpty, "\(r)")
        #expect(r.lines == [reading(128, 81, 63, at: l.utc.0), reading(124, 79, nil, at: l.utc.1)], "\(r)")
        let model = try #require(l.header.split(separator: ",").last)
        #expect(r.notes == ["in:1: columns ignored: \(model)"])
    }
}
