import CorsanoKit
import Foundation
import Testing

/// wearing-opt and profile push with the built binary over a real `corsano bracelet serve`
/// socket: the served simulator follows the client's virtual clock, so a 2-minute optimization
/// takes milliseconds, and it keeps the bracelet's profile across connections.
@Suite struct WearingOptBridgeTests {
    static let profile = UserProfile(heightCm: 172, weightKg: 68, wrist: .left, gender: .female, unit: .metric,
                                     birthdate: "1990-04-01", skinTone: 3, hairDensity: .low)

    /// `corsano ARGS --bracelet <server>` on `e2e`'s store, virtual clock at `WearingE2E.now`.
    static func run(_ args: [String], _ server: ServedSimulator, _ e2e: WearingE2E) throws -> Corsano.Outcome {
        try Corsano.run(args + ["--bracelet", server.listening, "--now", WearingE2E.now, "--state", e2e.state, "--json"],
                        env: server.clientEnvironment)
    }

    @Test func profilePushIsSkippedWhenTheServedBraceletAlreadyHoldsIt() throws {
        let server = try ServedSimulator(.unix, scenario: Scenario(serial: "BRIDGE-P1"))
        defer { server.stop() }
        let e2e = try WearingE2E()
        let first = try Self.run(["profile", "push"] + WearingE2E.profileFlags, server, e2e)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(WearingE2E.events(first, "profile").first?["profile"] as? String == "pushed")
        // A second connection: the bracelet kept the profile, so nothing is sent.
        let second = try Self.run(["profile", "push"] + WearingE2E.profileFlags, server, e2e)
        #expect(WearingE2E.events(second, "profile").first?["profile"] as? String == "skipped")
        #expect(WearingE2E.events(second, "profile").first?["serial"] as? String == "BRIDGE-P1")
        let forced = try Self.run(["profile", "push", "--force"] + WearingE2E.profileFlags, server, e2e)
        #expect(WearingE2E.events(forced, "profile").first?["profile"] as? String == "pushed")
        let changed = try Self.run(["profile", "push"] + WearingE2E.profileFlags(setting: "--height", to: "173"), server, e2e)
        #expect(WearingE2E.events(changed, "profile").first?["profile"] as? String == "pushed")
    }

    @Test func optimizationOverTheBridgeRunsOnTheClientsVirtualClock() throws {
        let server = try ServedSimulator(.tcp, scenario: Scenario(profile: ScenarioProfile(Self.profile)))
        defer { server.stop() }
        let e2e = try WearingE2E()
        let out = try Self.run(["wearing-opt"], server, e2e)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(WearingE2E.events(out, "progress").count == 24)
        #expect(WearingE2E.events(out, "finished").first?["at"] as? String == "2026-11-29T10:02:00Z")
        #expect((WearingE2E.events(out, "finished").first?["result"] as? [String: Any])?["position"] as? String == "seated")
    }

    @Test func noPreparationOverTheBridgeUsesTheProfileStoredByProfilePush() throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let e2e = try WearingE2E()
        let refused = try Self.run(["wearing-opt", "--no-preparation"], server, e2e)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("corsano profile push"))
        _ = try Self.run(["profile", "push"] + WearingE2E.profileFlags, server, e2e)
        let out = try Self.run(["wearing-opt", "--no-preparation", "--position", "supine"], server, e2e)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(WearingE2E.events(out, "profile").first?["why"] as? String == "noPreparation")
        #expect((WearingE2E.events(out, "finished").first?["result"] as? [String: Any])?["position"] as? String == "supine")
    }

    @Test func failureThenSuccessOnAttempt2SupineOverTheBridge() throws {
        let scenario = Scenario(profile: ScenarioProfile(Self.profile), wearing: WearingScenario(attempts: [
            WearingAttemptScript(polls: [WearingPoll(percent: 60, quality: 45), WearingPoll(percent: 100, quality: 45, finished: true)]),
        ]))
        let server = try ServedSimulator(.unix, scenario: scenario)
        defer { server.stop() }
        let out = try Self.run(["wearing-opt", "--position", "supine"], server, try WearingE2E())
        #expect(out.status == 0, "\(out.stderr)")
        #expect(WearingE2E.events(out, "attempt").map { $0["succeeded"] as? Bool } == [false, true])
        #expect((WearingE2E.events(out, "finished").first?["result"] as? [String: Any])?["position"] as? String == "supine")
    }

    @Test func faultsOverTheBridge() throws {
        let e2e = try WearingE2E()
        let old = try ServedSimulator(.unix, scenario: Scenario(firmware: "6.4"))
        defer { old.stop() }
        let refused = try Self.run(["wearing-opt"], old, e2e)
        #expect(refused.status == 69)
        #expect(refused.stderr.contains("firmware 6.4"))

        let silent = try ServedSimulator(.unix, scenario: Scenario(
            profile: ScenarioProfile(Self.profile), faults: FaultScenario(pollTimeoutFrom: PollPoint(poll: 3))))
        defer { silent.stop() }
        let timedOut = try Self.run(["wearing-opt", "--max-attempts", "1"], silent, e2e)
        #expect(timedOut.status == 1)
        #expect(WearingE2E.result(timedOut) == #"{"attemptCount":1,"kind":"failedAfterRetries","lastReason":{"kind":"bleTimeout"}}"#)

        let dropping = try ServedSimulator(.unix, scenario: Scenario(
            profile: ScenarioProfile(Self.profile), faults: FaultScenario(disconnectAtPoll: PollPoint(poll: 3))))
        defer { dropping.stop() }
        let dropped = try Self.run(["wearing-opt"], dropping, e2e)
        #expect(dropped.status == 4)
        #expect(WearingE2E.result(dropped) == #"{"kind":"braceletDisconnected"}"#)
    }
}
