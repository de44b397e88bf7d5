/// The user profile a bracelet needs before calibration (SDK `UserProfileApi`).
///
/// Height in cm, weight in kg, birthdate as a calendar date `YYYY-MM-DD`, skin tone on the
/// Fitzpatrick scale I-VI (1-6). Source: seeds/wearing-optimization.txt ("Requirements").
public struct UserProfile: Equatable, Sendable {
    public var heightCm: Int
    public var weightKg: Int
    public var wrist: Wrist
    public var gender: Gender
    public var unit: UnitPreference
    /// `YYYY-MM-DD`.
    public var birthdate: String
    /// Fitzpatrick skin type 1-6.
    public var skinTone: Int
    public var hairDensity: HairDensity

    /// Creates a profile (unvalidated).
    public init(heightCm: Int, weightKg: Int, wrist: Wrist, gender: Gender, unit: UnitPreference,
                birthdate: String, skinTone: Int, hairDensity: HairDensity) {
        self.heightCm = heightCm
        self.weightKg = weightKg
        self.wrist = wrist
        self.gender = gender
        self.unit = unit
        self.birthdate = birthdate
        self.skinTone = skinTone
        self.hairDensity = hairDensity
    }

    public enum Wrist: String, CaseIterable, Sendable { case left, right }
    public enum Gender: String, CaseIterable, Sendable { case female, male, other }
    public enum UnitPreference: String, CaseIterable, Sendable { case metric, imperial }
    public enum HairDensity: String, CaseIterable, Sendable { case none, low, medium, high }
}
