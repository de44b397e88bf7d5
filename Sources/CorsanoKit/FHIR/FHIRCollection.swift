/// Exported resources in first-seen order with duplicates (the same identity twice: a cuff, a
/// bracelet, a gateway shared by several readings or runs) kept once.
public struct FHIRCollection: Sendable {
    public private(set) var resources: [FHIRResource] = []
    private var seen: Set<FHIRIdentity> = []

    /// An empty collection.
    public init() {}

    /// Adds `resource` unless one with its identity is already held; true when added.
    @discardableResult
    public mutating func add(_ resource: FHIRResource) -> Bool {
        guard seen.insert(resource.identity).inserted else { return false }
        resources.append(resource)
        return true
    }

    /// Every resource type an export can hold.
    public static let exportedTypes = ["Device", "Observation", "Procedure", "Provenance"]

    /// The resource types present, in the order first met.
    public var resourceTypes: [String] {
        var types: [String] = []
        for r in resources where !types.contains(r.resourceType) { types.append(r.resourceType) }
        return types
    }

    /// One transaction Bundle: each entry a conditional create (`If-None-Exist` on its identifier),
    /// so posting it twice creates nothing new. Use with `.bundleURN` references.
    public var transactionBundle: JSONValue {
        .object([
            ("resourceType", .string("Bundle")),
            ("type", .string("transaction")),
            ("entry", .array(resources.map { r in
                .object([
                    ("fullUrl", .string(r.identity.urn)),
                    ("resource", r.json),
                    ("request", .object([("method", .string("POST")), ("url", .string(r.resourceType)),
                                         ("ifNoneExist", .string(r.identity.ifNoneExist))])),
                ])
            })),
        ])
    }

    /// The Bulk Data export manifest (FHIR Bulk Data Access IG, "Response - Complete Status") for
    /// files `TYPE.ndjson` at `url(type)`, at `transactionTime` (RFC 3339), for `request`.
    public func bulkManifest(transactionTime: Instant, request: String, url: (String) -> String) -> JSONValue {
        .object([
            ("transactionTime", .string(RFC3339.format(transactionTime))),
            ("request", .string(request)),
            ("requiresAccessToken", .bool(false)),
            ("output", .array(resourceTypes.map { type in
                .object([("type", .string(type)), ("url", .string(url(type))),
                         ("count", .int(resources.count { $0.resourceType == type }))])
            })),
            ("error", .array([])),
        ])
    }
}
