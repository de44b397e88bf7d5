import CorsanoKit
import Testing

/// The shape of exported readings: the BP profile's codes and components, MAP only when
/// reported, the profile claimed only when subject and time are known, stable identities.
struct FHIRExporterTests {
    static let at = RFC3339.parseInstant("2026-11-29T10:00:55Z")!
    static let stamped = CuffReading(systolic: 128, diastolic: 82, pulse: 66, measuredAt: at)
    static let patient = FHIRSubject.reference("Patient/p-1")

    static func observation(_ resources: [FHIRResource], code: String) -> JSONValue? {
        resources.first { r in
            guard case .array(let codings)? = r.json["code"]?["coding"] else { return false }
            return codings.first?["code"] == .string(code)
        }?.json
    }

    static func componentCodes(_ json: JSONValue?) -> [String] {
        guard case .array(let components)? = json?["component"] else { return [] }
        return components.compactMap { c in
            if case .array(let codings)? = c["code"]?["coding"], case .string(let code)? = codings.first?["code"] { return code }
            return nil
        }
    }

    @Test func bloodPressureObservationHasTheProfileCodesAndUnits() {
        let exporter = FHIRExporter(subject: Self.patient, style: .logicalID)
        let resources = exporter.resources(for: FHIRReadingInput(reading: Self.stamped, source: "cuff.jsonl"))
        #expect(resources.map(\.resourceType) == ["Observation", "Observation"])
        let bp = Self.observation(resources, code: "85354-9")
        #expect(bp?["meta"]?["profile"] == .array([.string("http://hl7.org/fhir/StructureDefinition/bp")]))
        #expect(bp?["status"] == .string("final"))
        #expect(bp?["effectiveDateTime"] == .string("2026-11-29T10:00:55Z"))
        #expect(bp?["subject"] == .object([("reference", .string("Patient/p-1"))]))
        #expect(Self.componentCodes(bp) == ["8480-6", "8462-4"])  // no MAP: the cuff reported none
        guard case .array(let components)? = bp?["component"] else { Issue.record("no components"); return }
        #expect(components[0]["valueQuantity"] == .object([("value", .int(128)), ("unit", .string("mm[Hg]")),
                                                          ("system", .string("http://unitsofmeasure.org")), ("code", .string("mm[Hg]"))]))
        let hr = Self.observation(resources, code: "8867-4")
        #expect(hr?["valueQuantity"]?["value"] == .int(66))
        #expect(hr?["valueQuantity"]?["code"] == .string("/min"))
        #expect(bp?["hasMember"] == .array([.object([("reference", .string("Observation/\(resources[1].identity.uuid)"))])]))
    }

    @Test func reportedMAPBecomesTheThirdComponent() {
        var reading = Self.stamped
        reading.meanArterialPressure = 97
        let resources = FHIRExporter(subject: Self.patient, style: .logicalID).resources(for: FHIRReadingInput(reading: reading, source: "x"))
        #expect(Self.componentCodes(Self.observation(resources, code: "85354-9")) == ["8480-6", "8462-4", "8478-0"])
    }

    @Test(arguments: [(true, true, true), (false, true, false), (true, false, false), (false, false, false)])
    func profileIsClaimedOnlyWithSubjectAndTime(hasSubject: Bool, hasTime: Bool, claims: Bool) {
        var reading = Self.stamped
        if !hasTime { reading.measuredAt = nil }
        let exporter = FHIRExporter(subject: hasSubject ? Self.patient : nil, style: .logicalID)
        let bp = Self.observation(exporter.resources(for: FHIRReadingInput(reading: reading, source: "x")), code: "85354-9")
        #expect((bp?["meta"] != nil) == claims)
        #expect((bp?["subject"] != nil) == hasSubject)
        #expect((bp?["effectiveDateTime"] != nil) == hasTime)
    }

    @Test func noPulseMeansNoHeartRateObservation() {
        var reading = Self.stamped
        reading.pulse = nil
        let resources = FHIRExporter(subject: nil, style: .logicalID).resources(for: FHIRReadingInput(reading: reading, source: "x"))
        #expect(resources.count == 1)
        #expect(resources[0].json["hasMember"] == nil)
    }

    @Test func manualEntryIsMarkedAndHasNoCuffDevice() {
        var reading = Self.stamped
        reading.isManualEntry = true
        let input = FHIRReadingInput(reading: reading, source: "AA:BB:CC:DD:EE:FF", cuffAddress: "AA:BB:CC:DD:EE:FF")
        let bp = Self.observation(FHIRExporter(subject: nil, style: .logicalID).resources(for: input), code: "85354-9")
        #expect(bp?["method"]?["text"] != nil)
        #expect(bp?["device"] == nil)
    }

    @Test func cuffWithAnAddressIsADeviceIdentifiedByIt() {
        let input = FHIRReadingInput(reading: Self.stamped, source: "AA:BB:CC:DD:EE:FF", cuffAddress: "AA:BB:CC:DD:EE:FF")
        let resources = FHIRExporter(subject: nil, style: .logicalID).resources(for: input)
        #expect(resources.first?.resourceType == "Device")
        guard case .array(let ids)? = resources.first?.json["identifier"] else { Issue.record("no identifier"); return }
        #expect(ids.last?["value"] == .string("AA:BB:CC:DD:EE:FF"))
        #expect(Self.observation(resources, code: "85354-9")?["device"]
                == .object([("reference", .string("Device/\(resources[0].identity.uuid)"))]))
    }

    @Test func identityDependsOnSourceInstantValuesAndManualFlagOnly() {
        let base = FHIRReadingInput(reading: Self.stamped, source: "a.csv")
        let same = FHIRExporter.observationIdentity(base)
        #expect(FHIRExporter.observationIdentity(base) == same)
        var moved = base; moved.reading.measuredAt = RFC3339.parseInstant("2026-11-29T10:00:56Z")
        var other = base; other.source = "b.csv"
        var value = base; value.reading.systolic = 129
        var manual = base; manual.reading.isManualEntry = true
        var provenance = base; provenance.reading.provenance = [ProvenanceField(name: "userId", rawJSON: "1")]
        for changed in [moved, other, value, manual] { #expect(FHIRExporter.observationIdentity(changed) != same) }
        #expect(FHIRExporter.observationIdentity(provenance) == same)
        // RFC 9562 version 8, variant 10xx.
        let uuid = Array(same.uuid)
        #expect(uuid.count == 36 && uuid[14] == "8" && "89ab".contains(uuid[19]))
    }

    @Test func bundleStyleUsesURNsAndConditionalCreates() {
        var collection = FHIRCollection()
        let exporter = FHIRExporter(subject: nil, style: .bundleURN)
        for r in exporter.resources(for: FHIRReadingInput(reading: Self.stamped, source: "x")) { collection.add(r) }
        for r in exporter.resources(for: FHIRReadingInput(reading: Self.stamped, source: "x")) {
            let added = collection.add(r)
            #expect(!added)
        }
        let bundle = collection.transactionBundle
        guard case .array(let entries)? = bundle["entry"] else { Issue.record("no entries"); return }
        #expect(entries.count == 2)
        let first = collection.resources[0].identity
        #expect(entries[0]["fullUrl"] == .string(first.urn))
        #expect(entries[0]["resource"]?["id"] == nil)
        #expect(entries[0]["request"]?["ifNoneExist"] == .string("identifier=urn:ietf:rfc:3986|\(first.urn)"))
        #expect(entries[0]["resource"]?["hasMember"] == .array([.object([("reference", .string(collection.resources[1].identity.urn))])]))
    }

    @Test(arguments: [("Patient/p-1", true), ("Patient/", false), ("Practitioner/1", false), ("Patient/a b", false),
                      ("Patient/" + String(repeating: "x", count: 65), false)])
    func subjectReferenceIsValidated(text: String, valid: Bool) {
        #expect((FHIRSubject.parseReference(text) != nil) == valid)
    }

    @Test func subjectIdentifierSplitsAtTheFirstBar() {
        #expect(FHIRSubject.parseIdentifier("urn:oid:1.2.3|MRN|7") == .identifier(system: "urn:oid:1.2.3", value: "MRN|7"))
        #expect(FHIRSubject.parseIdentifier("|7") == nil)
        #expect(FHIRSubject.parseIdentifier("sys|") == nil)
        #expect(FHIRSubject.parseIdentifier("novalue") == nil)
    }
}
