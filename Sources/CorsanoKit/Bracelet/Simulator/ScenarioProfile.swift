/// A `UserProfile` as JSON (scenario files and bridge messages), with the same field names:
/// `heightCm`, `weightKg`, `wrist`, `gender`, `unit`, `birthdate`, `skinTone`, `hairDensity`.
///
/// A separate wrapper so the profile type itself stays free of one wire format.
public struct ScenarioProfile: Codable, Equatable, Sendable {
    /// The profile carried.
    public var profile: UserProfile

    /// Wraps `profile`.
    public init(_ profile: UserProfile) { self.profile = profile }

    enum CodingKeys: String, CodingKey {
        case heightCm, weightKg, wrist, gender, unit, birthdate, skinTone, hairDensity
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func choice<T: RawRepresentable>(_ key: CodingKeys, _: T.Type) throws -> T where T.RawValue == String {
            let raw = try c.decode(String.self, forKey: key)
            guard let value = T(rawValue: raw) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "unknown value '\(raw)'")
            }
            return value
        }
        profile = UserProfile(
            heightCm: try c.decode(Int.self, forKey: .heightCm), weightKg: try c.decode(Int.self, forKey: .weightKg),
            wrist: try choice(.wrist, UserProfile.Wrist.self), gender: try choice(.gender, UserProfile.Gender.self),
            unit: try choice(.unit, UserProfile.UnitPreference.self), birthdate: try c.decode(String.self, forKey: .birthdate),
            skinTone: try c.decode(Int.self, forKey: .skinTone),
            hairDensity: try choice(.hairDensity, UserProfile.HairDensity.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(profile.heightCm, forKey: .heightCm)
        try c.encode(profile.weightKg, forKey: .weightKg)
        try c.encode(profile.wrist.rawValue, forKey: .wrist)
        try c.encode(profile.gender.rawValue, forKey: .gender)
        try c.encode(profile.unit.rawValue, forKey: .unit)
        try c.encode(profile.birthdate, forKey: .birthdate)
        try c.encode(profile.skinTone, forKey: .skinTone)
        try c.encode(profile.hairDensity.rawValue, forKey: .hairDensity)
    }
}
