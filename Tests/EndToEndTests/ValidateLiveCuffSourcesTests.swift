import CorsanoKit
import Foundation
import Testing

/// `validate --live` takes every reference cuff `bp-init` takes (second round): reading
/// lines from a file, `--cuff-cmd`, typed readings at a terminal (with the operator prompted before
/// each step in the locale), on a served simulator calibrated first by `bp-init --cuff sim:`.
@Suite(.serialized) struct ValidateLiveCuffSourcesTests {
    static let scenario = #"{"subjects":[{"id":"S1","baseline":{"systolic":122,"diastolic":78,"pulse":70}}],"nibp":{"wearer":"S1"}}"#
    static let calibratedAt = "2026-11-29T08:00:00Z", measuredAt = "2026-11-29T09:00:00Z"

    /// A served simulator whose NIBP model is calibrated (a spot check needs one), and a directory.
    static func calibrated() throws -> (ServedSimulator, String) {
        let dir = "/tmp/corsano-validate-live-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/s.json"
        try scenario.write(toFile: path, atomically: true, encoding: .utf8)
        let server = try ServedSimulator(.unix, scenario: try Scenario.load(path: path))
        let run = try Corsano.run(["bp-init", "--bracelet", server.listening, "--cuff", "sim:", "--subject-id", "S1", "--no-state",
                                   "--no-preparation", "--now", calibratedAt], env: server.clientEnvironment)
        #expect(run.status == 0, "\(run.stderr)")
        return (server, dir)
    }

    /// The reading lines of `path`, parsed.
    static func readings(_ path: String) throws -> [JSONValue] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try JSONValue.parse(Array($0.utf8)) }
    }

    /// A live run's reference-out: the cuff's values in order, each with the subject and a time
    /// between the device values' (the run stamps a reading that came without one).
    static func expectSequence(reference: String, device: String, systolic: [Int], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let ref = try readings(reference), dev = try readings(device)
        #expect(ref.map { $0["systolic"] } == systolic.map { .int($0) }, sourceLocation: sourceLocation)
        #expect(ref.allSatisfy { $0["subject"] == "S1" } && dev.allSatisfy { $0["subject"] == "S1" }, sourceLocation: sourceLocation)
        let times = zip(ref, dev).flatMap { [$0["measuredAt"], $1["measuredAt"]] } + [ref.last?["measuredAt"]]
        let stamps = times.compactMap { $0?.stringValue }
        #expect(stamps.count == ref.count + dev.count && stamps == stamps.sorted() && Set(stamps).count == stamps.count,
                "\(stamps)", sourceLocation: sourceLocation)
    }

    @Test func aFileOfReadingLinesIsTheReferenceCuff() throws {
        let (server, dir) = try Self.calibrated()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: dir) }
        let cuff = dir + "/cuff.jsonl"
        try [121, 123, 122, 120].map { #"{"systolic":\#($0),"diastolic":78,"pulse":70}"# + "\n" }.joined()
            .write(toFile: cuff, atomically: true, encoding: .utf8)
        let (ref, dev) = (dir + "/ref.jsonl", dir + "/dev.jsonl")
        let live = try Corsano.run(["validate", "--live", "--bracelet", server.listening, "--cuff", cuff, "--subject-id", "S1",
                                    "--now", Self.measuredAt, "--min-subjects", "1", "--criteria", "1",
                                    "--reference-out", ref, "--device-out", dev], env: server.clientEnvironment)
        #expect(live.status == 0, "\(live.stdout)\n\(live.stderr)")
        #expect(live.lines.filter { $0.hasPrefix(#"{"event":"validationStep""#) }.count == 14)
        try Self.expectSequence(reference: ref, device: dev, systolic: [121, 123, 122, 120])
        // Piped: no operator prompt.
        #expect(!live.stderr.contains("Step 1 of 7"))
        let summary = try JSONValue.parse(Array(try #require(live.lines.first { $0.hasPrefix(#"{"summary""#) }).utf8))["summary"]
        #expect(summary?["systolic"]?["pairs"] == 3)

        // The file ends before the sequence does: the cuff gave no reading, 3 (bp-init's cuffError).
        try #"{"systolic":121,"diastolic":78,"pulse":70}"#.write(toFile: cuff, atomically: true, encoding: .utf8)
        let short = try Corsano.run(["validate", "--live", "--bracelet", server.listening, "--cuff", cuff, "--subject-id", "S1",
                                     "--now", Self.measuredAt, "--cuff-timeout", "5s"], env: server.clientEnvironment)
        #expect(short.status == 3, "\(short.stderr)")
        #expect(short.stderr.contains("the reference cuff gave no reading"))
    }

    @Test func standardInputIsTheCuffWhenNoneIsNamed() throws {
        let (server, dir) = try Self.calibrated()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: dir) }
        let (ref, dev) = (dir + "/ref.jsonl", dir + "/dev.jsonl")
        let lines = [124, 120].map { #"{"systolic":\#($0),"diastolic":79}"# + "\n" }.joined()
        let live = try Corsano.run(["validate", "--live", "--bracelet", server.listening, "--subject-id", "S1", "--sequence", "R,T,R",
                                    "--now", Self.measuredAt, "--min-subjects", "1", "--reference-out", ref, "--device-out", dev],
                                   stdin: lines, env: server.clientEnvironment)
        #expect(live.status == 2, "\(live.stderr)")  // one pair: not assessable
        try Self.expectSequence(reference: ref, device: dev, systolic: [124, 120])
    }

    @Test func aCuffCommandIsRunForEachReading() throws {
        let (server, dir) = try Self.calibrated()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: dir) }
        // Each run prints the next value: 118, 119, 120, 121 (a counter file).
        let counter = dir + "/n"
        let command = "n=$(cat \(counter) 2>/dev/null || echo 118); echo $((n + 1)) > \(counter); "
            + #"echo "{\"systolic\":$n,\"diastolic\":77,\"pulse\":68}""#
        let (ref, dev) = (dir + "/ref.jsonl", dir + "/dev.jsonl")
        let live = try Corsano.run(["validate", "--live", "--bracelet", server.listening, "--cuff-cmd", command, "--subject-id", "S1",
                                    "--now", Self.measuredAt, "--min-subjects", "1", "--criteria", "1",
                                    "--reference-out", ref, "--device-out", dev], env: server.clientEnvironment)
        #expect(live.status == 0, "\(live.stdout)\n\(live.stderr)")
        try Self.expectSequence(reference: ref, device: dev, systolic: [118, 119, 120, 121])
    }

    @Test func cuffOptionsAreCheckedBeforeAnythingOpens() throws {
        let both = try Corsano.run(["validate", "--live", "--subject-id", "S1", "--cuff", "x.jsonl", "--cuff-cmd", "true"])
        #expect(both.status == 64, "\(both.stderr)")
        let notLive = try Corsano.run(["validate", "--cuff-cmd", "true", "a", "b"])
        #expect(notLive.status == 64 && notLive.stderr.contains("--live"), "\(notLive.stderr)")
        let missing = try Corsano.run(["validate", "--live", "--subject-id", "S1", "--cuff", "/nonexistent/cuff.jsonl"])
        #expect(missing.status == 66 && missing.stderr.contains("/nonexistent/cuff.jsonl"), "\(missing.stderr)")
        let badBLE = try Corsano.run(["validate", "--live", "--subject-id", "S1", "--cuff", "ble:nope"])
        #expect(badBLE.status == 64, "\(badBLE.stderr)")
    }

    /// Typed readings at a terminal: before each step the operator is told what to do, in the locale.
    @Test(arguments: [("C", "Step 1 of 3: take a cuff reading on the left arm now", "Step 2 of 3: keep still: the bracelet measures"),
                      ("de_DE.UTF-8", "Schritt 1 von 3: Jetzt eine Manschettenmessung am linken Arm durchführen",
                       "Schritt 2 von 3: Bitte stillhalten: Das Armband misst")])
    func theOperatorIsPromptedBeforeEachStep(lang: String, cuffStep: String, braceletStep: String) throws {
        let (server, dir) = try Self.calibrated()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: dir) }
        let ref = dir + "/ref.jsonl"
        let term = try Tmux(["validate", "--live", "--bracelet", server.listening, "--subject-id", "S1", "--sequence", "R,T,R",
                             "--now", Self.measuredAt, "--min-subjects", "1", "--text", "--reference-out", ref],
                            env: server.clientEnvironment.merging(["LANG": lang, "NO_COLOR": "1", "TERM": "dumb"]) { $1 })
        try term.waitFor(cuffStep)
        try term.send("120/80 72", "Enter")
        try term.waitFor(braceletStep)
        try term.waitFor(cuffStep.replacing("1", with: "3", maxReplacements: 1))
        try term.send("122/79 70", "Enter")
        let status = try term.exitStatus()
        let text = try term.transcript().joined(separator: "\n")
        #expect(status == 2, "\(text)")  // one pair, fewer than --min-subjects 1 needs (3): not assessable
        #expect(try Self.readings(ref).map { $0["isManualEntry"] } == [true, true], "\(text)")
    }
}
