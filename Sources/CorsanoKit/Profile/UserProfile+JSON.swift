import Foundation

/// The one JSON shape of a user profile, used by `profile push --from`, scenario files, the
/// bridge protocol's `pushProfile`/`readProfile`, and the `profile` event: the flag names
/// `height` (cm), `weight` (kg), `wrist`, `gender`, `unit`, `birthdate`, `skinTone`,
/// `hairDensity` (`ProfileRules.fields`), integers for the first two and `skinTone`, strings
/// for the rest.
extension UserProfile {
    /// The profile as a JSON object, members in `ProfileRules.fields` order.
    public var json: JSONValue {
        .object([("height", .int(heightCm)), ("weight", .int(weightKg)), ("wrist", .string(wrist.rawValue)),
                 ("gender", .string(gender.rawValue)), ("unit", .string(unit.rawValue)),
                 ("birthdate", .string(birthdate)), ("skinTone", .int(skinTone)),
                 ("hairDensity", .string(hairDensity.rawValue))])
    }

    /// Reads a complete profile object (a scenario's `profile`, a bridge message's), every field
    /// checked against `ProfileRules` except "not in the future" (no caller's today here).
    /// - Throws: `ProfileError` naming the first bad field.
    public init(json: JSONValue) throws(ProfileError) {
        guard case .object(let members) = json else {
            throw .malformed("expected one JSON object with the profile fields")
        }
        self = try ProfileDraft(jsonMembers: members).validated(today: nil)
    }
}

extension ProfileDraft {
    /// A draft from the members of one profile object; fields may be missing (flags can fill them).
    /// - Throws: `ProfileError.unknownField`, `.wrongType`.
    public init(jsonMembers members: [(String, JSONValue)]) throws(ProfileError) {
        self.init()
        // Sorted so the first bad field reported does not depend on member order.
        for (key, value) in members.sorted(by: { $0.0 < $1.0 }) {
            guard ProfileRules.fields.contains(key) else { throw .unknownField(key) }
            switch (ProfileRules.integerFields.contains(key), value) {
            case (true, .int(let n)): set(key, String(n))
            case (true, _): throw .wrongType(field: key, expected: "an integer")
            case (false, .string(let s)): set(key, s)
            case (false, _): throw .wrongType(field: key, expected: "a string")
            }
        }
    }

    /// Parses a `--from` file: one profile JSON object (see `UserProfile.json`).
    /// - Throws: `ProfileError.malformed` (not JSON, not an object), `.unknownField`, `.wrongType`.
    public static func parse(json data: [UInt8]) throws -> ProfileDraft {
        let object: JSONValue
        do {
            object = try JSONValue.parse(data)
        } catch {
            throw ProfileError.malformed("not valid JSON: \(error.message)")
        }
        guard case .object(let members) = object else {
            throw ProfileError.malformed("expected one JSON object with the profile fields")
        }
        return try ProfileDraft(jsonMembers: members.map { ($0.0, scalar($0.1)) })
    }

    /// A value as far as the profile cares: integer (up to 10^15), string, or another kind.
    private static func scalar(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string, .bool, .double: return value
        case .int(let i): return i.magnitude <= 1_000_000_000_000_000 ? value : .double(Double(i))
        default: return .null
        }
    }

    /// The 1-based line of `field`'s key in `text`, for error messages; nil when not found.
    public static func line(of field: String, in text: [UInt8]) -> Int? {
        let needle = Array("\"\(field)\"".utf8)
        guard needle.count <= text.count else { return nil }
        var line = 1
        for i in 0...(text.count - needle.count) {
            if text[i] == UInt8(ascii: "\n") { line += 1 }
            if text[i] == needle[0], Array(text[i..<(i + needle.count)]) == needle { return line }
        }
        return nil
    }
}
