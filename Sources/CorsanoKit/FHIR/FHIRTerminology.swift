/// The code systems, codes and profiles corsano's FHIR R4 export uses, each written once.
///
/// Sources: FHIR R4 vital-signs profiles (http://hl7.org/fhir/R4/observation-vitalsigns.html),
/// LOINC, ISO/IEEE 11073-10101 (MDC) codes as the HL7 Personal Health Device IG pairs them with
/// LOINC, UCUM units, the PHD IG's Continua device-identifier types.
public enum FHIRTerminology {
    public static let loinc = "http://loinc.org"
    public static let mdc = "urn:iso:std:iso:11073:10101"
    public static let ucum = "http://unitsofmeasure.org"
    public static let observationCategory = "http://terminology.hl7.org/CodeSystem/observation-category"
    public static let continuaDeviceIdentifiers = "http://terminology.hl7.org/CodeSystem/ContinuaDeviceIdentifiers"
    public static let provenanceParticipantType = "http://terminology.hl7.org/CodeSystem/provenance-participant-type"
    public static let dataAbsentReason = "http://hl7.org/fhir/StructureDefinition/data-absent-reason"
    /// R5's `Procedure.supportingInfo` carried into R4 by the cross-version extension mechanism.
    public static let procedureSupportingInfo = "http://hl7.org/fhir/5.0/StructureDefinition/extension-Procedure.supportingInfo"
    /// RFC 3986 URIs as identifier values (`urn:uuid:…`): globally unique without inventing a system.
    public static let uriSystem = "urn:ietf:rfc:3986"

    public static let bloodPressureProfile = "http://hl7.org/fhir/StructureDefinition/bp"
    public static let heartRateProfile = "http://hl7.org/fhir/StructureDefinition/heartrate"

    /// One coded concept: system, code and display.
    public struct Concept: Sendable {
        public let system: String
        public let code: String
        public let display: String
        var json: JSONValue { .object([("system", .string(system)), ("code", .string(code)), ("display", .string(display))]) }
    }

    public static let bloodPressurePanel = Concept(system: loinc, code: "85354-9", display: "Blood pressure panel with all children optional")
    public static let systolic = Concept(system: loinc, code: "8480-6", display: "Systolic blood pressure")
    public static let diastolic = Concept(system: loinc, code: "8462-4", display: "Diastolic blood pressure")
    public static let meanArterial = Concept(system: loinc, code: "8478-0", display: "Mean blood pressure")
    public static let heartRate = Concept(system: loinc, code: "8867-4", display: "Heart rate")
    public static let mdcBloodPressure = Concept(system: mdc, code: "150020", display: "MDC_PRESS_BLD_NONINV")
    public static let mdcSystolic = Concept(system: mdc, code: "150021", display: "MDC_PRESS_BLD_NONINV_SYS")
    public static let mdcDiastolic = Concept(system: mdc, code: "150022", display: "MDC_PRESS_BLD_NONINV_DIA")
    public static let mdcMean = Concept(system: mdc, code: "150023", display: "MDC_PRESS_BLD_NONINV_MEAN")
    public static let mdcPulseRate = Concept(system: mdc, code: "149546", display: "MDC_PULS_RATE_NON_INV")
    public static let vitalSigns = Concept(system: observationCategory, code: "vital-signs", display: "Vital Signs")
    public static let bluetoothAddress = Concept(system: continuaDeviceIdentifiers, code: "BTMAC", display: "Bluetooth MAC address")
    public static let assembler = Concept(system: provenanceParticipantType, code: "assembler", display: "Assembler")

    /// A CodeableConcept of `concepts` with `text`.
    static func codeable(_ concepts: [Concept], text: String) -> JSONValue {
        .object([("coding", .array(concepts.map(\.json))), ("text", .string(text))])
    }

    /// A UCUM Quantity: `mm[Hg]` pressures, `/min` rates.
    static func quantity(_ value: Int, ucum: String) -> JSONValue {
        .object([("value", .int(value)), ("unit", .string(ucum)), ("system", .string(FHIRTerminology.ucum)), ("code", .string(ucum))])
    }
}
