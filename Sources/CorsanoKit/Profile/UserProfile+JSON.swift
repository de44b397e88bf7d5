import Foundation

extension UserProfile {
    /// The profile as a JSON object with the field names of `--from` files and flags.
    public var json: JSONValue {
        .object([("height", .int(heightCm)), ("weight", .int(weightKg)), ("wrist", .string(wrist.rawValue)),
                 ("gender", .string(gender.rawValue)), ("unit", .string(unit.rawValue)),
                 ("birthdate", .string(birthdate)), ("skinTone", .int(skinTone)),
                 ("hairDensity", .string(hairDensity.rawValue))])
    }
}

extension ProfileDraft {
    /// Parses a `--from` file: one JSON object with `ProfileRules.fields` (integers for height,
    /// weight, skinTone; strings for the rest). Fields may be missing (flags can fill them).
    /// - Throws: `ProfileError.malformed` (not JSON, not an object), `.unknownField`, `.wrongType`.
    public static func parse(json data: [UInt8]) throws -> ProfileDraft {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(data), options: [])
        } catch {
            throw ProfileError.malformed("not valid JSON: \((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "syntax error")")
        }
        guard let members = object as? [String: Any] else {
            throw ProfileError.malformed("expected one JSON object with the profile fields")
        }
        var draft = ProfileDraft()
        // Sorted so the first bad field reported does not depend on dictionary order.
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            guard ProfileRules.fields.contains(key) else { throw ProfileError.unknownField(key) }
            let numeric = ["height", "weight", "skinTone"].contains(key)
            if numeric {
                guard let n = value as? NSNumber, !(value is Bool), !isFractional(n) else {
                    throw ProfileError.wrongType(field: key, expected: "an integer")
                }
                draft.set(key, n.stringValue)
            } else {
                guard let s = value as? String else { throw ProfileError.wrongType(field: key, expected: "a string") }
                draft.set(key, s)
            }
        }
        return draft
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

/// True when `n` holds a fractional value (3.5), which is not an integer field value.
private func isFractional(_ n: NSNumber) -> Bool {
    let d = n.doubleValue
    return d != d.rounded() || !d.isFinite || abs(d) > 1e15
}
