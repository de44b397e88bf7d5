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

    /// `readNIBP`, page by page: an answer with `"more":true` is followed by a request from
    /// just after its last value. -32601 is `.unavailable` naming the method (exit 69).
    public func readNIBP(since: Instant?, until: Instant?) async throws -> [NIBPValue] {
        var values: [NIBPValue] = []
        var from = since
        while true {
            var params: [(String, JSONValue)] = []
            if let from { params.append(("since", .string(RFC3339.format(from)))) }
            if let until { params.append(("until", .string(RFC3339.format(until)))) }
            let (page, more) = try read("readNIBP", try await implemented("readNIBP") {
                try await call("readNIBP", params, timeout: requestTimeout)
            }) { result -> ([NIBPValue], Bool) in
                guard case .array(let items)? = result.value["values"] else { throw BridgeProtocolError.invalidParams("values") }
                return (try items.map { try BridgeCodec.nibp(BridgeParams($0)) }, try result.optional("more", result.bool) ?? false)
            }
            values += page
            // A page that does not move on would repeat for ever: stop at it.
            guard more, let last = page.last?.measuredAt, from.map({ last >= $0 }) ?? true else { return values }
            from = last.adding(interval: 1)
        }
    }

    /// The longest a spot measurement may keep `working` the bridge, seconds: a 287-2 measures
    /// for about 2 minutes; 5 minutes covers a retry of the bracelet's own (docs/bridge-protocol.md).
    public static let measureNIBPCap: Double = 300

    /// `measureNIBP`, a long method: `working` restarts its timeout, up to `measureNIBPCap`.
    public func measureNIBP() async throws -> NIBPValue {
        try read("measureNIBP", try await implemented("measureNIBP") {
            try await call("measureNIBP", timeout: requestTimeout, long: true, cap: Self.measureNIBPCap)
        }) { try BridgeCodec.nibp($0.object("value")) }
    }

    /// Served simulator only (`simCuffReading`): one simulated cuff reading of scenario subject
    /// `subject`, requested now. - Throws: `BraceletError` (`.unavailable` naming the method on
    /// a bridge that is not a simulator; `.refused` for a subject the scenario does not declare).
    public func simulatorCuffReading(subject: String?) async throws -> CuffReading {
        let params: [(String, JSONValue)] = subject.map { [("subject", .string($0))] } ?? []
        let answer: BridgeParams
        do {
            answer = try await implemented("simCuffReading") { try await call("simCuffReading", params, timeout: requestTimeout) }
        } catch BraceletError.refused(let message) where message.hasPrefix(Self.subjectRefusal) {
            // `invalid params: subject (WHY)`: the scenario's answer about the subject.
            throw SimulatedCuffError.refusedByBridge(String(message.dropFirst(Self.subjectRefusal.count).dropLast()))
        }
        return try read("simCuffReading", answer) { result in
            var reading = try BridgeCodec.reading(result.object("reading"))
            reading.meanArterialPressure = nil  // the codec writes the derived MAP; a sim cuff reports none
            if case .string(let id)? = result.value["reading"]?["subject"] { reading = reading.withSubject(id) }
            return reading
        }
    }

    /// How a served simulator refuses `simCuffReading`'s subject (BridgeSession's dispatch).
    static let subjectRefusal = "bridge error \(BridgeErrorCode.invalidParams): invalid params: subject ("

    /// Runs `body`; a -32601 answer (the bridge has no such method) becomes `.unavailable`
    /// naming `method` (issue 33: exit 69, "the bridge does not implement readNIBP").
    private func implemented<T>(_ method: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch BraceletError.refused(let message) where message.hasPrefix("bridge error \(BridgeErrorCode.methodNotFound):") {
            throw BraceletError.unavailable("the bridge does not implement \(method) (error \(BridgeErrorCode.methodNotFound), method not found)")
        }
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
    /// interval, which restarts the timeout. Silence past the timeout is a disconnect.
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
