/// A scenario's `profile` (the profile the simulated bracelet already holds), in the one
/// profile JSON shape of `UserProfile.json`: `height`, `weight`, `wrist`, `gender`, `unit`,
/// `birthdate`, `skinTone`, `hairDensity` — so a scenario's block can be pushed as is.
///
/// A separate wrapper so the profile type itself stays free of Codable.
public struct ScenarioProfile: Codable, Equatable, Sendable {
    /// The profile carried.
    public var profile: UserProfile

    /// Wraps `profile`.
    public init(_ profile: UserProfile) { self.profile = profile }

    /// - Throws: `DecodingError` naming `profile.FIELD` (missing, wrong type, out of range).
    public init(from decoder: any Decoder) throws {
        do {
            profile = try UserProfile(json: try DecodedJSON(from: decoder).value)
        } catch let error as ProfileError {
            guard let field = error.field else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.detail))
            }
            let key = DecodedJSON.AnyKey(stringValue: field)
            if case .missing = error {
                throw DecodingError.keyNotFound(key, .init(codingPath: decoder.codingPath, debugDescription: "missing"))
            }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath + [key], debugDescription: error.detail))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        guard case .object(let members) = profile.json else { return }
        var c = encoder.container(keyedBy: DecodedJSON.AnyKey.self)
        for (name, value) in members {
            let key = DecodedJSON.AnyKey(stringValue: name)
            switch value {
            case .int(let n): try c.encode(n, forKey: key)
            case .string(let s): try c.encode(s, forKey: key)
            default: break  // `UserProfile.json` holds only integers and strings
            }
        }
    }
}
