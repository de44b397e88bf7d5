/// The study participant a reading belongs to: the reading line's `subject` field (docs/design.md
/// "Data on the wire"; issue 33). Any non-empty string naming a participant — distinct from the FHIR
/// `--subject Patient/ID` of an export. It is a provenance field, so `replay-filter` passes it
/// byte for byte; the replay key stays the seed's (time and the three values).
extension CuffReading {
    /// The name of the reading line's participant field.
    public static let subjectField = "subject"

    /// The participant this reading carries (`subject`), nil when none or not a JSON string.
    public var subject: String? {
        guard let raw = provenance.first(where: { $0.name == Self.subjectField })?.rawJSON,
              case .string(let id)? = try? JSONValue.parse(Array(raw.utf8)) else { return nil }
        return id
    }

    /// This reading with `subject` set to `id` (a `subject` it carried is replaced, in place, so
    /// the field order stays the input's; a new one goes after the other provenance fields).
    public func withSubject(_ id: String) -> CuffReading {
        var copy = self
        let field = ProvenanceField(name: Self.subjectField, rawJSON: JSONValue.string(id).serialized)
        if let i = copy.provenance.firstIndex(where: { $0.name == Self.subjectField }) {
            copy.provenance[i] = field
        } else {
            copy.provenance.append(field)
        }
        return copy
    }
}

/// The rule for a `--subject-id` value (`cuff ingest`, `bp-init`, `nibp read`): a participant's
/// name, not empty, without control characters (it is printed in tables and messages).
public enum SubjectID {
    /// Why `text` cannot name a subject, nil when it can.
    public static func problem(_ text: String) -> String? {
        if text.isEmpty { return "an empty subject id" }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a subject id with a control character"
        }
        return nil
    }
}
