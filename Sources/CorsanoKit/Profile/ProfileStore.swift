/// The last profile pushed to (or verified on) each bracelet, by serial, in the state store.
///
/// `wearing-opt --no-preparation` pushes it for the user (seed: "Configuration"); `profile push`
/// and the preparation phase record it. Table `pushed_profile` (StoreSchema migration 4).
public struct ProfileStore: Sendable {
    public let store: any StateStore

    /// Wraps an open state store.
    public init(store: any StateStore) { self.store = store }

    /// Records `profile` as the last one on bracelet `serial`, at `at`. - Throws: `StoreError`.
    public func save(_ profile: UserProfile, serial: String, at: Instant) throws {
        try store.profileSave(profile, serial: serial, pushedAt: RFC3339.format(at), onlyIfAbsent: false)
    }

    /// The `ON CONFLICT (serial)` action of a profile insert, the same in both engines' SQL:
    /// replace the older profile, or keep it (`state migrate`).
    static func conflictClause(onlyIfAbsent: Bool) -> String {
        onlyIfAbsent ? "DO NOTHING" : """
            DO UPDATE SET height = excluded.height, weight = excluded.weight, wrist = excluded.wrist,
                gender = excluded.gender, unit = excluded.unit, birthdate = excluded.birthdate,
                skin_tone = excluded.skin_tone, hair_density = excluded.hair_density, pushed_at = excluded.pushed_at
            """
    }

    /// The last profile recorded for bracelet `serial`, nil when none.
    /// - Throws: `StoreError` (`.corrupt` when a stored value is not a known one).
    public func load(serial: String) throws -> UserProfile? {
        try store.profileLoad(serial: serial)
    }
}

extension UserProfile {
    /// A profile from stored columns (height, weight, wrist, gender, unit, birthdate, skin tone,
    /// hair density), nil when a value is not a known one.
    static func fromColumns(height: Int64?, weight: Int64?, wrist: String?, gender: String?, unit: String?,
                            birthdate: String?, skinTone: Int64?, hairDensity: String?) -> UserProfile? {
        guard let height, let weight, let skinTone, let birthdate,
              let wrist = wrist.flatMap(UserProfile.Wrist.init(rawValue:)),
              let gender = gender.flatMap(UserProfile.Gender.init(rawValue:)),
              let unit = unit.flatMap(UserProfile.UnitPreference.init(rawValue:)),
              let hair = hairDensity.flatMap(UserProfile.HairDensity.init(rawValue:)),
              let h = Int(exactly: height), let w = Int(exactly: weight), let s = Int(exactly: skinTone) else { return nil }
        return UserProfile(heightCm: h, weightKg: w, wrist: wrist, gender: gender, unit: unit,
                           birthdate: birthdate, skinTone: s, hairDensity: hair)
    }
}
