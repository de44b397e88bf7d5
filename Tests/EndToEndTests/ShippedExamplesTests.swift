import Foundation
import Testing

/// Every shipped example ends on its own (point 5): `examples/scenario.json` runs
/// bp-init (a rejected first attempt, then a 2-second hold at measurement 2, said on stderr),
/// wearing-opt and profile push to the end. (`examples/lab/` runs in CalibrateManyTests,
/// `examples/session-replay.jsonl` in the README's command, its FHIR export in FHIR tests.)
@Suite struct ShippedExamplesTests {
    static let scenario = "sim:" + Corsano.packageRoot.appendingPathComponent("examples/scenario.json").path
    static let readings = """
        {"systolic":128,"diastolic":82,"pulse":66}
        {"systolic":124,"diastolic":80,"pulse":64}
        {"systolic":126,"diastolic":81,"pulse":65}
        {"systolic":122,"diastolic":79,"pulse":63}

        """

    @Test func bpInitOnTheExampleScenarioHoldsThenFinishes() throws {
        let started = Date()
        let r = try Corsano.run(["bp-init", "--bracelet", Self.scenario, "--no-state", "--json"], stdin: Self.readings)
        #expect(r.status == 0, "\(r.stderr)")
        // Typed readings without a time: said once to be exempt from the age rule, and counted.
        #expect(r.stderr == "corsano: bp-init: a cuff reading without a time (no measuredAt, no deviceTime) was fed: "
                + "unstamped readings are exempt from the age rule (--max-reading-age)\n"
                + "corsano: simulator: holding bp-init at step measuring (entry 2, faults.holdAtStep) "
                + "for 2 s (faults.holdAtStep.seconds), then goes on\n"
                + "corsano: bp-init: read 4, fed 4, dropped 0, unstamped 4\n")
        #expect(Date().timeIntervalSince(started) >= 2)
        #expect(r.lines.filter { $0.contains(#""event":"attempt""#) }.map { $0.contains(#""succeeded":true"#) } == [false, true])
        #expect(r.lines.last?.contains(#""bracelet":"SIM-287-0042","result":{"kind":"success","measurementCount":2}"#) == true)
    }

    /// A hold without `seconds` lasts until the run is cancelled, and says so.
    @Test func anUntimedHoldSaysItWaitsForCancellation() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-hold-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let scenario = dir.appendingPathComponent("hold.json")
        try Data(#"{"faults":{"holdAtStep":{"flow":"bp-init","step":"measuring"}}}"#.utf8).write(to: scenario)
        let live = try LiveCorsano(["bp-init", "--bracelet", "sim:" + scenario.path, "--no-state", "--json"], env: [:])
        #expect(live.waitForStderr(containing: "corsano: simulator: holding bp-init at step measuring (entry 1, faults.holdAtStep) "
                                   + "until the run is cancelled (Control-C, SIGINT or SIGTERM) or the link drops\n"))
        live.signal(SIGINT)
        let (status, lines, _) = live.finish()
        #expect(status == 130)
        #expect(lines.last?.contains(#""result":{"kind":"cancelledByUser"}"#) == true)
    }

    @Test func wearingOptAndProfilePushOnTheExampleScenarioFinish() throws {
        let wearing = try Corsano.run(["wearing-opt", "--bracelet", Self.scenario, "--no-state", "--json"])
        #expect(wearing.status == 0, "\(wearing.stderr)")
        #expect(wearing.lines.last?.contains(#""result":{"kind":"success","spo2Quality":72,"position":"supine"}"#) == true)
        let push = try Corsano.run(["profile", "push", "--bracelet", Self.scenario, "--no-state", "--json", "--height", "180",
                                    "--weight", "80", "--wrist", "left", "--gender", "male", "--unit", "metric",
                                    "--birthdate", "1980-04-12", "--skin-tone", "3", "--hair-density", "low"])
        #expect(push.status == 0, "\(push.stderr)")
        #expect(push.lines.last?.contains(#""event":"profile""#) == true)
    }
}
