import Foundation
import Testing

/// Every input problem is said once and loudly (docs/design.md "Cuff input formats", "Rejects and
/// counts"): an nRF Connect indication with an empty value is a rejected record with its line, not
/// passed over as log text; a JSON document given as JSON lines is refused once, naming the format
/// to use, instead of a "not valid JSON" line per line of it.
@Suite struct InputProblemsOnceTests {
    @Test func anEmptyIndicationValueIsRejectedWithItsLine() throws {
        let log = "nRF Connect, 2026-11-29\n"
            + "I\t10:21:03.512\tIndication received from 00002a35-0000-1000-8000-00805f9b34fb, value: (0x) 1E-7E-00-52-00-60-00-EA-07-0B-1D-0A-15-00-48-00-01-00-00\n"
            + "I\t10:21:09.100\tIndication received from 00002a35-0000-1000-8000-00805f9b34fb, value: (0x)\n"
        let r = try Corsano.run(["cuff", "ingest", "--from", "ble", "--tz", "UTC", "-"], stdin: log)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.lines.count == 1, "\(r.stdout)")
        #expect(r.stderr.contains("<stdin>:3:") && r.stderr.contains("no hex digits"), "\(r.stderr)")
        #expect(r.stderr.contains("rejected 1"), "\(r.stderr)")
    }

    @Test(arguments: [["--from", "jsonl"], []])
    func aPrettyPrintedJSONDocumentIsRefusedOnce(from: [String]) throws {
        let document = """
            {
              "systolic": 121,
              "diastolic": 79,
              "pulse": 64,
              "measuredAt": "2026-11-29T10:15:00Z"
            }

            """
        let r = try Corsano.run(["cuff", "ingest"] + from + ["-"], stdin: document)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let said = r.stderr.split(separator: "\n").filter { $0.contains("<stdin>") }
        #expect(said.count == 1, "\(r.stderr)")
        #expect(r.stderr.contains("<stdin>:1: a JSON document (one object over several lines), not JSON lines"), "\(r.stderr)")
        #expect(r.stderr.contains("jq -c '.'"), "\(r.stderr)")
        #expect(!r.stderr.contains("not valid JSON"), "\(r.stderr)")
    }

    @Test func aJSONArrayGivenAsJSONLinesIsRefusedOnce() throws {
        let r = try Corsano.run(["cuff", "ingest", "--from", "jsonl", "-"],
                                stdin: #"[{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:15:00Z"}]"# + "\n")
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("<stdin>:1: a JSON document (an array), not JSON lines") && r.stderr.contains("jq -c '.[]'"), "\(r.stderr)")
    }
}

/// A Google Fit Takeout file of another data type (weight) is not an empty blood-pressure export:
/// 65 naming the type it holds, with the counts line, never exit 0 with zero readings.
@Suite struct GoogleFitOtherTypeTests {
    @Test(arguments: [["--from", "googlefit"], []])
    func aFileWithoutBloodPressureNamesTheTypeItHolds(from: [String]) throws {
        let point = #"{"fitValue":[{"value":{"fpVal":72.5}}],"originDataSourceId":"raw:com.google.weight:com.google.android.apps.fitness:user_input","#
            + #""endTimeNanos":1733040000000000000,"dataTypeName":"com.google.weight","startTimeNanos":1733040000000000000,"modifiedTimeMillis":1733040031337}"#
        let document = #"{"Data Source":"raw:com.google.weight:com.google.android.apps.fitness:user_input","Data Points":["# + point + "," + point + "]}\n"
        let r = try Corsano.run(["cuff", "ingest"] + from + ["-"], stdin: document)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("holds no blood pressure (com.google.blood_pressure): its data points are 2 of com.google.weight"), "\(r.stderr)")
        #expect(r.stderr.contains("cuff ingest: read 2, written 0, skipped 2 (not blood pressure: 2)"), "\(r.stderr)")
    }
}
