/// Why one input record could not become a reading; the text names the field
/// (`systolic: not a number (SFLOAT NaN)`) and is printed after `FILE:LINE: `.
public struct IngestIssue: Error, Equatable, Sendable {
    /// `field: what is wrong`.
    public var reason: String
    /// The field at fault, when the code that found the issue knows it (the `field` of a
    /// `--rejects` record).
    public var field: String?

    /// Creates an issue with its reason text.
    public init(_ reason: String, field: String? = nil) {
        self.reason = reason
        self.field = field
    }
}
