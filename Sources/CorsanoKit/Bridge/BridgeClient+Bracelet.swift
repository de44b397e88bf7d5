/// The `Bracelet` port, one bridge method per call (docs/bridge-protocol.md).
extension BridgeClient: Bracelet {
    public func identify() async throws -> BraceletIdentity {
        try read("identify", try await call("identify", timeout: requestTimeout)) { try BridgeCodec.identity($0).0 }
    }

    public func currentPlan() async throws -> BraceletPlan {
        try read("getPlan", try await call("getPlan", timeout: requestTimeout)) { BraceletPlan(try $0.string("plan")) }
    }

    /// `getPlan` with its `holder` while a run holds the calibration plan.
    public func planStatus() async throws -> PlanStatus {
        try read("getPlan", try await call("getPlan", timeout: requestTimeout)) {
            PlanStatus(plan: BraceletPlan(try $0.string("plan")),
                       holder: $0.has("holder") ? try BridgeCodec.holder($0.object("holder")) : nil)
        }
    }

    /// Every later request names `holder` (docs/bridge-protocol.md "Holders").
    public func name(holder: BraceletHolder) {
        self.holder.withLock { $0 = holder }
    }

    public func setPlan(_ plan: BraceletPlan) async throws {
        _ = try await call("setPlan", [("plan", .string(plan.name))], timeout: requestTimeout)
    }

    public func readProfile() async throws -> UserProfile? {
        // `{"profile":null}` is "no profile"; anything else but a profile object (a result of
        // null, [], a string, a number, no `profile` member) is a malformed answer: a disconnect.
        try read("readProfile", try await call("readProfile", timeout: requestTimeout)) {
            guard $0.isObject, $0.contains("profile") else { throw BridgeProtocolError.invalidParams("profile") }
            return try $0.has("profile") ? BridgeCodec.profile($0.object("profile")) : nil
        }
    }

    public func pushProfile(_ profile: UserProfile, force: Bool) async throws {
        _ = try await call("pushProfile", [("profile", BridgeCodec.profile(profile)), ("force", .bool(force))], timeout: requestTimeout)
    }

    public func feedCalibrationReading(_ reading: CuffReading, attempt: Int, index: Int) async throws -> Bool {
        try read("feedCalibrationReading", try await call("feedCalibrationReading", [("reading", BridgeCodec.reading(reading)), ("attempt", .int(attempt)),
                                                       ("index", .int(index))], timeout: requestTimeout)) { try $0.bool("accepted") }
    }

    public func calibrationVerdict(attempt: Int) async throws -> Bool {
        try read("calibrationVerdict", try await call("calibrationVerdict", [("attempt", .int(attempt))], timeout: requestTimeout)) { try $0.bool("accepted") }
    }

    public func feedSetReading(_ reading: CuffReading, set: Int, of: Int, index: Int) async throws -> Bool {
        try read("feedCalibrationReading", try await call("feedCalibrationReading", [
            ("reading", BridgeCodec.reading(reading)), ("attempt", .int(set)), ("index", .int(index)), ("set", .int(set)), ("of", .int(of)),
        ], timeout: requestTimeout)) { try $0.bool("accepted") }
    }

    public func setsVerdict(of: Int) async throws -> Bool {
        try read("calibrationVerdict", try await call("calibrationVerdict", [("attempt", .int(of)), ("sets", .int(of))],
                                                      timeout: requestTimeout)) { try $0.bool("accepted") }
    }

    public func startSpecialMode(value: Int) async throws {
        _ = try await call("startSpecialMode", [("value", .int(value))], timeout: requestTimeout)
    }

    /// A poll that times out while the link lives is a missed poll (`.timeout`).
    public func specialModeStatus(type: Int) async throws -> SpecialModeStatus {
        try read("specialModeStatus", try await call("specialModeStatus", [("type", .int(type))], timeout: requestTimeout, onTimeout: .timeout),
                 BridgeCodec.status)
    }

    public func stopSpecialMode() async throws {
        _ = try await call("stopSpecialMode", timeout: requestTimeout)
    }

    /// A bridge answers at once; a simulator holding the step says so with `working` at a fixed
    /// interval, which restarts the timeout. Silence past the timeout is a disconnect (issue 18).
    public func enterStep(flow: String, step: String) async throws {
        _ = try await call("enterStep", [("flow", .string(flow)), ("step", .string(step))], timeout: requestTimeout, long: true)
    }

    public func announcePosition(_ position: BraceletPosition) async throws {
        _ = try await call("announcePosition", [("position", .string(position.rawValue))], timeout: requestTimeout)
    }

    public func close() async { linkDown() }

    /// Closes the link now, without awaiting (for synchronous teardown).
    package func shutdown() { linkDown() }

    /// Reads a result; a malformed one means the link cannot be trusted: a disconnect.
    private func read<T>(_ method: String, _ result: BridgeParams, _ body: (BridgeParams) throws -> T) throws -> T {
        do {
            return try body(result)
        } catch let error as BridgeProtocolError {
            let what: String
            switch error {
            case .parse: what = "not JSON-RPC"
            case .invalidParams(let key): what = "\(key) is missing, mistyped or out of range"
            }
            malformedReply.withLock { $0 = $0 ?? "bridge reply to \(method) malformed: \(what)" }
            linkDown()
            throw BraceletError.disconnected
        }
    }

    /// Served simulator only: returns once a call is held at a step (`sim.waitUntilHeld`).
    /// - Throws: `BraceletError`.
    package func simulatorWaitUntilHeld() async throws {
        _ = try await call("sim.waitUntilHeld", timeout: requestTimeout, long: true)
    }

    /// Served simulator only: the special mode the served bracelet runs (`sim.specialMode`), nil
    /// when none. - Throws: `BraceletError`.
    package func simulatorSpecialMode() async throws -> Int? {
        let result = try await call("sim.specialMode", timeout: requestTimeout)
        return result.has("specialMode") ? try? result.int("specialMode") : nil
    }

    /// Served simulator only: how many plan switches the served bracelet has done, over every
    /// connection (`sim.planSwitches`, issue 32). - Throws: `BraceletError`.
    package func simulatorPlanSwitches() async throws -> Int {
        try read("sim.planSwitches", try await call("sim.planSwitches", timeout: requestTimeout)) { try $0.int("planSwitches") }
    }

    /// Served simulator only: drops the simulated bracelet's link (`sim.disconnect`); the bridge
    /// then sends `disconnected`. - Throws: `BraceletError`.
    package func simulatorDisconnect() async throws {
        do {
            _ = try await call("sim.disconnect", timeout: requestTimeout)
        } catch BraceletError.disconnected {
            // The drop can overtake its own answer (a held call's error, the notification): done.
        }
    }
}
