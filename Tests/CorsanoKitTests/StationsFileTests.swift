import CorsanoKit
import Foundation
import Testing

/// The stations file (corsano-formats(5) "Stations"): calibrate-many.sh's two fields, then named
/// ones; every line that is not a station is refused naming the file, line and field, never skipped.
@Suite struct StationsFileTests {
    static func parse(_ text: String) throws(StationsFileError) -> [Station] {
        try StationsFile.parse(Array(text.utf8), source: "lab/stations.txt")
    }

    @Test func readsTheFieldsAndTheNamedValues() throws {
        let stations = try Self.parse("""
            # BRACELET-URI  CUFF-SOURCE  NAME=VALUE...
            sim:bracelet-01.json  cuff-01.jsonl

            unix:/run/gw/2.sock\tble:A0:9E:1A:12:34:56  station=bench-2 cuff=A0:9E:1A:12:34:56 # the left bench
              tcp:10.0.0.7:7001 cuff-3.jsonl subject=S-017 serial=C287-0042 station=bench-3
            """)
        #expect(stations == [
            Station(line: 2, name: "sim:bracelet-01.json", bracelet: "sim:bracelet-01.json", cuff: "cuff-01.jsonl"),
            Station(line: 4, name: "bench-2", bracelet: "unix:/run/gw/2.sock", cuff: "ble:A0:9E:1A:12:34:56", cuffID: "A0:9E:1A:12:34:56"),
            Station(line: 5, name: "bench-3", bracelet: "tcp:10.0.0.7:7001", cuff: "cuff-3.jsonl", subject: "S-017", serial: "C287-0042"),
        ])
    }

    /// calibrate-many.sh's own stations file reads as it is.
    @Test func theShippedExampleReads() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/lab/stations.txt")
        let stations = try StationsFile.parse(Array(try Data(contentsOf: url)), source: url.path)
        #expect(stations.map(\.bracelet) == ["sim:bracelet-01.json", "sim:bracelet-02.json", "sim:bracelet-03.json"])
        #expect(stations.map(\.cuff) == ["cuff-01.jsonl", "cuff-02.jsonl", "cuff-03.jsonl"])
    }

    @Test func aBOMAndCRLFLineEndsAreTaken() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("sim cuff.jsonl station=a\r\nsim:x.json cuff.jsonl\r\n".utf8)
        let stations = try StationsFile.parse(bytes, source: "s.txt")
        #expect(stations.map(\.name) == ["a", "sim:x.json"])
        #expect(stations.map(\.cuff) == ["cuff.jsonl", "cuff.jsonl"])
    }

    static func b(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Each case: the file's bytes, then the message it is refused with.
    static let refused: [([UInt8], String)] = [
        (b("sim\n"), "lab/stations.txt:1: cuff source: missing: a station is BRACELET-URI CUFF-SOURCE [NAME=VALUE...]"),
        (b("sim station=a\n"), "lab/stations.txt:1: cuff source: missing: a station is BRACELET-URI CUFF-SOURCE [NAME=VALUE...]"),
        (b("# ok\nbluetooth:AA cuff.jsonl\n"),
         "lab/stations.txt:2: bracelet: 'bluetooth:AA' is not a bracelet URI (sim, sim:SCENARIO.json, unix:PATH, tcp:HOST:PORT or exec:COMMAND)"),
        (b("sim cuff.jsonl Subject=S1\n"), "lab/stations.txt:1: Subject: unknown name (a line may give subject=, cuff=, station=, serial=)"),
        (b("sim cuff.jsonl sujet=S1\n"), "lab/stations.txt:1: sujet: unknown name (a line may give subject=, cuff=, station=, serial=)"),
        (b("sim cuff.jsonl subject=S1 subject=S2\n"), "lab/stations.txt:1: subject: given twice"),
        (b("sim cuff.jsonl serial=\n"), "lab/stations.txt:1: serial: empty value"),
        (b("sim cuff.jsonl bench-2\n"),
         "lab/stations.txt:1: 'bench-2' is not NAME=VALUE (fields hold no spaces; one of subject=, cuff=, station=, serial=)"),
        (b("sim a.jsonl station=s\nsim:b.json b.jsonl station=s\n"), "lab/stations.txt:2: station: station 's' is also on line 1"),
        (b("sim a.jsonl\nsim b.jsonl station=t\n"), "lab/stations.txt:2: bracelet: 'sim' is also on line 1"),
        (b("sim a.jsonl serial=X\nsim:b.json b.jsonl serial=X\n"), "lab/stations.txt:2: serial: 'X' is also on line 1"),
        (b("sim a.jsonl\u{7}\n"), "lab/stations.txt:1: holds control character U+0007"),
        (b("sim a.jsonl\nsim:b.json ") + [0xFF, 0x0A], "lab/stations.txt:2: not UTF-8 text"),
    ]

    @Test(arguments: refused.indices)
    func aLineThatIsNotAStationIsRefusedNamingIt(_ i: Int) {
        let (input, message) = Self.refused[i]
        do {
            let stations = try StationsFile.parse(input, source: "lab/stations.txt")
            Issue.record("read as \(stations)")
        } catch {
            #expect(error.message == message)
        }
    }
}
