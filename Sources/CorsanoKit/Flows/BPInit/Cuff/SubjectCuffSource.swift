/// A cuff source whose readings are stamped with a study participant (`bp-init --subject-id`,
/// issue 33), so the measurement events and the audit log record whose readings calibrated the
/// bracelet. Everything else passes as the inner source yields it.
public struct SubjectCuffSource: CuffSource {
    /// The source stamped.
    public let inner: any CuffSource
    /// The participant (the reading line's `subject`).
    public let subject: String

    /// Stamps `inner`'s readings with `subject`.
    public init(_ inner: any CuffSource, subject: String) {
        self.inner = inner
        self.subject = subject
    }

    public func next(for request: CuffRequest) async throws -> CuffItem {
        let item = try await inner.next(for: request)
        if case .reading(let reading) = item { return .reading(reading.withSubject(subject)) }
        return item
    }
}
