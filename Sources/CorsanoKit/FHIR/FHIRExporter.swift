/// Builds FHIR R4 resources from readings and calibration runs.
///
/// A reading is a blood-pressure Observation in the shape of the vital-signs BP profile (LOINC
/// 85354-9 with 8480-6/8462-4 components, 8478-0 only when the cuff reported MAP, MDC codes beside
/// each as the PHD IG does, UCUM `mm[Hg]`) plus a heart-rate Observation (8867-4, `/min`) that it
/// lists in `hasMember`. It claims the profiles in `meta.profile` only when it meets them: a
/// subject and an effective time. A run is a Procedure (its result, the bracelet as focal device,
/// the readings fed as R5 `supportingInfo`), the bracelet and gateway as Devices, and a Provenance
/// whose targets are the readings fed.
public struct FHIRExporter: Sendable {
    /// Who the data is about; nil exports no subject (and so claims no vital-signs profile).
    public var subject: FHIRSubject?
    /// How resources reference each other.
    public var style: FHIRReferenceStyle

    /// Creates an exporter.
    public init(subject: FHIRSubject?, style: FHIRReferenceStyle) {
        self.subject = subject
        self.style = style
    }

    // MARK: Identities

    /// The blood-pressure Observation's identity: source, instant (or cuff-clock stamp), values
    /// and the manual flag — the same reading always gets the same identifier. A reading fed in a
    /// run adds run, attempt and index: two genuine readings with the same values (typed ones
    /// carry no cuff stamp) are two Observations, and one cuff record fed in two runs is two
    /// calibration measurements (docs/design.md "Export").
    public static func observationIdentity(_ input: FHIRReadingInput) -> FHIRIdentity {
        let r = input.reading
        let when = r.measuredAt.map(RFC3339.format) ?? ("device:" + (r.deviceTime?.description ?? "unstamped"))
        var key = [
            "blood-pressure", input.source, when, "\(r.systolic)/\(r.diastolic)", r.pulse.map(String.init) ?? "-",
            r.meanArterialPressure.map(String.init) ?? "-", r.isManualEntry ? "manual" : "device",
        ]
        if let fed = input.fed { key += ["fed", fed.run, String(fed.attempt), String(fed.index)] }
        return FHIRIdentity("Observation", key: key)
    }

    /// The heart-rate Observation's identity, derived from its blood-pressure Observation's.
    static func heartRateIdentity(of bloodPressure: FHIRIdentity) -> FHIRIdentity {
        FHIRIdentity("Observation", key: ["heart-rate", bloodPressure.uuid])
    }

    static func cuffIdentity(address: String) -> FHIRIdentity { FHIRIdentity("Device", key: ["cuff", address]) }
    static func braceletIdentity(serial: String) -> FHIRIdentity { FHIRIdentity("Device", key: ["bracelet", serial]) }
    static func gatewayIdentity(_ gateway: String) -> FHIRIdentity { FHIRIdentity("Device", key: ["gateway", gateway]) }
    static func procedureIdentity(run: String) -> FHIRIdentity { FHIRIdentity("Procedure", key: ["calibration", run]) }
    static func provenanceIdentity(run: String) -> FHIRIdentity { FHIRIdentity("Provenance", key: ["calibration", run]) }

    // MARK: Readings

    /// The resources of one reading, in output order: the cuff Device (when its address is
    /// known), the blood-pressure Observation, then the heart-rate Observation (when a pulse was sent).
    public func resources(for input: FHIRReadingInput) -> [FHIRResource] {
        let r = input.reading
        let bp = Self.observationIdentity(input)
        var out: [FHIRResource] = []
        let cuff = input.cuffAddress.map(Self.cuffIdentity)
        if let address = input.cuffAddress, let cuff { out.append(cuffDevice(cuff, address: address)) }
        let stamped = input.effectiveAt.map(RFC3339.format)
        let heartRate = r.pulse != nil ? Self.heartRateIdentity(of: bp) : nil

        var components: [JSONValue] = [
            component(FHIRTerminology.systolic, r.systolic),
            component(FHIRTerminology.diastolic, r.diastolic),
        ]
        if let map = r.meanArterialPressure {
            components.append(component(FHIRTerminology.meanArterial, map))
        }
        var members = envelope(bp, profile: FHIRTerminology.bloodPressureProfile, meetsProfile: stamped != nil)
        members += observationCommon(code: FHIRTerminology.bloodPressurePanel.codeable,
                                     stamped: stamped, manual: r.isManualEntry, cuff: cuff)
        if let heartRate { members.append(("hasMember", .array([style.reference(heartRate)]))) }
        members.append(("component", .array(components)))
        out.append(FHIRResource(identity: bp, json: .object(members)))

        if let pulse = r.pulse, let heartRate {
            var hr = envelope(heartRate, profile: FHIRTerminology.heartRateProfile, meetsProfile: stamped != nil)
            hr += observationCommon(code: FHIRTerminology.heartRate.codeable,
                                    stamped: stamped, manual: r.isManualEntry, cuff: cuff)
            hr.append(("valueQuantity", FHIRTerminology.quantity(pulse, ucum: "/min")))
            out.append(FHIRResource(identity: heartRate, json: .object(hr)))
        }
        return out
    }

    /// `resourceType`, `id` (logical-id style), `meta.profile` when met, `identifier`.
    private func envelope(_ identity: FHIRIdentity, profile: String?, meetsProfile: Bool) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [("resourceType", .string(identity.resourceType))]
        if case .logicalID = style { members.append(("id", .string(identity.uuid))) }
        if let profile, meetsProfile, subject != nil {
            members.append(("meta", .object([("profile", .array([.string(profile)]))])))
        }
        members.append(("identifier", .array([identity.identifierJSON])))
        return members
    }

    /// Status, category, code, subject, effective time, manual-entry method, cuff device.
    private func observationCommon(code: JSONValue, stamped: String?, manual: Bool, cuff: FHIRIdentity?) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("status", .string("final")),
            ("category", .array([FHIRTerminology.codeable([FHIRTerminology.vitalSigns], text: "Vital Signs")])),
            ("code", code),
        ]
        if let subject { members.append(("subject", subject.json)) }
        if let stamped { members.append(("effectiveDateTime", .string(stamped))) }
        if manual {
            members.append(("method", .object([("text", .string("manual entry: typed in by a person from the reference cuff's display"))])))
        }
        if let cuff, !manual { members.append(("device", style.reference(cuff))) }
        return members
    }

    private func component(_ measured: FHIRTerminology.Measured, _ value: Int) -> JSONValue {
        .object([("code", measured.codeable), ("valueQuantity", FHIRTerminology.quantity(value, ucum: "mm[Hg]"))])
    }

    private func cuffDevice(_ identity: FHIRIdentity, address: String) -> FHIRResource {
        var members = envelope(identity, profile: nil, meetsProfile: false)
        members[members.count - 1] = ("identifier", .array([
            identity.identifierJSON,
            .object([("type", .object([("coding", .array([FHIRTerminology.bluetoothAddress.json]))])), ("value", .string(address))]),
        ]))
        members.append(("status", .string("active")))
        members.append(("type", .object([("text", .string("Blood pressure cuff (Bluetooth Blood Pressure Service 0x1810)"))])))
        return FHIRResource(identity: identity, json: .object(members))
    }
}
