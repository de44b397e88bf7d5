/// A user profile as given (flags, a `--from` file), every field still optional and unchecked.
///
/// Values are kept as text so a bad one can be quoted back in the error; `validated(today:)`
/// turns the draft into a `UserProfile` under `ProfileRules`.
public struct ProfileDraft: Equatable, Sendable {
    /// Raw values by JSON field name (`height`, `skinTone`, ...).
    public var values: [String: String] = [:]

    /// Creates an empty draft.
    public init() {}

    /// Sets `field` to `value` (a later source overrides an earlier one).
    public mutating func set(_ field: String, _ value: String) { values[field] = value }

    /// Every field of `other` that is set, applied over this draft.
    public func merging(_ other: ProfileDraft) -> ProfileDraft {
        var out = self
        out.values.merge(other.values) { _, new in new }
        return out
    }

    /// The fields not given, in `ProfileRules.fields` order (to name all of them at once).
    public var missingFields: [String] { ProfileRules.fields.filter { values[$0] == nil } }

    /// Every problem of the draft, one per field, in `ProfileRules.fields` order: missing fields
    /// and bad values alike, so a caller can name them all at once.
    public func problems(today: CalendarDate?) -> [ProfileError] { checked(today: today).problems }

    /// The profile, every field checked against `ProfileRules`; `today` is the caller's date
    /// (the core never reads the wall clock), nil to skip the "not in the future" check (a
    /// profile read from a scenario or the bridge, which has no today of its own).
    /// - Throws: `ProfileError.missing` or `.invalid`, naming the first bad field in
    ///   `ProfileRules.fields` order (`problems(today:)` lists them all).
    public func validated(today: CalendarDate?) throws(ProfileError) -> UserProfile {
        let (profile, problems) = checked(today: today)
        guard let profile else { throw problems[0] }
        return profile
    }

    /// Each field checked on its own: the profile when all pass, else every problem.
    private func checked(today: CalendarDate?) -> (profile: UserProfile?, problems: [ProfileError]) {
        var problems: [ProfileError] = []
        func field<T>(_ check: () throws(ProfileError) -> T) -> T? {
            do { return try check() } catch { problems.append(error); return nil }
        }
        let height = field { () throws(ProfileError) in try integer("height", ProfileRules.heightCm, unit: " cm") }
        let weight = field { () throws(ProfileError) in try integer("weight", ProfileRules.weightKg, unit: " kg") }
        let wrist = field { () throws(ProfileError) -> UserProfile.Wrist in try choice("wrist") }
        let gender = field { () throws(ProfileError) -> UserProfile.Gender in try choice("gender") }
        let unit = field { () throws(ProfileError) -> UserProfile.UnitPreference in try choice("unit") }
        let birthdate = field { () throws(ProfileError) in try date("birthdate", today: today) }
        let skinTone = field { () throws(ProfileError) in try integer("skinTone", ProfileRules.skinTone, unit: " (Fitzpatrick I-VI)") }
        let hair = field { () throws(ProfileError) -> UserProfile.HairDensity in try choice("hairDensity") }
        guard let height, let weight, let wrist, let gender, let unit, let birthdate, let skinTone, let hair else {
            return (nil, problems)
        }
        return (UserProfile(heightCm: height, weightKg: weight, wrist: wrist, gender: gender, unit: unit,
                            birthdate: birthdate.description, skinTone: skinTone, hairDensity: hair), [])
    }

    private func raw(_ field: String) throws(ProfileError) -> String {
        guard let value = values[field] else { throw ProfileError.missing(field: field) }
        return value
    }

    private func integer(_ field: String, _ range: ClosedRange<Int>, unit: String) throws(ProfileError) -> Int {
        let text = try raw(field)
        guard let v = Int(text), range.contains(v) else {
            throw ProfileError.invalid(field: field, value: text,
                                       expected: "an integer from \(range.lowerBound) to \(range.upperBound)\(unit)")
        }
        return v
    }

    private func choice<T: RawRepresentable & CaseIterable>(_ field: String) throws(ProfileError) -> T where T.RawValue == String {
        let text = try raw(field)
        guard let v = T(rawValue: text) else {
            throw ProfileError.invalid(field: field, value: text,
                                       expected: "one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return v
    }

    private func date(_ field: String, today: CalendarDate?) throws(ProfileError) -> CalendarDate {
        let text = try raw(field)
        guard let d = CalendarDate.parse(text) else {
            throw ProfileError.invalid(field: field, value: text, expected: "a date YYYY-MM-DD")
        }
        guard let today else {
            guard d >= ProfileRules.earliestBirthdate else {
                throw ProfileError.invalid(field: field, value: text, expected: "a date from \(ProfileRules.earliestBirthdate)")
            }
            return d
        }
        guard d >= ProfileRules.earliestBirthdate, d <= today else {
            throw ProfileError.invalid(field: field, value: text,
                                       expected: "a date from \(ProfileRules.earliestBirthdate) to today (\(today)), not in the future")
        }
        return d
    }
}

/// Why a profile was refused; every case names the field (JSON spelling).
public enum ProfileError: Error, Equatable, Sendable {
    /// A required field was not given.
    case missing(field: String)
    /// A value outside its stated range or set.
    case invalid(field: String, value: String, expected: String)
    /// A `--from` file that is not one JSON object; with why.
    case malformed(String)
    /// A field name the profile does not have (a typo such as `skin_tone`).
    case unknownField(String)
    /// A field of the wrong JSON type (`"height": "tall"`).
    case wrongType(field: String, expected: String)

    /// The field at fault, when one is.
    public var field: String? {
        switch self {
        case .missing(let f), .invalid(let f, _, _), .unknownField(let f), .wrongType(let f, _): return f
        case .malformed: return nil
        }
    }

    /// What is wrong, naming the field as `name` (JSON `height` or flag `--height`).
    public func message(naming name: String) -> String {
        switch self {
        case .missing: return "\(name) is required"
        case .malformed(let why): return why
        case .invalid, .unknownField, .wrongType: return "\(name): \(detail)"
        }
    }

    /// What is wrong, without the field's name (`bad value '0': expected ...`, `missing`).
    public var detail: String {
        switch self {
        case .missing: return "missing"
        case .invalid(_, let value, let expected): return "bad value '\(value)': expected \(expected)"
        case .malformed(let why): return why
        case .unknownField: return "unknown field; expected one of " + ProfileRules.fields.joined(separator: ", ")
        case .wrongType(_, let expected): return "expected \(expected)"
        }
    }
}
