import CorsanoKit
import Testing

@Suite struct ProfilePushTests {
    static let profile = UserProfile(heightCm: 172, weightKg: 68, wrist: .left, gender: .female, unit: .metric,
                                     birthdate: "1990-04-01", skinTone: 3, hairDensity: .low)
    static let start = Instant(secondsSinceEpoch: 1_795_946_400)

    static func push(holding: UserProfile?, force: Bool) async throws -> (ProfilePush.Outcome, EventRecorder, ProfileStore) {
        let clock = VirtualClock(start: start)
        let sim = SimulatedBracelet(scenario: Scenario(serial: "P-1", profile: holding.map(ScenarioProfile.init)), clock: clock)
        let events = EventRecorder()
        let store = ProfileStore(store: try SQLiteStore(path: nil))
        let outcome = try await ProfilePush(bracelet: sim, clock: clock, events: events, profileStore: store, run: "r")
            .push(profile, serial: "P-1", force: force)
        #expect(sim.state.profile == profile)
        return (outcome, events, store)
    }

    @Test func sameProfileOnTheBraceletIsSkipped() async throws {
        let (outcome, events, store) = try await Self.push(holding: Self.profile, force: false)
        #expect(outcome == .skipped)
        #expect(events.events.map(\.json.serialized) == [
            #"{"event":"profile","flow":"profile-push","run":"r","at":"2026-11-29T10:00:00Z","profile":"skipped","forced":false,"serial":"P-1","why":"sameProfile","values":{"height":172,"weight":68,"wrist":"left","gender":"female","unit":"metric","birthdate":"1990-04-01","skinTone":3,"hairDensity":"low"}}"#,
        ])
        #expect(try store.load(serial: "P-1") == Self.profile)
    }

    @Test func forceOrADifferentProfileIsPushed() async throws {
        #expect(try await Self.push(holding: Self.profile, force: true).0 == .pushed)
        var other = Self.profile
        other.weightKg = 69
        #expect(try await Self.push(holding: other, force: false).0 == .pushed)
        #expect(try await Self.push(holding: nil, force: false).0 == .pushed)
    }
}
