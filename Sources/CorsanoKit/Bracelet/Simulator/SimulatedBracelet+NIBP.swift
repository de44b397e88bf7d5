/// The simulated bracelet's own NIBP values: stored ones and a spot measurement, from
/// `SimulatedNIBPModel` on the run clock.
extension SimulatedBracelet {
    /// The estimate model of this bracelet's scenario and seed.
    public var nibpModel: SimulatedNIBPModel { SimulatedNIBPModel(scenario: scenario, seed: seed) }

    /// The most values one `readNIBP` answer carries (a bridge line is at most 1 MiB); the
    /// client asks again from the last one (docs/bridge-protocol.md `readNIBP`).
    public static let maxValuesPerRead = 2000

    public func readNIBP(since: Instant?, until: Instant?) async throws -> [NIBPValue] {
        try await readNIBPPage(since: since, until: until).values
    }

    /// One page of stored values, and whether more are left after it.
    func readNIBPPage(since: Instant?, until: Instant?) async throws -> (values: [NIBPValue], more: Bool) {
        try link.check()
        return nibpModel.stored(history: state.nibpHistory, since: since, until: until, now: clock.now(), limit: Self.maxValuesPerRead)
    }

    /// Waits `nibp.spotSeconds` of real time (the bridge says `working` meanwhile), then measures.
    /// - Throws: `.refused` in the calibration plan or before any calibration attempt.
    public func measureNIBP() async throws -> NIBPValue {
        try link.check()
        guard state.plan != .nibpCalibration else {
            throw BraceletError.refused("no spot measurement in the \(BraceletPlan.nibpCalibration) plan (a calibration runs)")
        }
        guard !state.nibpHistory.isEmpty else {
            throw BraceletError.refused("the bracelet's NIBP model was never calibrated: run corsano bp-init first")
        }
        let seconds = scenario.nibp.spotSeconds ?? NIBPScenario.defaultSpotSeconds
        if seconds > 0 { try await Task.sleep(for: .milliseconds(Int64(seconds * 1000))) }
        try link.check()
        let now = clock.now()
        let history = state.nibpHistory
        let calibration = history.last { $0.at <= now } ?? history[0]
        return nibpModel.value(at: now, calibration: calibration)
    }
}
