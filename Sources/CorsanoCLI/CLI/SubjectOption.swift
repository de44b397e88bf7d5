import CorsanoKit

/// `--subject-id ID`: the study participant a command's readings belong to.
enum SubjectOption {
    /// The value, checked by the core's rule; nil when not given. - Throws: `UsageError` naming the option.
    static func value(_ args: ParsedCommand) throws -> String? {
        guard let id = args.string(.subjectId) else { return nil }
        if let problem = SubjectID.problem(id) {
            throw UsageError.badValue(option: "subject-id", value: id, expected: "a participant's name (\(problem) is not one)")
        }
        return id
    }
    /// The value's check as a table rule: a bad `--subject-id` is 64 before any input opens.
    static let rule = OptionRule.check { _ = try value($0) }
}
