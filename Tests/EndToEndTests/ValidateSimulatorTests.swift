import CorsanoKit
import Foundation
import Testing

/// `validate` on the simulator (needs issue 33): a panel of four simulated subjects, each
/// wearing a served bracelet (one server per subject: the simulator's wearer is fixed by its
/// scenario), calibrated by `bp-init` against the simulated cuff (good) or against a cuff 25/15 mmHg
/// high (bad: the scenario of a badly calibrated bracelet), then measured by `validate --live`
/// (R T R T R T R) and read back by `nibp read | validate`.
@Suite(.serialized) struct ValidateSimulatorTests {
    static let subjects = [("S1", 122, 78), ("S2", 138, 86), ("S3", 112, 72), ("S4", 130, 82)]
    static let calibratedAt = "2026-11-29T08:00:00Z", measuredAt = "2026-11-29T09:00:00Z"

    /// Runs the panel; returns the reference, live device and stored (`nibp read`) lines.
    static func panel(bad: Bool, in dir: String) throws -> (reference: String, device: String, stored: String) {
        var reference = "", device = "", stored = ""
        for (id, sys, dia) in subjects {
            let scenarioPath = dir + "/\(id).json"
            try #"{"subjects":[{"id":"\#(id)","baseline":{"systolic":\#(sys),"diastolic":\#(dia),"pulse":70}}],"nibp":{"wearer":"\#(id)"}}"#
                .write(toFile: scenarioPath, atomically: true, encoding: .utf8)
            let server = try ServedSimulator(.unix, scenario: try Scenario.load(path: scenarioPath))
            defer { server.stop() }
            let cuff: String
            if bad {
                cuff = dir + "/\(id)-bad-cuff.jsonl"
                let line = #"{"systolic":\#(sys + 25),"diastolic":\#(dia + 15),"pulse":70}"# + "\n"
                try (line + line).write(toFile: cuff, atomically: true, encoding: .utf8)
            } else {
                cuff = "sim:"
            }
            let calibrated = try Corsano.run(["bp-init", "--bracelet", server.listening, "--cuff", cuff, "--subject-id", id, "--no-state",
                                              "--no-preparation", "--now", calibratedAt], env: server.clientEnvironment)
            #expect(calibrated.status == 0, "\(calibrated.stderr)")
            let (ref, dev) = (dir + "/\(id)-ref.jsonl", dir + "/\(id)-dev.jsonl")
            let live = try Corsano.run(["validate", "--live", "--bracelet", server.listening, "--cuff", "sim:", "--subject-id", id,
                                        "--now", measuredAt, "--min-subjects", "1", "--reference-out", ref, "--device-out", dev],
                                       env: server.clientEnvironment)
            // One subject alone: criterion 2 cannot be assessed (no spread between subjects), so 2.
            #expect(live.status == 2, "\(live.stderr)")
            #expect(live.stderr.contains("criterion 2 needs at least 2 subjects"), "\(live.stderr)")
            #expect(live.lines.filter { $0.hasPrefix(#"{"event":"validationStep""#) }.count == 14)
            reference += try String(contentsOfFile: ref, encoding: .utf8)
            device += try String(contentsOfFile: dev, encoding: .utf8)
            let read = try Corsano.run(["nibp", "read", "--bracelet", server.listening, "--since", calibratedAt, "--now", "2026-11-29T10:30:00Z",
                                        "--subject-id", id], env: server.clientEnvironment)
            #expect(read.status == 0, "\(read.stderr)")
            stored += read.stdout
        }
        return (reference, device, stored)
    }

    static func write(_ text: String, _ path: String) throws -> String {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: [false, true])
    func aWellCalibratedBraceletPassesCriteria1And2AndABadlyCalibratedOneFails(bad: Bool) throws {
        let dir = "/tmp/corsano-validate-sim-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (reference, device, stored) = try Self.panel(bad: bad, in: dir)
        let ref = try Self.write(reference, dir + "/reference.jsonl"), dev = try Self.write(device, dir + "/device.jsonl")
        // The live sequences' files, offline: 4 subjects × 3 pairs.
        let offline = try Corsano.run(["validate", "--min-subjects", "4", ref, dev])
        let summary = try JSONValue.parse(Array(try #require(offline.lines.first).utf8))["summary"]
        #expect(summary?["systolic"]?["pairs"] == 12 && summary?["systolic"]?["subjects"] == 4)
        if bad {
            #expect(offline.status == 1, "\(offline.stdout)")
            #expect(summary?["systolic"]?["criterion1"]?["pass"] == false)
            #expect(summary?["diastolic"]?["criterion1"]?["pass"] == false)
        } else {
            #expect(offline.status == 0, "\(offline.stdout)\n\(offline.stderr)")
            for v in ["systolic", "diastolic"] {
                #expect(summary?[v]?["criterion1"]?["pass"] == true)
                #expect(summary?[v]?["criterion2"]?["pass"] == true)
            }
        }
        // nibp read | validate: the stored values (every 30 min) against the live reference readings,
        // nearest within an hour.
        let piped = try Shell.run("sh", ["-c", "cat \"$1\" | \"$2\" validate --pairing nearest --window 3600 --min-subjects 4 \"$3\" -",
                                         "sh", try Self.write(stored, dir + "/stored.jsonl"), Corsano.binary.path, ref],
                                  env: ["XDG_CONFIG_HOME": Corsano.sharedConfigHome])
        #expect(piped.status == (bad ? 1 : 0), "\(piped.stdout)\n\(piped.stderr)")
        #expect(piped.stdout.contains(#""pairing":"nearest""#))
    }
}
