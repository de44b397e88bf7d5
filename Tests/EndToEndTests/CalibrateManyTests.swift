import Foundation
import Testing

/// README "Calibrating many bracelets": `examples/calibrate-many.sh` runs one bp-init per
/// station in parallel on one state store, splits the shared log per bracelet by the serial
/// every event carries, and summarizes from `corsano history` (point 7).
@Suite struct CalibrateManyTests {
    @Test func theREADMEScriptCalibratesEveryStationInParallel() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-lab-\(UUID().uuidString)")
        let state = dir.appendingPathComponent("state.sqlite3"), logs = dir.appendingPathComponent("logs")
        let script = Corsano.packageRoot.appendingPathComponent("examples/calibrate-many.sh").path
        let stations = Corsano.packageRoot.appendingPathComponent("examples/lab/stations.txt").path
        let r = try Shell.run("sh", [script, stations, state.path, logs.path],
                              env: ["CORSANO": Corsano.binary.path, "XDG_STATE_HOME": dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            SIM-LAB-01\tsuccess\treadings 2\tattempts 1
            SIM-LAB-02\tsuccess\treadings 3\tattempts 1
            SIM-LAB-03\tsuccess\treadings 4\tattempts 2

            """)
        let all = try Self.lines(logs.appendingPathComponent("all.jsonl"))
        var total = 0
        for serial in ["SIM-LAB-01", "SIM-LAB-02", "SIM-LAB-03"] {
            let own = try Self.lines(logs.appendingPathComponent("\(serial).jsonl"))
            total += own.count
            // Whole lines only (no two runs' writes mixed), each naming its bracelet.
            for line in own {
                let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
                #expect(event["bracelet"] as? String == serial)
            }
            #expect(own.first?.contains(#""event":"started""#) == true)
            #expect(own.last?.contains(#""result":{"kind":"success""#) == true)
            #expect(Set(own.compactMap { Self.run(of: $0) }).count == 1, "one run per bracelet")
        }
        #expect(all.count == total)
        // No error; the one store the three runs share is said to be new once, by whichever created it.
        let errors = try String(contentsOf: logs.appendingPathComponent("errors.log"), encoding: .utf8)
        #expect(errors.withoutNewStoreNotice.isEmpty, "\(errors)")
        #expect(errors.components(separatedBy: "creating a new store").count <= 2, "\(errors)")
        // The three runs share the one store's audit log.
        let history = try Corsano.run(["history", "--json", "--state", state.path])
        #expect(history.lines.count == 3)
    }

    static func lines(_ file: URL) throws -> [String] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    static func run(of line: String) -> String? {
        line.firstMatch(of: /"run":"([0-9a-f]+)"/).map { String($0.output.1) }
    }
}
