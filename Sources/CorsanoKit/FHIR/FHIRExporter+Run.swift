import Foundation

/// One calibration run to export, as the audit log holds it.
public struct FHIRRunInput: Sendable {
    /// The run id (`run` in every event).
    public var run: String
    /// `bp-init` or `wearing-opt`.
    public var flow: String
    /// The bracelet calibrated.
    public var bracelet: BraceletIdentity
    /// Start and end (end nil when the run was killed), on the run's clock.
    public var startedAt: Instant
    public var endedAt: Instant?
    /// The result's `kind` (`success`, `cancelledByUser`, `failedAfterRetries`, …); nil when killed.
    public var resultKind: String?
    /// The gateway that ran it, when the store recorded one.
    public var gateway: String?
    /// The readings fed to the bracelet, in order.
    public var readingsFed: [FHIRReadingInput]
    /// For a run without a result: the audit log's later record that it was killed and the plan
    /// it left was restored (the plan, when, RFC 3339); nil when there is none.
    public var killedPlanRestored: (plan: String, at: String)?

    /// Creates a run input.
    public init(run: String, flow: String, bracelet: BraceletIdentity, startedAt: Instant, endedAt: Instant?,
                resultKind: String?, gateway: String?, readingsFed: [FHIRReadingInput]) {
        self.run = run
        self.flow = flow
        self.bracelet = bracelet
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.resultKind = resultKind
        self.gateway = gateway
        self.readingsFed = readingsFed
    }
}

extension FHIRExporter {
    /// The resources of one run, in output order: bracelet Device, gateway Device, the readings
    /// fed (cuff Devices and Observations), the Procedure, then the Provenance (only when readings
    /// were fed: a Provenance needs a target).
    public func resources(for run: FHIRRunInput) -> [FHIRResource] {
        let bracelet = Self.braceletIdentity(serial: run.bracelet.serial)
        let gatewayName = run.gateway ?? "corsano"
        let gateway = Self.gatewayIdentity(gatewayName)
        var out = [braceletDevice(bracelet, run.bracelet), gatewayDevice(gateway, name: gatewayName, known: run.gateway != nil)]
        var fed: [FHIRIdentity] = []
        var cuffs: [FHIRIdentity] = []
        for input in run.readingsFed {
            out += resources(for: input)
            fed.append(Self.observationIdentity(input))
            if let address = input.cuffAddress, !cuffs.contains(Self.cuffIdentity(address: address)) {
                cuffs.append(Self.cuffIdentity(address: address))
            }
        }
        let procedure = Self.procedureIdentity(run: run.run)
        out.append(self.procedure(procedure, run, bracelet: bracelet, cuffs: cuffs, fed: fed))
        if !fed.isEmpty {
            out.append(provenance(run, procedure: procedure, gateway: gateway, cuffs: cuffs, fed: fed))
        }
        return out
    }

    /// The outcome of a run without a result: the audit log cannot tell a run still going from
    /// one whose process was killed (both have neither result nor end).
    public static let unfinishedOutcome = "not finished: still running, or its process was killed"

    /// Procedure.status for a result kind: concluded runs are `completed` (their outcome says how),
    /// runs the user or the link ended are `stopped`, runs without a result (running, or killed) are `unknown`.
    static func procedureStatus(resultKind: String?) -> String {
        switch resultKind {
        case nil: return "unknown"
        case "success", "failedAfterRetries", "braceletRejected": return "completed"
        default: return "stopped"
        }
    }

    private func procedure(_ identity: FHIRIdentity, _ run: FHIRRunInput, bracelet: FHIRIdentity,
                           cuffs: [FHIRIdentity], fed: [FHIRIdentity]) -> FHIRResource {
        var members: [(String, JSONValue)] = [("resourceType", .string("Procedure"))]
        if case .logicalID = style { members.append(("id", .string(identity.uuid))) }
        if !fed.isEmpty {
            members.append(("extension", .array(fed.map { .object([("url", .string(FHIRTerminology.procedureSupportingInfo)),
                                                                   ("valueReference", style.reference($0))]) })))
        }
        members.append(("identifier", .array([identity.identifierJSON, .object([("value", .string(run.run))])])))
        // A killed run is known to have stopped once its plan was restored: `stopped`, not `unknown`.
        members.append(("status", .string(run.killedPlanRestored != nil ? "stopped" : Self.procedureStatus(resultKind: run.resultKind))))
        let what = run.flow == FlowName.wearingOpt.rawValue ? "PPG wearing optimization of a Corsano CardioWatch"
                                             : "NIBP (cuffless blood pressure) calibration of a Corsano CardioWatch against a reference cuff"
        members.append(("code", .object([("text", .string(what))])))
        // Procedure.subject is 1..1 in R4: without a known subject say it is unknown, never invent one.
        members.append(("subject", subject?.json ?? .object([("extension", .array([
            .object([("url", .string(FHIRTerminology.dataAbsentReason)), ("valueCode", .string("unknown"))]),
        ]))])))
        var period: [(String, JSONValue)] = [("start", .string(RFC3339.format(run.startedAt)))]
        if let end = run.endedAt { period.append(("end", .string(RFC3339.format(end)))) }
        members.append(("performedPeriod", .object(period)))
        let outcome = run.killedPlanRestored.map { "killed: its process ended without a result; plan \($0.plan) restored at \($0.at)" }
        members.append(("outcome", .object([("text", .string(run.resultKind ?? outcome ?? FHIRExporter.unfinishedOutcome))])))
        members.append(("focalDevice", .array([.object([("manipulated", style.reference(bracelet))])])))
        if !cuffs.isEmpty { members.append(("usedReference", .array(cuffs.map(style.reference)))) }
        return FHIRResource(identity: identity, json: .object(members))
    }

    private func provenance(_ run: FHIRRunInput, procedure: FHIRIdentity, gateway: FHIRIdentity,
                            cuffs: [FHIRIdentity], fed: [FHIRIdentity]) -> FHIRResource {
        let identity = Self.provenanceIdentity(run: run.run)
        var members: [(String, JSONValue)] = [("resourceType", .string("Provenance"))]
        if case .logicalID = style { members.append(("id", .string(identity.uuid))) }
        members.append(("target", .array(fed.map(style.reference))))
        members.append(("recorded", .string(RFC3339.format(run.endedAt ?? run.startedAt))))
        members.append(("activity", .object([("text", .string("readings fed to the bracelet during calibration run \(run.run)"))])))
        members.append(("agent", .array([.object([
            ("type", .object([("coding", .array([FHIRTerminology.assembler.json]))])),
            ("who", style.reference(gateway)),
        ])])))
        var entities: [JSONValue] = cuffs.map { .object([("role", .string("source")), ("what", style.reference($0))]) }
        entities.append(.object([("role", .string("derivation")), ("what", style.reference(procedure))]))
        members.append(("entity", .array(entities)))
        return FHIRResource(identity: identity, json: .object(members))
    }

    private func braceletDevice(_ identity: FHIRIdentity, _ bracelet: BraceletIdentity) -> FHIRResource {
        var members: [(String, JSONValue)] = [("resourceType", .string("Device"))]
        if case .logicalID = style { members.append(("id", .string(identity.uuid))) }
        members += [
            ("identifier", .array([identity.identifierJSON])),
            ("status", .string("active")),
            ("manufacturer", .string("Corsano Health")),
            ("serialNumber", .string(bracelet.serial)),
            ("deviceName", .array([.object([("name", .string("CardioWatch \(bracelet.model)")), ("type", .string("model-name"))])])),
            ("modelNumber", .string(bracelet.model)),
            ("version", .array([.object([("value", .string(bracelet.firmware))])])),
        ]
        return FHIRResource(identity: identity, json: .object(members))
    }

    private func gatewayDevice(_ identity: FHIRIdentity, name: String, known: Bool) -> FHIRResource {
        var members: [(String, JSONValue)] = [("resourceType", .string("Device"))]
        if case .logicalID = style { members.append(("id", .string(identity.uuid))) }
        members += [
            ("identifier", .array([identity.identifierJSON])),
            ("status", .string("active")),
            ("deviceName", .array([.object([("name", .string(name)), ("type", .string("user-friendly-name"))])])),
            ("type", .object([("text", .string(known ? "corsano gateway (the computer that ran the calibration)"
                                                     : "corsano (the gateway was not recorded)"))])),
        ]
        return FHIRResource(identity: identity, json: .object(members))
    }
}

extension FHIRExporter {
    /// A signature of a run as a Provenance whose target is the run's Procedure: the
    /// signer as agent (typed name and OS user as `who.display`; corsano does not verify identity),
    /// `recorded` and `signature.when` the signing time, the meaning as the signature's type and
    /// the agent's role, and the hash of the run's records the signer saw in `signature.data`
    /// (base64 of the hex text). FHIR R4 Provenance.signature; 21 CFR 11.50.
    public func provenance(for signature: SignatureRecord) -> FHIRResource {
        let identity = FHIRIdentity("Provenance", key: ["signature", signature.record])
        let who = JSONValue.object([("display", .string("\(signature.name) (OS user \(signature.osUser)"
                                                       + (signature.gateway.isEmpty ? "" : " on \(signature.gateway)") + ")"))])
        var members: [(String, JSONValue)] = [("resourceType", .string("Provenance"))]
        if case .logicalID = style { members.append(("id", .string(identity.uuid))) }
        members.append(("identifier", .array([identity.identifierJSON, .object([("value", .string(signature.record))])])))
        members.append(("target", .array([style.reference(Self.procedureIdentity(run: signature.signedRun))])))
        members.append(("recorded", .string(signature.at)))
        members.append(("activity", .object([("text", .string("\(signature.meaning) signature of calibration run \(signature.signedRun)"))])))
        members.append(("agent", .array([.object([("role", .array([.object([("text", .string(signature.meaning))])])), ("who", who)])])))
        members.append(("signature", .array([.object([
            ("type", .array([.object([("display", .string(signature.meaning))])])),
            ("when", .string(signature.at)), ("who", who),
            ("sigFormat", .string("text/plain")),
            ("data", .string(Data(signature.runHash.utf8).base64EncodedString())),
        ])])))
        return FHIRResource(identity: identity, json: .object(members))
    }
}
