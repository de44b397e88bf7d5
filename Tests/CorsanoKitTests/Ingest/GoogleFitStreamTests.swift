@testable import CorsanoKit
import Foundation
import Testing

/// `GoogleFitReader.stream`: a Takeout document read point by point
/// (docs/design.md "Cuff input formats"), the same points and lines whatever the chunks, refusals naming their line.
@Suite struct GoogleFitStreamTests {

    /// What one point came out as, comparable.
    static func describe(_ point: GoogleFitReader.Point) -> String {
        switch point {
        case .reading(let r): return "reading \(r.json(includeDerivedMAP: false).serialized)"
        case .otherType(let t): return "other \(t)"
        case .issue(let i): return "issue \(i.reason)"
        }
    }

    static func stream(_ bytes: [UInt8], chunk: Int, maxValueBytes: Int = GoogleFitReader.defaultMaxValueBytes) throws -> [String] {
        var source = MemoryByteSource(bytes, chunk: chunk)
        var out: [String] = []
        try GoogleFitReader.stream(&source, maxValueBytes: maxValueBytes) { line, point in
            out.append("\(line): \(describe(point))")
            return true
        }
        return out
    }

    @Test(arguments: [1, 2, 7, 64, 1 << 16])
    func theFixtureReadsTheSameInChunksOfAnySize(chunk: Int) throws {
        let bytes = try Fixtures.bytes("googlefit/raw_com.google.blood_pressure_com.google.android.apps.json")
        let points = try Self.stream(bytes, chunk: chunk)
        #expect(Array(points.prefix(2)) == [
            #"4: reading {"systolic":132,"diastolic":85,"measuredAt":"2024-12-01T08:00:00Z","isManualEntry":true,"originDataSourceId":"raw:com.google.blood_pressure:com.google.android.apps.fitness:user_input"}"#,
            #"34: reading {"systolic":124,"diastolic":79,"measuredAt":"2025-11-30T09:00:00Z","isManualEntry":false,"originDataSourceId":"raw:com.google.blood_pressure:com.omronhealthcare.omronconnect:OMRON:HEM-7361T"}"#,
        ], "\(points)")
        #expect(points.contains { $0.hasPrefix("54: issue diastolic: missing (fitValue[1])") })
    }

    /// A data source named after the points (not Takeout's order) still decides them: each
    /// point that needs it waits for the root to close.
    @Test func aDataSourceAfterThePointsStillDecidesThem() throws {
        let text = #"""
        {"Data Points": [
          {"fitValue": [{"value": {"fpVal": 120}}, {"value": {"fpVal": 80}}], "startTimeNanos": 1733040000000000000},
          {"fitValue": [{"value": {"fpVal": 121}}, {"value": {"fpVal": 81}}], "startTimeNanos": 1733040060000000000,
           "dataTypeName": "com.google.blood_pressure", "originDataSourceId": "raw:x:y"}
        ],
        "Data Source": "raw:com.google.blood_pressure:com.google.android.apps.fitness:user_input"}
        """#
        let points = try Self.stream(Array(text.utf8), chunk: 5)
        #expect(points.count == 2)
        #expect(points[0].hasPrefix("2: reading ") && points[0].contains(#""isManualEntry":true"#), "\(points)")
        #expect(points[1].hasPrefix("3: reading ") && points[1].contains(#""isManualEntry":false"#), "\(points)")
    }

    /// What is not a whole Takeout document is refused with its line, never read in part silently.
    @Test(arguments: [
        (#"{"Data Points": [{"fitValue": []}"#, "ends early"),
        (#"{"Data Points": [{"a": 1} {"b": 2}]}"#, "no ','"),
        (#"{"Data Points": [{"a": 1},]}"#, "before the end"),
        ("{\"Data Points\": [],\n\"x\": \"a\nb\"}", "control character"),
        (#"[{"Data Points": []}]"#, "not a JSON object"),
        (#"{"points": []}"#, "no \"Data Points\" array"),
        (#"{"Data Points": []} {}"#, "after the document's end"),
        ("", "empty"),
    ])
    func aBrokenDocumentIsRefused(text: String, says: String) {
        #expect {
            _ = try Self.stream(Array(text.utf8), chunk: 3)
        } throws: { error in
            guard let error = error as? GoogleFitError else { return false }
            return error.reason.contains(says)
        }
    }

    /// A point longer than the bound is refused with its line; memory never holds more.
    @Test func aPointOverTheBoundIsRefusedWithItsLine() {
        let text = "{\"Data Points\": [\n{\"fitValue\": [], \"pad\": \"" + String(repeating: "x", count: 5000) + "\"}]}"
        #expect {
            _ = try Self.stream(Array(text.utf8), chunk: 1000, maxValueBytes: 4096)
        } throws: { error in
            guard let error = error as? GoogleFitError else { return false }
            return error.line == 2 && error.reason.contains("longer than 4096 bytes")
        }
    }
}
