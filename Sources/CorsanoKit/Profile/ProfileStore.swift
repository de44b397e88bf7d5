/// The last profile pushed to (or verified on) each bracelet, by serial, in the state store.
///
/// `wearing-opt --no-preparation` pushes it for the user (seed: "Configuration"); `profile push`
/// and the preparation phase record it. Table `pushed_profile` (StoreSchema migration 4).
public struct ProfileStore: Sendable {
    public let store: StateStore

    /// Wraps an open state store.
    public init(store: StateStore) { self.store = store }

    /// Records `profile` as the last one on bracelet `serial`, at `at`. - Throws: `StoreError`.
    public func save(_ profile: UserProfile, serial: String, at: Instant) throws {
        try store.prepare("""
            INSERT INTO pushed_profile (serial, height, weight, wrist, gender, unit, birthdate, skin_tone,
                                        hair_density, pushed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (serial) DO UPDATE SET height = excluded.height, weight = excluded.weight,
                wrist = excluded.wrist, gender = excluded.gender, unit = excluded.unit,
                birthdate = excluded.birthdate, skin_tone = excluded.skin_tone,
                hair_density = excluded.hair_density, pushed_at = excluded.pushed_at
            """).run([
                .text(serial), .int(Int64(profile.heightCm)), .int(Int64(profile.weightKg)),
                .text(profile.wrist.rawValue), .text(profile.gender.rawValue), .text(profile.unit.rawValue),
                .text(profile.birthdate), .int(Int64(profile.skinTone)), .text(profile.hairDensity.rawValue),
                .text(RFC3339.format(at)),
            ])
    }

    /// The last profile recorded for bracelet `serial`, nil when none.
    /// - Throws: `StoreError` (`.corrupt` when a stored value is not a known one).
    public func load(serial: String) throws -> UserProfile? {
        let rows = try store.prepare("""
            SELECT height, weight, wrist, gender, unit, birthdate, skin_tone, hair_density
            FROM pushed_profile WHERE serial = ?
            """).rows([.text(serial)])
        guard let row = rows.first else { return nil }
        guard row.count == 8, let height = row[0].int, let weight = row[1].int, let skin = row[6].int,
              let wrist = row[2].text.flatMap(UserProfile.Wrist.init(rawValue:)),
              let gender = row[3].text.flatMap(UserProfile.Gender.init(rawValue:)),
              let unit = row[4].text.flatMap(UserProfile.UnitPreference.init(rawValue:)),
              let birthdate = row[5].text,
              let hair = row[7].text.flatMap(UserProfile.HairDensity.init(rawValue:)),
              let h = Int(exactly: height), let w = Int(exactly: weight), let s = Int(exactly: skin) else {
            throw StoreError.corrupt(path: store.path, message: "pushed_profile row for \(serial) is unreadable")
        }
        return UserProfile(heightCm: h, weightKg: w, wrist: wrist, gender: gender, unit: unit,
                           birthdate: birthdate, skinTone: s, hairDensity: hair)
    }
}
