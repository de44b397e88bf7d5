import Foundation
import Testing

/// `corsano wearing-opt` with the built binary on the in-process simulator and the virtual clock.
@Suite struct WearingOptEndToEndTests {
    @Test func stillPatientSucceedsAfterTwoVirtualMinutes() throws {
        let e2e = try WearingE2E()
        let out = try e2e.run(["wearing-opt"], scenario: #"{"profile":\#(WearingE2E.scenarioProfile)}"#)
        #expect(out.status == 0, "\(out.stderr)")
        let names = WearingE2E.events(out).compactMap { $0["event"] as? String }
        #expect(names.first == "started")
        #expect(names.last == "finished")
        #expect(names.filter { $0 == "progress" }.count == 24)
        #expect(WearingE2E.events(out).allSatisfy { $0["flow"] as? String == "wearing-opt" })
        let steps = WearingE2E.events(out, "step").compactMap { $0["step"] as? String }
        #expect(steps == ["preparation", "armedPreparing", "running", "finalSuccess"])
        #expect(WearingE2E.events(out, "finished").first?["at"] as? String == "2026-11-29T10:02:00Z")
        let result = try #require(WearingE2E.events(out, "finished").first?["result"] as? [String: Any])
        #expect(result["kind"] as? String == "success")
        #expect(result["position"] as? String == "seated")
        #expect((result["spo2Quality"] as? Int ?? 0) >= 50)
    }

    @Test(arguments: ["6.9", "6.0.12"])
    func firmware6IsRefusedWith69(_ firmware: String) throws {
        let out = try WearingE2E().run(["wearing-opt"], scenario: #"{"firmware":"\#(firmware)"}"#)
        #expect(out.status == 69)
        #expect(out.stderr.contains("wearing-opt needs firmware 7.0 or later; this bracelet has firmware \(firmware)"),
                "\(out.stderr)")
        #expect(out.stdout.isEmpty)
    }

    /// No profile anywhere: 64 before `started`, naming every field nothing gave (point 4).
    @Test(arguments: [["--no-preparation"], ["--skin-tone", "2", "--wrist", "right"]])
    func withoutAnyProfileEveryMissingFieldIsNamedBeforeStarting(_ extra: [String]) throws {
        let out = try WearingE2E().run(["wearing-opt"] + extra, scenario: "{}")
        #expect(out.status == 64)
        let missing = extra.contains("--wrist") ? "height, weight, gender, unit, birthdate, hairDensity"
            : "height, weight, wrist, gender, unit, birthdate, skinTone, hairDensity"
        #expect(out.stderr.withoutNewStoreNotice == "corsano: no user profile for bracelet SIM-287-0001 (none given, none stored, none on the bracelet): "
                + "missing \(missing); give them with --profile FILE (a JSON object with the fields 'corsano profile push --from' "
                + "reads), or push a profile first with 'corsano profile push'\n")
        #expect(WearingE2E.events(out, "started").isEmpty)
    }

    /// `--no-state` can succeed: with `--profile FILE|-`, or with the profile the bracelet holds.
    @Test func profileFromAFileStdinOrTheBraceletWithoutAStore() throws {
        let e2e = try WearingE2E()
        let path = try e2e.file("p.json", WearingE2E.scenarioProfile)
        for (args, stdin) in [(["--profile", path], ""), (["--profile", "-"], WearingE2E.scenarioProfile)] {
            let out = try Corsano.run(["wearing-opt", "--no-state", "--no-preparation", "--json", "--now", WearingE2E.now,
                                       "--skin-tone", "5"] + args, stdin: stdin)
            #expect(out.status == 0, "\(out.stderr)")
            let values = try #require(WearingE2E.events(out, "profile").first?["values"] as? [String: Any])
            #expect(values["height"] as? Int == 172)
            #expect(values["skinTone"] as? Int == 5)  // the flag over the file
        }
        let held = try e2e.file("held.json", #"{"profile":\#(WearingE2E.scenarioProfile)}"#)
        let out = try Corsano.run(["wearing-opt", "--no-state", "--no-preparation", "--json", "--bracelet", "sim:" + held])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(WearingE2E.result(out)?.contains(#""kind":"success""#) == true)
    }

    @Test func anIncompleteProfileFileNamesEveryMissingField() throws {
        let e2e = try WearingE2E()
        let path = try e2e.file("p.json", #"{"height":172,"weight":68,"unit":"metric"}"#)
        let out = try e2e.run(["wearing-opt", "--profile", path, "--wrist", "left"], scenario: "{}")
        #expect(out.status == 65)
        #expect(out.stderr == "corsano: \(path): missing fields gender, birthdate, skinTone, hairDensity "
                + "(in the file or as --skin-tone, --hair-density)\n")
        #expect(out.stdout.isEmpty)
    }

    @Test func noPreparationPushesTheProfileStoredByProfilePush() throws {
        let e2e = try WearingE2E()
        let push = try e2e.run(["profile", "push"] + WearingE2E.profileFlags(setting: "--skin-tone", to: "4"), scenario: "{}")
        #expect(push.status == 0, "\(push.stderr)")
        let out = try e2e.run(["wearing-opt", "--no-preparation"], scenario: "{}")
        #expect(out.status == 0, "\(out.stderr)")
        let profile = try #require(WearingE2E.events(out, "profile").first)
        #expect(profile["why"] as? String == "noPreparation")
        #expect(profile["forced"] as? Bool == true)
        #expect((profile["values"] as? [String: Any])?["skinTone"] as? Int == 4)
        #expect(!WearingE2E.events(out, "step").contains { $0["step"] as? String == "preparation" })
    }

    @Test func failureThenSuccessOnAttempt2WithPositionSupine() throws {
        let scenario = #"{"profile":\#(WearingE2E.scenarioProfile),"wearing":{"attempts":[{"polls":[{"percent":100,"quality":30,"finished":true}]}]}}"#
        let out = try WearingE2E().run(["wearing-opt", "--position", "supine"], scenario: scenario)
        #expect(out.status == 0, "\(out.stderr)")
        let attempts = WearingE2E.events(out, "attempt")
        #expect(attempts.map { $0["succeeded"] as? Bool } == [false, true])
        #expect((attempts.first?["reason"] as? [String: Any])?["kind"] as? String == "ppgSignalQualityTooLow")
        let armed = WearingE2E.events(out, "step").filter { $0["step"] as? String == "armedPreparing" }
        #expect(armed.map { ($0["instructions"] as? [String])?.count } == [2, 2])
        #expect((WearingE2E.events(out, "finished").first?["result"] as? [String: Any])?["position"] as? String == "supine")
    }

    @Test func maxAttempts1FailsWithExit1() throws {
        let scenario = #"{"profile":\#(WearingE2E.scenarioProfile),"wearing":{"model":{"worn":false}}}"#
        let out = try WearingE2E().run(["wearing-opt", "--max-attempts", "1"], scenario: scenario)
        #expect(out.status == 1)
        #expect(WearingE2E.result(out) ==
                #"{"attemptCount":1,"kind":"failedAfterRetries","lastReason":{"kind":"braceletNotWornCorrectly"}}"#)
        #expect(!WearingE2E.events(out, "step").contains { $0["step"] as? String == "retryPrompt" })
    }

    @Test func pollsThatStopAnsweringAreBleTimeout() throws {
        let scenario = #"{"profile":\#(WearingE2E.scenarioProfile),"faults":{"pollTimeoutFrom":{"poll":2}}}"#
        let out = try WearingE2E().run(["wearing-opt", "--max-attempts", "2"], scenario: scenario)
        #expect(out.status == 1)
        #expect(WearingE2E.result(out) == #"{"attemptCount":2,"kind":"failedAfterRetries","lastReason":{"kind":"bleTimeout"}}"#)
    }

    @Test func disconnectMidRunExits4() throws {
        let scenario = #"{"profile":\#(WearingE2E.scenarioProfile),"faults":{"disconnectAtPoll":{"poll":5}}}"#
        let out = try WearingE2E().run(["wearing-opt"], scenario: scenario)
        #expect(out.status == 4)
        #expect(WearingE2E.result(out) == #"{"kind":"braceletDisconnected"}"#)
        #expect(WearingE2E.events(out, "progress").count == 4)
    }

    // The position in the result is the accelerometer's, whatever the patient was told.
    @Test(arguments: [
        ("supine", #"{"x":0.05,"y":0.1,"z":-0.99}"#, "seated"),
        ("seated", #"{"x":-0.98,"y":0.12,"z":0.1}"#, "supine"),
    ])
    func positionInferredFromTheGravityVector(_ told: String, _ gravity: String, _ inferred: String) throws {
        let scenario = #"{"profile":\#(WearingE2E.scenarioProfile),"wearing":{"model":{"gravity":\#(gravity)}}}"#
        let out = try WearingE2E().run(["wearing-opt", "--position", told], scenario: scenario)
        #expect(out.status == 0, "\(out.stderr)")
        #expect((WearingE2E.events(out, "finished").first?["result"] as? [String: Any])?["position"] as? String == inferred)
    }

    @Test func textOutputShowsTheProgressBarAndResult() throws {
        let e2e = try WearingE2E()
        let scenario = try e2e.file("s.json", #"{"profile":\#(WearingE2E.scenarioProfile)}"#)
        let out = try Corsano.run(["wearing-opt", "--bracelet", "sim:" + scenario, "--now", WearingE2E.now,
                                   "--state", e2e.state, "--text", "--lang", "en"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains("Wearing optimization"))
        #expect(out.stdout.contains("[##########----------] 50%"))
        #expect(out.stdout.contains("[####################] 100%"))
        #expect(out.stdout.contains("Wearing optimization complete"))
    }
}
