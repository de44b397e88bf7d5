/// What a reading's own cuff said about its measurement: the reading line's `status` object
/// (`bodyMovement`, `cuffTooLoose`, `irregularPulse`, `pulseRateRange`, `improperPosition`), as
/// `cuff ingest --from ble` writes the Blood Pressure Measurement's Measurement Status
/// (`MeasurementStatus`; Bluetooth GATT Specification Supplement, 0x2A35/0x2B34) and the CSV
/// layouts that carry such columns (docs/design.md "Cuff input formats").
///
/// A reading without `status` is `unknown`, never `clean`: its cuff said nothing.
public enum ReadingQuality: Equatable, Sendable {
    /// No `status` on the reading.
    case unknown
    /// A `status` with no flag set.
    case clean
    /// The flags set, by name (`bodyMovement`, `pulseRateRange`, …), in the order above.
    case flagged([String])

    /// The flag fields of `status`, in order; each is true when set.
    public static let flagFields = ["bodyMovement", "cuffTooLoose", "irregularPulse", "improperPosition"]
    /// `pulseRateRange`'s value when the pulse was in range (any other value is a flag).
    public static let pulseInRange = MeasurementStatus.PulseRateRange.withinRange.name

    /// The quality of `reading`.
    /// - Throws: `ReadingLineError.invalidField("status", …)` when `status` is not an object or a
    ///   member has the wrong type (never guessed as clean).
    public init(_ reading: CuffReading) throws(ReadingLineError) {
        guard let field = reading.provenance.first(where: { $0.name == "status" }) else { self = .unknown; return }
        guard case .object(let members)? = try? JSONValue.parse(Array(field.rawJSON.utf8)) else {
            throw .invalidField("status", "not an object")
        }
        var flags: [String] = []
        for name in Self.flagFields + ["pulseRateRange"] {
            guard let value = members.first(where: { $0.0 == name })?.1, value != .null else { continue }
            if name == "pulseRateRange" {
                guard case .string(let range) = value else { throw .invalidField("status", "pulseRateRange: not a string") }
                if range != Self.pulseInRange { flags.append(name) }
            } else {
                guard case .bool(let set) = value else { throw .invalidField("status", "\(name): not true or false") }
                if set { flags.append(name) }
            }
        }
        self = flags.isEmpty ? .clean : .flagged(flags)
    }

    /// The flags set (empty for `unknown` and `clean`).
    public var flags: [String] {
        if case .flagged(let f) = self { return f }
        return []
    }
}
