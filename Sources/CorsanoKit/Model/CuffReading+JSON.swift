/// The reading line of docs/design.md "Data on the wire": field order systolic, diastolic, pulse,
/// meanArterialPressure, measuredAt, deviceTime, receivedAt, isManualEntry, then provenance.
extension CuffReading {
    /// This reading as a JSON object. `includeDerivedMAP` writes the derived MAP when the cuff
    /// reported none (`cuff ingest --derive-map`; the reading "as fed" in a `measurement` event).
    public func json(includeDerivedMAP: Bool = false) -> JSONValue {
        var members: [(String, JSONValue)] = [("systolic", .int(systolic)), ("diastolic", .int(diastolic))]
        if let pulse { members.append(("pulse", .int(pulse))) }
        if let map = meanArterialPressure ?? (includeDerivedMAP ? effectiveMeanArterialPressure : nil) {
            members.append(("meanArterialPressure", .int(map)))
        }
        if let measuredAt { members.append(("measuredAt", .string(RFC3339.format(measuredAt)))) }
        if let deviceTime { members.append(("deviceTime", .string(deviceTime.description))) }
        if let receivedAt { members.append(("receivedAt", .string(receivedAt))) }
        members.append(("isManualEntry", .bool(isManualEntry)))
        for field in provenance { members.append((field.name, .raw(field.rawJSON))) }
        return .object(members)
    }

    /// This reading as one compact JSON line (without the newline).
    public func jsonLine(includeDerivedMAP: Bool = false) -> String {
        json(includeDerivedMAP: includeDerivedMAP).serialized
    }
}
