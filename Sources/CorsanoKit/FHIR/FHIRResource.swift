/// One exported FHIR resource: its stable identity and its JSON (envelope fields first).
public struct FHIRResource: Sendable {
    /// The resource's identity (type and UUID).
    public let identity: FHIRIdentity
    /// The resource as JSON, `resourceType` first; carries `id` only in `.logicalID` style.
    public let json: JSONValue

    /// The resource type, `Observation`, `Device`, `Procedure` or `Provenance`.
    public var resourceType: String { identity.resourceType }
}

/// A reading to export, as the cuff gave it.
public struct FHIRReadingInput: Sendable {
    /// The reading; `meanArterialPressure` non-nil only when the cuff reported MAP (a derived MAP
    /// is never exported as a measurement).
    public var reading: CuffReading
    /// Where it came from: the cuff's Bluetooth address when known, else the file or run it was
    /// read from. Part of the reading's identity.
    public var source: String
    /// The cuff's Bluetooth address, when known (the cuff becomes a Device identified by it).
    public var cuffAddress: String?
    /// Its place in a calibration run (run id, attempt, index, 1-based) when it was fed to a
    /// bracelet: part of its identity, so no two readings of a run share one; nil for
    /// a reading outside a run (`cuff ingest --format fhir`), identified by what it says alone.
    public var fed: FedPosition?

    /// Where a reading was fed: run, attempt and index (docs/design.md "Events", `measurement`).
    public struct FedPosition: Hashable, Sendable {
        public var run: String
        public var attempt: Int
        public var index: Int
    }

    /// Creates an input.
    public init(reading: CuffReading, source: String, cuffAddress: String? = nil, fed: FedPosition? = nil) {
        self.reading = reading
        self.source = source
        self.cuffAddress = cuffAddress
        self.fed = fed
    }

    /// When the reading was taken: the cuff's `measuredAt`, else for a manual entry the instant
    /// it was typed (`enteredAt`, docs/design.md "Data on the wire"); nil when neither is known.
    public var effectiveAt: Instant? {
        if let measured = reading.measuredAt { return measured }
        guard let field = reading.provenance.first(where: { $0.name == "enteredAt" }), field.rawJSON.count > 2,
              field.rawJSON.first == "\"", field.rawJSON.last == "\"" else { return nil }
        return RFC3339.parseInstant(String(field.rawJSON.dropFirst().dropLast()))
    }

    /// The `source` provenance field when it is a Bluetooth address (`cuff listen` writes it).
    public static func bluetoothAddress(in reading: CuffReading) -> String? {
        guard let field = reading.provenance.first(where: { $0.name == "source" }) else { return nil }
        let raw = field.rawJSON
        guard raw.count == 19, raw.first == "\"", raw.last == "\"" else { return nil }
        let text = String(raw.dropFirst().dropLast())
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
        return text.uppercased()
    }
}
