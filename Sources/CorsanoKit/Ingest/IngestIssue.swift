/// Why one input record could not become a reading; the text names the field
/// (`systolic: not a number (SFLOAT NaN)`) and is printed after `FILE:LINE: `.
public struct IngestIssue: Error, Equatable, Sendable {
    /// `field: what is wrong`.
    public var reason: String

    /// Creates an issue with its reason text.
    public init(_ reason: String) { self.reason = reason }
}
