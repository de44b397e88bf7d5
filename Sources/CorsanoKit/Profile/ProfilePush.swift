/// `profile push`: sends a validated profile unless the bracelet already holds the same one.
///
/// Idempotent by reading the profile back through the bracelet port: same → `skipped` (nothing
/// sent) unless `force`. Either way the profile is recorded as the bracelet's last in the store,
/// so `wearing-opt --no-preparation` finds it. Events: one `profile` line (flow `profile-push`).
public struct ProfilePush: Sendable {
    /// What happened.
    public enum Outcome: String, Equatable, Sendable {
        case pushed, skipped
    }

    public var bracelet: any Bracelet
    public var clock: any FlowClock
    public var events: any EventSink
    public var profileStore: ProfileStore?
    public var run: String

    /// Creates a push.
    public init(bracelet: any Bracelet, clock: any FlowClock, events: any EventSink,
                profileStore: ProfileStore?, run: String) {
        self.bracelet = bracelet
        self.clock = clock
        self.events = events
        self.profileStore = profileStore
        self.run = run
    }

    /// Pushes `profile` to the bracelet `serial` unless it holds the same one and `force` is off.
    /// - Throws: `BraceletError` from the bracelet, `StoreError` from the store.
    public func push(_ profile: UserProfile, serial: String, force: Bool) async throws -> Outcome {
        let held = try await bracelet.readProfile()
        let outcome: Outcome = (held == profile && !force) ? .skipped : .pushed
        if outcome == .pushed { try await bracelet.pushProfile(profile, force: force) }
        try profileStore?.save(profile, serial: serial, at: clock.now())
        let event = ProfileEvent(outcome: outcome, forced: force, why: outcome == .skipped ? .sameProfile : nil,
                                 serial: serial, values: profile)
        events.emit(FlowEvent(flow: .profilePush, run: run, at: clock.now(), .profile(event)))
        return outcome
    }
}
