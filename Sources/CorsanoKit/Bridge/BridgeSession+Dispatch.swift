extension BridgeSession {
    /// Runs one bridge method on the simulated bracelet (docs/bridge-protocol.md).
    /// - Throws: `BraceletError`, `BridgeProtocolError.invalidParams`, `BridgeSessionError`, `CancellationError`.
    func dispatch(_ method: String, _ p: BridgeParams) async throws -> JSONValue {
        let b = bracelet
        let done = JSONValue.object([])
        switch method {
        case "identify":
            return BridgeCodec.identity(try await b.identify(), simulated: true)
        case "getPlan":
            let status = try await b.planStatus()
            return .object([("plan", .string(status.plan.name))] + (status.holder.map { [("holder", BridgeCodec.holder($0))] } ?? []))
        case "setPlan":
            try await b.setPlan(BraceletPlan(try p.string("plan")))
        case "readProfile":
            return .object([("profile", try await b.readProfile().map(BridgeCodec.profile) ?? .null)])
        case "pushProfile":
            try await b.pushProfile(try BridgeCodec.profile(p.object("profile")), force: try p.optional("force", p.bool) ?? false)
        case "feedCalibrationReading":
            let reading = try BridgeCodec.reading(p.object("reading"))
            // `set` and `of`: a reading of a multi-set calibration; absent: the single session.
            if let set = try p.optional("set", p.int) {
                guard let of = try p.optional("of", p.int), set >= 1, of >= set else { throw BridgeProtocolError.invalidParams("of") }
                return .object([("accepted", .bool(try await b.feedSetReading(reading, set: set, of: of, index: try p.int("index"))))])
            }
            let accepted = try await b.feedCalibrationReading(reading, attempt: try p.int("attempt"), index: try p.int("index"))
            return .object([("accepted", .bool(accepted))])
        case "calibrationVerdict":
            if let sets = try p.optional("sets", p.int) {
                return .object([("accepted", .bool(try await b.setsVerdict(of: sets)))])
            }
            return .object([("accepted", .bool(try await b.calibrationVerdict(attempt: try p.int("attempt"))))])
        case "startSpecialMode":
            try await b.startSpecialMode(value: try p.int("value"))
        case "specialModeStatus":
            return BridgeCodec.status(try await b.specialModeStatus(type: try p.int("type")))
        case "stopSpecialMode":
            try await b.stopSpecialMode()
        case "enterStep":
            try await b.enterStep(flow: try p.string("flow"), step: try p.string("step"))
        case "announcePosition":
            guard let position = BraceletPosition(rawValue: try p.string("position")) else {
                throw BridgeProtocolError.invalidParams("position")
            }
            try await b.announcePosition(position)
        case "readNIBP":
            func instant(_ key: String) throws -> Instant? {
                try p.optional(key) { k in
                    guard let t = RFC3339.parseInstant(try p.string(k)) else { throw BridgeProtocolError.invalidParams(k) }
                    return t
                }
            }
            let (values, more) = try await b.readNIBPPage(since: try instant("since"), until: try instant("until"))
            return .object([("values", .array(values.map(BridgeCodec.nibp)))] + (more ? [("more", .bool(true))] : []))
        case "measureNIBP":
            return .object([("value", BridgeCodec.nibp(try await b.measureNIBP()))])
        case "simCuffReading":
            let subject: ScenarioSubject
            do {
                subject = try SimulatedCuff.subject(try p.optional("subject", p.string), in: b.scenario)
            } catch let error as SimulatedCuffError {
                throw BridgeProtocolError.invalidParams("subject (\(error.message))")
            }
            let reading = SimulatedCuff(scenario: b.scenario, seed: b.seed).reading(of: subject, requestedAt: b.clock.now())
            var json = BridgeCodec.reading(reading)
            if case .object(var members) = json {
                members.removeAll { $0.0 == "meanArterialPressure" }
                members.append(("subject", .string(subject.id)))
                json = .object(members)
            }
            return .object([("reading", json)])
        case "sim.waitUntilHeld":
            await b.waitUntilHeld()
            return .object([("steps", .array(b.stepsHeldSoFar.map { .string($0) }))])
        case "sim.specialMode":
            return .object([("specialMode", b.state.specialMode.map { .int($0) } ?? .null)])
        case "sim.planSwitches":
            return .object([("planSwitches", .int(b.state.planSwitches))])
        case "sim.disconnect":
            b.disconnect()
        default:
            throw BridgeSessionError.unknownMethod
        }
        return done
    }
}
