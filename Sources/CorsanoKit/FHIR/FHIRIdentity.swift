/// Stable identities for exported resources: the same input always yields the same UUID, so a
/// re-export is idempotent and a server can create conditionally (`If-None-Exist`).
///
/// The UUID is RFC 9562's name-based version 8 over SHA-256 (Appendix B.2): the first 16 bytes
/// of the digest of a versioned, newline-separated key, with the version and variant bits set.
public struct FHIRIdentity: Hashable, Sendable {
    /// The FHIR resource type (`Observation`, `Device`, …).
    public let resourceType: String
    /// Lowercase 8-4-4-4-12 UUID text; also the resource's logical id in NDJSON output.
    public let uuid: String

    /// The identity of `resourceType` named by `keyParts` (joined with newlines under a version tag).
    public init(_ resourceType: String, key keyParts: [String]) {
        self.resourceType = resourceType
        var digest = SHA256.digest(Array((["corsano-fhir-v1", resourceType] + keyParts).joined(separator: "\n").utf8))
        digest[6] = (digest[6] & 0x0f) | 0x80  // version 8
        digest[8] = (digest[8] & 0x3f) | 0x80  // RFC 9562 variant
        let hex = digest.prefix(16).map { byte -> String in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
        }.joined()
        let h = Array(hex)
        uuid = [h[0..<8], h[8..<12], h[12..<16], h[16..<20], h[20..<32]].map { String($0) }.joined(separator: "-")
    }

    /// `urn:uuid:…`, the identifier value and the bundle's `fullUrl`.
    public var urn: String { "urn:uuid:" + uuid }

    /// The `identifier` element: the URN under the RFC 3986 system.
    var identifierJSON: JSONValue {
        .object([("system", .string(FHIRTerminology.uriSystem)), ("value", .string(urn))])
    }

    /// The search a conditional create sends as `If-None-Exist`.
    public var ifNoneExist: String { "identifier=\(FHIRTerminology.uriSystem)|\(urn)" }
}

/// How exported resources point at each other.
public enum FHIRReferenceStyle: Sendable {
    /// `Type/id`, each resource carrying its id: NDJSON and bulk files.
    case logicalID
    /// `urn:uuid:…` fullUrls inside one transaction Bundle; resources carry no id (servers assign).
    case bundleURN

    func reference(_ identity: FHIRIdentity) -> JSONValue {
        switch self {
        case .logicalID: return .object([("reference", .string("\(identity.resourceType)/\(identity.uuid)"))])
        case .bundleURN: return .object([("reference", .string(identity.urn))])
        }
    }
}

/// Who the exported observations are about; without one there is no subject (no invented PHI).
public enum FHIRSubject: Equatable, Sendable {
    /// `Patient/ID` (`--subject`).
    case reference(String)
    /// A business identifier (`--subject-identifier SYSTEM|VALUE`).
    case identifier(system: String, value: String)

    /// Parses `--subject`: `Patient/` and a FHIR id (`[A-Za-z0-9.-]{1,64}`); nil otherwise.
    public static func parseReference(_ text: String) -> FHIRSubject? {
        guard text.hasPrefix("Patient/") else { return nil }
        let id = text.dropFirst("Patient/".count)
        guard (1...64).contains(id.count),
              id.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                  || $0 == "-" || $0 == "." }) else { return nil }
        return .reference(text)
    }

    /// Parses `--subject-identifier`: `SYSTEM|VALUE`, both non-empty, split at the first `|`.
    public static func parseIdentifier(_ text: String) -> FHIRSubject? {
        guard let bar = text.firstIndex(of: "|") else { return nil }
        let system = String(text[..<bar]), value = String(text[text.index(after: bar)...])
        guard !system.isEmpty, !value.isEmpty else { return nil }
        return .identifier(system: system, value: value)
    }

    var json: JSONValue {
        switch self {
        case .reference(let r): return .object([("reference", .string(r))])
        case .identifier(let system, let value):
            return .object([("identifier", .object([("system", .string(system)), ("value", .string(value))]))])
        }
    }
}
