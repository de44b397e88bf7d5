/// The bracelet port's values as bridge JSON (field names as in docs/design.md "Data on the wire" and the SDK).
enum BridgeCodec {
    /// `{"run":"...","gateway":"...","pid":N}`: who a request comes from (docs/bridge-protocol.md "Holders").
    static func holder(_ h: BraceletHolder) -> JSONValue {
        .object([("run", .string(h.run)), ("gateway", .string(h.gateway)), ("pid", .int(Int(h.pid)))])
    }

    /// Reads a holder. - Throws: `BridgeProtocolError.invalidParams` naming `holder.FIELD`.
    static func holder(_ p: BridgeParams) throws -> BraceletHolder {
        do {
            guard let pid = Int32(exactly: try p.int("pid")) else { throw BridgeProtocolError.invalidParams("pid") }
            return BraceletHolder(run: try p.string("run"), gateway: try p.string("gateway"), pid: pid)
        } catch BridgeProtocolError.invalidParams(let key) {
            throw BridgeProtocolError.invalidParams("holder." + key)
        }
    }

    static func reading(_ r: CuffReading) -> JSONValue {
        var members: [(String, JSONValue)] = [("systolic", .int(r.systolic)), ("diastolic", .int(r.diastolic))]
        if let pulse = r.pulse { members.append(("pulse", .int(pulse))) }
        members.append(("meanArterialPressure", .int(r.effectiveMeanArterialPressure)))
        if let at = r.measuredAt { members.append(("measuredAt", .string(RFC3339.format(at)))) }
        members.append(("isManualEntry", .bool(r.isManualEntry)))
        return .object(members)
    }

    static func reading(_ p: BridgeParams) throws -> CuffReading {
        let measuredAt = try p.optional("measuredAt") { key in
            guard let t = RFC3339.parseInstant(try p.string(key)) else { throw BridgeProtocolError.invalidParams(key) }
            return t
        }
        return CuffReading(systolic: try p.int("systolic"), diastolic: try p.int("diastolic"),
                           pulse: try p.optional("pulse", p.int), meanArterialPressure: try p.optional("meanArterialPressure", p.int),
                           measuredAt: measuredAt, isManualEntry: try p.optional("isManualEntry", p.bool) ?? false)
    }

    /// NIBPVALUE: `{"systolic":118,"diastolic":76,"measuredAt":"…","pulse":66,"quality":88}`.
    static func nibp(_ v: NIBPValue) -> JSONValue {
        var members: [(String, JSONValue)] = [("systolic", .int(v.systolic)), ("diastolic", .int(v.diastolic)),
                                              ("measuredAt", .string(RFC3339.format(v.measuredAt)))]
        if let pulse = v.pulse { members.append(("pulse", .int(pulse))) }
        if let quality = v.quality { members.append(("quality", .int(quality))) }
        return .object(members)
    }

    /// A bridge's NIBPVALUE, range-checked like a STATUS (a value outside them is not a measurement).
    /// - Throws: `BridgeProtocolError.invalidParams` naming the field.
    static func nibp(_ p: BridgeParams) throws -> NIBPValue {
        guard let at = RFC3339.parseInstant(try p.string("measuredAt")) else { throw BridgeProtocolError.invalidParams("measuredAt") }
        let r = NIBPValue.self
        return NIBPValue(systolic: try p.int("systolic", in: r.systolicRange), diastolic: try p.int("diastolic", in: r.diastolicRange),
                         measuredAt: at, pulse: try p.optional("pulse") { try p.int($0, in: r.pulseRange) },
                         quality: try p.optional("quality") { try p.int($0, in: r.qualityRange) })
    }

    static func status(_ s: SpecialModeStatus) -> JSONValue {
        .object([("percent", .int(s.percent)), ("quality", .int(s.quality)), ("isSuccess", .bool(s.isSuccess)),
                 ("motionLevel", .int(s.motionLevel)), ("finished", .bool(s.finished)), ("worn", .bool(s.worn)),
                 ("gravity", .object([("x", .double(s.gravity.x)), ("y", .double(s.gravity.y)), ("z", .double(s.gravity.z))]))])
    }

    /// A bridge's STATUS, every value range-checked (issue 27: a negative percent or a gravity of
    /// 1e308 must not be taken as a measurement): percent and quality 0-100 (the SDK's scale),
    /// motionLevel not negative, gravity finite within the accelerometer's ±16 g.
    /// - Throws: `BridgeProtocolError.invalidParams` naming the field.
    static func status(_ p: BridgeParams) throws -> SpecialModeStatus {
        let g = try p.object("gravity")
        let (r, axis) = (SpecialModeStatus.self, GravityVector.axisRange)
        return SpecialModeStatus(
            percent: try p.int("percent", in: r.percentRange), quality: try p.int("quality", in: r.qualityRange), isSuccess: try p.bool("isSuccess"),
            motionLevel: try p.int("motionLevel", in: r.motionLevelRange), finished: try p.bool("finished"), worn: try p.bool("worn"),
            gravity: GravityVector(x: try g.double("x", in: axis), y: try g.double("y", in: axis), z: try g.double("z", in: axis)))
    }

    /// The profile object of `pushProfile`/`readProfile`: `UserProfile.json`, the one shape.
    static func profile(_ u: UserProfile) -> JSONValue { u.json }

    /// - Throws: `BridgeProtocolError.invalidParams` naming `profile.FIELD` and what is wrong.
    static func profile(_ p: BridgeParams) throws -> UserProfile {
        do {
            return try UserProfile(json: p.value)
        } catch {
            throw BridgeProtocolError.invalidParams("profile" + (error.field.map { ".\($0)" } ?? "") + " (\(error.detail))")
        }
    }

    static func identity(_ i: BraceletIdentity, simulated: Bool) -> JSONValue {
        guard case .object(let members) = i.json else { return i.json }
        return .object(members + [("simulated", .bool(simulated))])
    }

    static func identity(_ p: BridgeParams) throws -> (BraceletIdentity, simulated: Bool) {
        (BraceletIdentity(model: try p.string("model"), firmware: try p.string("firmware"), serial: try p.string("serial")),
         try p.optional("simulated", p.bool) ?? false)
    }
}
