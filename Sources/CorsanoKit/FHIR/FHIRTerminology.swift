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

    /// What an Observation or a component measures, coded as the PHD IG codes it: the LOINC
    /// concept, then the MDC concept it pairs with it; `text` is the CodeableConcept's text.
    public struct Measured: Sendable {
        public let loinc: Concept
        public let mdc: Concept
        public let text: String

        /// `text` defaults to the LOINC display.
        init(loinc code: String, _ display: String, mdc mdcCode: String, _ mdcDisplay: String, text: String? = nil) {
            loinc = Concept(system: FHIRTerminology.loinc, code: code, display: display)
            mdc = Concept(system: FHIRTerminology.mdc, code: mdcCode, display: mdcDisplay)
            self.text = text ?? display
        }

        /// The CodeableConcept: both codings, LOINC first, and `text`.
        var codeable: JSONValue { FHIRTerminology.codeable([loinc, mdc], text: text) }
    }

    public static let bloodPressurePanel = Measured(loinc: "85354-9", "Blood pressure panel with all children optional",
                                                    mdc: "150020", "MDC_PRESS_BLD_NONINV", text: "Blood pressure")
    public static let systolic = Measured(loinc: "8480-6", "Systolic blood pressure", mdc: "150021", "MDC_PRESS_BLD_NONINV_SYS")
    public static let diastolic = Measured(loinc: "8462-4", "Diastolic blood pressure", mdc: "150022", "MDC_PRESS_BLD_NONINV_DIA")
    public static let meanArterial = Measured(loinc: "8478-0", "Mean blood pressure", mdc: "150023", "MDC_PRESS_BLD_NONINV_MEAN")
    public static let heartRate = Measured(loinc: "8867-4", "Heart rate", mdc: "149546", "MDC_PULS_RATE_NON_INV")

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
