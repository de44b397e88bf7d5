import CorsanoKit
import Foundation
import Testing

/// `corsano cuff ingest` on the exports people have, as a built binary: layouts in
/// the summary, encodings, the new flags, and corsano-formats(5) listing every layout and name.
@Suite struct CSVExportEndToEndTests {
    static func fixture(_ name: String) -> String { Corsano.fixtures.appendingPathComponent(name).path }

    @Test(arguments: [
        ("csv/omron-connect-tz.csv", 4, "read 4, written 4, skipped 0, dropped 0, rejected 0; layout: omron-connect"),
        ("csv/omron-connect-email-de.csv", 4, "read 4, written 4, skipped 0, dropped 0, rejected 0; layout: generic"),
        ("csv/samsung-health-bp.csv", 3, "read 4, written 3, skipped 1 (before the header: 1), dropped 0, rejected 0; layout: samsung-health"),
        ("csv/healthforyou-export.csv", 4, "read 17, written 4, skipped 13 (before the header: 10, after the table: 3), dropped 0, rejected 0; layout: healthforyou"),
        ("csv/health-auto-export.csv", 2, "read 3, written 2, skipped 1 (no pressure values: 1), dropped 0, rejected 0; layout: health-auto-export"),
        ("csv/beurer-bm58-de.csv", 3, "read 3, written 3, skipped 0, dropped 0, rejected 0; layout: beurer-bm58"),
        ("csv/omron-connect-report-utf16le.csv", 4, "read 4, written 4, skipped 0, dropped 0, rejected 0; layout: omron-connect-report"),
        ("csv/omron-connect-report-utf16be.csv", 4, "read 4, written 4, skipped 0, dropped 0, rejected 0; layout: omron-connect-report"),
    ])
    func everyExportIsReadAndItsLayoutNamed(_ file: String, _ count: Int, _ summary: String) throws {
        let r = try Corsano.run(["cuff", "ingest", "--tz", "UTC", Self.fixture(file)])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.count == count)
        #expect(r.stderr.hasSuffix("corsano: cuff ingest: \(summary)\n"), "\(r.stderr)")
    }

    @Test func skippedLinesAndIgnoredColumnsAreNamedWithTheirLines() throws {
        let file = Self.fixture("csv/healthforyou-export.csv")
        let r = try Corsano.run(["cuff", "ingest", "--tz", "UTC", file])
        #expect(r.stderr.hasPrefix("""
        \(file):1-12: skipped: 10 lines before the header (the header is line 13)
        \(file):13: note: columns ignored: Added manually
        \(file):19-21: skipped: 3 lines after the table (the reading table ended at the blank line before line 19 ('PULSE OXIMETER'))

        """), "\(r.stderr)")
    }

    @Test func excelWindows1252NeedsEncodingAndNamesTheByteOffset() throws {
        let file = Self.fixture("csv/omron-connect-email-de-cp1252.csv")
        let refused = try Corsano.run(["cuff", "ingest", file])
        #expect(refused.status == 65)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("\(file): byte offset 51: the bytes at this offset are not UTF-8"))
        #expect(refused.stderr.contains("--encoding windows-1252"))
        let read = try Corsano.run(["cuff", "ingest", "--encoding", "windows-1252", file])
        let utf8 = try Corsano.run(["cuff", "ingest", Self.fixture("csv/omron-connect-email-de.csv")])
        #expect(read.status == 0)
        #expect(read.lines == utf8.lines && read.lines.count == 4)
    }

    @Test func dateOrderAndHeaderLineFlags() throws {
        let csv = "exported 2026-11-30\nDate,Time,Sys,Dia\n03/04/2026,07:00,120,80\n"
        let ambiguous = try Corsano.run(["cuff", "ingest", "--tz", "UTC"], stdin: csv)
        #expect(ambiguous.status == 65)
        #expect(ambiguous.stderr.contains("<stdin>:3: date: '03/04/2026' reads as day/month and as month/day and no row tells which; give --date-order dmy|mdy"))
        let dmy = try Corsano.run(["cuff", "ingest", "--tz", "UTC", "--date-order", "dmy", "--header-line", "2"], stdin: csv)
        #expect(dmy.status == 0)
        #expect(dmy.lines == [#"{"systolic":120,"diastolic":80,"measuredAt":"2026-04-03T07:00:00Z","deviceTime":"2026-04-03T07:00:00","isManualEntry":false}"#])
        #expect(dmy.stderr.contains("<stdin>:1: skipped: 1 line before the header (the header is line 2)"))
    }

    @Test func fromCSVLayoutRequiresThatLayout() throws {
        let ok = try Corsano.run(["cuff", "ingest", "--from", "csv:omron-connect", Self.fixture("csv/omron-connect-tz.csv")])
        #expect(ok.status == 0 && ok.lines.count == 4)
        let wrong = try Corsano.run(["cuff", "ingest", "--from", "csv:samsung-health", Self.fixture("csv/omron-connect-tz.csv")])
        #expect(wrong.status == 65)
        #expect(wrong.stderr.contains(":1: header: not the samsung-health layout"))
    }

    @Test(arguments: [(["--from", "csv:nope"], "--from"), (["--date-order", "ddmm"], "--date-order"),
                      (["--encoding", "ebcdic"], "--encoding"), (["--header-line", "0"], "--header-line")])
    func badValuesAreUsageErrorsNamingTheFlag(_ args: [String], _ flag: String) throws {
        let r = try Corsano.run(["cuff", "ingest"] + args, stdin: "sys,dia\n120,80\n")
        #expect(r.status == 64)
        #expect(r.stderr.contains(flag))
        #expect(r.stdout.isEmpty)
    }

    /// Issue 29: one message per problem. A Withings export cut to its first three columns
    /// (`cut -d, -f1-3`) is one error naming the missing column and the layout it nearly
    /// matches, with or without --from; its rows are counted once.
    @Test(arguments: [[], ["--from", "csv"]])
    func aCSVExportMissingAColumnIsOneError(_ from: [String]) throws {
        let rows = (0..<2000).map { i in "\"2026-11-\(10 + i % 18) 0\(i % 10):00:00\",6\(i % 10),12\(i % 10)" }
        let csv = "Date,\"Heart rate\",Systolic\n" + rows.joined(separator: "\n") + "\n"
        let r = try Corsano.run(["cuff", "ingest", "--tz", "UTC"] + from, stdin: csv)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == """
            <stdin>:1: header: no diastolic column (columns: Date, Heart rate, Systolic); it comes nearest to the withings layout, which also has Diastolic, Comments; no row names systolic and diastolic columns; see corsano-formats(5) for the column names read, or give --header-line N
            <stdin>:2-2001: skipped: 2000 lines under an unusable header (line 1 is not a header corsano can read; see the error for it)
            corsano: cuff ingest: read 2001, written 0, skipped 2000 (under an unusable header: 2000), dropped 0, rejected 1

            """)
    }

    /// Input that is not text: named as such, its bytes escaped, exit 65 (not a usage error,
    /// never raw bytes on the terminal).
    @Test func binaryInputIsNamedNotTextWithItsBytesEscaped() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("i29-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("capture.bin")
        try Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x1B, 0x5B, 0x32, 0x4A, 0xFF, 0x0A]).write(to: file)
        let r = try Corsano.run(["cuff", "ingest", file.path])
        #expect(r.status == 65)
        #expect(r.stderr.contains("\(file.path): not text (it starts '\\x1F\\x8B\\x08\\x00"), "\(r.stderr)")
        #expect(!r.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0 }, "raw bytes on stderr")
        #expect(r.stdout.isEmpty)
    }

    /// A plain English export whose stamp column is called `When`: refused by its cells (65),
    /// read with the --column the refusal names.
    @Test func aStampColumnCalledWhenIsRefusedThenReadWithColumn() throws {
        let csv = "When,Systolic,Diastolic,Pulse\n2026-11-21 21:12,128,81,63\n2026-11-21 07:05,119,77,58\n"
        let refused = try Corsano.run(["cuff", "ingest", "--tz", "UTC"], stdin: csv)
        #expect(refused.status == 65)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("<stdin>:1: header: column 'When' (1) holds date-times"))
        #expect(refused.stderr.contains("--column datetime=When"))
        let read = try Corsano.run(["cuff", "ingest", "--tz", "UTC", "--column", "datetime=When"], stdin: csv)
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.lines.count == 2 && read.lines.allSatisfy { $0.contains(#""measuredAt":"2026-11-21T"#) })
        let bad = try Corsano.run(["cuff", "ingest", "--column", "height=1"], stdin: csv)
        #expect(bad.status == 64 && bad.stderr.contains("--column"))
    }

    /// corsano-formats(5) lists every layout with its header's column names, one a line, and names
    /// the file under examples/csv-headers that holds the exact header; and every column name of the table.
    @Test func formatsPageListsEveryLayoutAndColumnName() throws {
        let path = Corsano.packageRoot.appendingPathComponent("man/corsano-formats.5").path
        let out = try Shell.run("mandoc", ["-T", "utf8", "-O", "width=400", path])
        // A name's spaces are no-break spaces in the page (it breaks only between names).
        let page = out.stdout.replacing(/.\u{8}/, with: "").replacingOccurrences(of: "\u{A0}", with: " ")
        let lines = Set(page.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for layout in CSVLayout.all {
            #expect(page.contains(layout.name), "\(layout.name) missing: run scripts/man-formats-csv.py")
            let file = "examples/csv-headers/\(layout.name).csv"
            #expect(page.contains(file), "\(layout.name)'s header file not named: run scripts/man-formats-csv.py")
            let header = try String(contentsOf: Corsano.packageRoot.appendingPathComponent(file), encoding: .utf8)
            #expect(header == layout.header + "\n", "\(file) is not the header: run scripts/man-formats-csv.py")
            for cell in layout.header.split(separator: ",") where !cell.isEmpty {
                #expect(lines.contains(String(cell)), "\(layout.name)'s column '\(cell)' not on a line of its own: run scripts/man-formats-csv.py")
            }
        }
        for role in CSVHeader.Role.allCases {
            for alias in CSVHeader.aliases(for: role) {
                #expect(page.contains(alias.name), "'\(alias.name)' missing: run scripts/man-formats-csv.py")
            }
        }
    }
}
