import Foundation
import CorsanoKit
import Testing

/// One expected outcome of a CSV line: a reading as its JSON line, a skip, or a reject reason.
enum CSVExpect: Equatable, CustomStringConvertible {
    case line(Int, String)
    case skip(Int, SkipReason)
    case reject(Int, String)
    var description: String {
        switch self {
        case .line(let n, let s): return "\(n): \(s)"
        case .skip(let n, let r): return "\(n): skip \(r)"
        case .reject(let n, let r): return "\(n): reject \(r)"
        }
    }
}

/// Reads CSV bytes fed in chunks of `chunk` bytes, as `cuff ingest` would (before anchoring).
func readCSV(_ bytes: [UInt8], chunk: Int, options: CSVOptions = CSVOptions()) -> [CSVExpect] {
    var splitter = CSVRecordSplitter()
    var reader = CSVReadingReader(options: options)
    var out: [CSVExpect] = []
    func take(_ outcome: CSVOutcome) {
        switch outcome {
        case .row(let line, _, .success(.reading(let r)), _): out.append(.line(line, r.jsonLine()))
        case .row(let line, _, .success(.skipped(let why)), _): out.append(.skip(line, why))
        case .row(_, _, .success, _): break
        case .row(let line, _, .failure(let issue), _): out.append(.reject(line, issue.reason))
        case .skipped(let lines, _, let why, _): out.append(.skip(lines.lowerBound, why))
        case .header, .note: break
        }
    }
    let record: (CSVRawRecord) -> Void = { reader.read($0, take) }
    var i = 0
    while i < bytes.count {
        splitter.feed(bytes[i..<min(bytes.count, i + chunk)], record)
        i += chunk
    }
    splitter.finish(record)
    reader.finish(take)
    return out
}

func reading(_ sys: Int, _ dia: Int, _ pulse: Int?, map: Int? = nil, at: String? = nil, device: String? = nil, extra: String = "") -> String {
    var s = #"{"systolic":\#(sys),"diastolic":\#(dia)"#
    if let pulse { s += #","pulse":\#(pulse)"# }
    if let map { s += #","meanArterialPressure":\#(map)"# }
    if let at { s += #","measuredAt":"\#(at)""# }
    if let device { s += #","deviceTime":"\#(device)""# }
    return s + #","isManualEntry":false\#(extra)}"#
}

/// The SBM69 tool's five status columns as the reading's `status` (`not_exceeded` is withinRange).
func sbm69Status(irregular: Bool) -> String {
    #","status":{"bodyMovement":false,"cuffTooLoose":false,"irregularPulse":\#(irregular),"pulseRateRange":"withinRange","improperPosition":false}"#
}

@Suite struct CSVFixtureTests {
    static let expected: [(String, [CSVExpect])] = [
        ("csv/bpm-app.csv", [
            .line(2, reading(124, 79, 61, at: "2026-11-26T07:22:14Z")),
            .line(3, reading(131, 83, 66, at: "2026-11-26T22:07:50Z")),
        ]),
        ("csv/omblepy-user1.csv", [
            // mov and ihb are the cuff's status bits: the reading's status.
            .line(2, reading(124, 79, 61, device: "2026-11-20T07:02:14", extra: #","status":{"bodyMovement":false,"irregularPulse":false}"#)),
            .line(3, reading(131, 83, 66, device: "2026-11-20T21:47:50", extra: #","status":{"bodyMovement":false,"irregularPulse":true}"#)),
            .line(4, reading(119, 77, 58, device: "2026-11-21T07:05:03", extra: #","status":{"bodyMovement":true,"irregularPulse":false}"#)),
            .line(5, reading(128, 81, 63, device: "2026-11-21T21:12:40", extra: #","status":{"bodyMovement":false,"irregularPulse":false}"#)),
        ]),
        ("csv/omron-connect-report.csv", [
            .line(2, reading(128, 81, 63, device: "2026-11-21T21:12:00")),
            .line(3, reading(119, 77, 58, device: "2026-11-21T07:05:00")),
            .line(4, reading(131, 83, 66, device: "2026-11-20T21:47:00")),
            .line(5, reading(124, 79, 61, device: "2026-11-20T07:02:00")),
        ]),
        ("csv/sbm69.csv", [
            .line(2, reading(124, 79, 61, map: 94, device: "2026-11-20T07:02:00", extra: #","userId":1"# + sbm69Status(irregular: false))),
            .line(3, reading(131, 83, 66, map: 99, device: "2026-11-20T21:47:00", extra: #","userId":1"# + sbm69Status(irregular: true))),
        ]),
        ("csv/withings-bp.csv", [
            .line(2, reading(128, 81, 63, device: "2026-11-21T21:12:31")),
            .skip(3, .noPressure),
            .line(4, reading(119, 77, 58, device: "2026-11-21T07:05:44")),
            .line(5, reading(124, 79, 61, device: "2026-11-20T07:02:44")),
        ]),
    ]

    @Test(arguments: expected.map(\.0))
    func everyFixtureReadsInEveryChunkSize(_ file: String) throws {
        let bytes = try Fixtures.bytes(file)
        let want = try #require(Self.expected.first { $0.0 == file }?.1)
        for chunk in 1...bytes.count {
            let got = readCSV(bytes, chunk: chunk)
            #expect(got == want, "chunk size \(chunk)")
            if got != want { break }
        }
    }

    @Test func everyFixtureFileIsCovered() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.root.appendingPathComponent("csv").path)
        #expect(Set(files.map { "csv/" + $0 }) == Set(Self.expected.map(\.0)).union(CSVExportTests.fixtures))
    }
}
