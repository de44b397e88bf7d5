import CorsanoKit
import Foundation
import Testing

/// `validate --live --cuff ble:MAC` (second round): the reference cuff read through a
/// mocked BlueZ, the bracelet a served simulator; each R waits for the cuff's next measurement.
@Suite struct ValidateBluetoothTests {
    @Test func aBluetoothCuffIsTheReferenceCuff() throws {
        let (server, dir) = try ValidateLiveCuffSourcesTests.calibrated()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: dir) }
        let mock = try BlueZMock()
        defer { mock.stop() }
        let ref = dir + "/ref.jsonl"
        // The run's clock is real with a ble: cuff (its readings carry the cuff's clock, which runs
        // in real time): R,T,R waits the ISO 81060-2 60 s twice before step 3 (about 2 min).
        // (With --clock virtual the pauses pass at once but the cuff's stamps do not: 65.)
        let run = try StreamedProcess.corsano(["validate", "--live", "--bracelet", server.listening, "--cuff", "ble:" + BlueZMock.cuff,
                                               "--subject-id", "S1", "--sequence", "R,T,R", "--min-subjects", "1",
                                               "--reference-out", ref], env: mock.env.merging(server.clientEnvironment) { $1 })
        let started = { (index: Int) in { (lines: [String]) in lines.contains { $0.contains(#""index":\#(index)"#) && $0.contains(#""state":"started""#) } } }
        #expect(run.stdout.waitFor(started(1)))
        #expect(mock.waitFor("notifying"))
        mock.send("reading 121 79 66")
        #expect(run.stdout.waitFor(seconds: 180, started(3)))
        mock.send("reading 123 80 65")
        let status = run.finish(seconds: 120)
        let lines = try String(contentsOfFile: ref, encoding: .utf8).split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
        #expect(lines.map { $0["systolic"] } == [121, 123], "\(run.stderr.text)")
        #expect(lines.allSatisfy { $0["subject"] == "S1" })
        #expect(status == 2, "\(run.stdout.text)\n\(run.stderr.text)")  // one pair: not assessable, but paired (no 65)
    }
}
