import CorsanoKit
import Testing

@Suite struct ProfileValidationTests {
    static let today = CalendarDate(year: 2026, month: 11, day: 29)

    static func draft(_ overrides: [String: String] = [:]) -> ProfileDraft {
        var d = ProfileDraft()
        let base = ["height": "172", "weight": "68", "wrist": "left", "gender": "female", "unit": "metric",
                    "birthdate": "1990-04-01", "skinTone": "3", "hairDensity": "low"]
        for (k, v) in base.merging(overrides, uniquingKeysWith: { $1 }) { d.set(k, v) }
        return d
    }

    /// Every problem at once, missing and bad alike, in field order (point 3).
    @Test func problemsListsEveryFieldAtOnce() {
        var d = ProfileDraft()
        d.set("weight", "1000")
        d.set("unit", "metric")
        d.set("skinTone", "9")
        let problems = d.problems(today: Self.today)
        #expect(problems.map(\.field) == ["height", "weight", "wrist", "gender", "birthdate", "skinTone", "hairDensity"])
        #expect(problems.filter { if case .missing = $0 { true } else { false } }.count == 5)
        #expect(d.missingFields == ["height", "wrist", "gender", "birthdate", "hairDensity"])
        #expect(Self.draft().problems(today: Self.today).isEmpty)
    }

    @Test func validDraftBecomesProfile() throws {
        let p = try Self.draft().validated(today: Self.today)
        #expect(p == UserProfile(heightCm: 172, weightKg: 68, wrist: .left, gender: .female, unit: .metric,
                                 birthdate: "1990-04-01", skinTone: 3, hairDensity: .low))
    }

    @Test(arguments: [
        ("height", "0"), ("height", "49"), ("height", "251"), ("height", "tall"),
        ("weight", "1000"), ("weight", "19"), ("weight", "70.5"),
        ("skinTone", "0"), ("skinTone", "7"),
        ("wrist", "middle"), ("gender", "x"), ("unit", "furlongs"), ("hairDensity", "thick"),
        ("birthdate", "2026-11-30"), ("birthdate", "2030-01-01"), ("birthdate", "1899-12-31"),
        ("birthdate", "1990-02-30"), ("birthdate", "90-02-03"), ("birthdate", "1990-2-3"),
    ])
    func badValueIsRefusedNamingTheField(_ field: String, _ value: String) {
        #expect(throws: ProfileError.self) { try Self.draft([field: value]).validated(today: Self.today) }
        do {
            _ = try Self.draft([field: value]).validated(today: Self.today)
        } catch let e as ProfileError {
            #expect(e.field == field)
            guard case .invalid(_, let v, _) = e else { Issue.record("expected invalid, got \(e)"); return }
            #expect(v == value)
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test(arguments: [("height", "50"), ("height", "250"), ("weight", "20"), ("weight", "300"),
                      ("skinTone", "1"), ("skinTone", "6"), ("birthdate", "2026-11-29"), ("birthdate", "1900-01-01"),
                      ("birthdate", "2024-02-29")])
    func boundsAreAccepted(_ field: String, _ value: String) throws {
        _ = try Self.draft([field: value]).validated(today: Self.today)
    }

    @Test func missingFieldIsNamed() {
        var d = Self.draft()
        d.values["weight"] = nil
        #expect(throws: ProfileError.missing(field: "weight")) { try d.validated(today: Self.today) }
    }

    @Test func futureBirthdateMessageSaysNotInTheFuture() {
        #expect(throws: ProfileError.invalid(field: "birthdate", value: "2027-01-01",
                                             expected: "a date from 1900-01-01 to today (2026-11-29), not in the future")) {
            try Self.draft(["birthdate": "2027-01-01"]).validated(today: Self.today)
        }
    }

    @Test func todayIsTheUTCDateOfTheCallersInstant() throws {
        let late = try #require(RFC3339.parseInstant("2026-11-29T23:59:59-05:00"))
        #expect(CalendarDate(utcDateOf: late) == CalendarDate(year: 2026, month: 11, day: 30))
        let before1970 = try #require(RFC3339.parseInstant("1969-12-31T23:00:00Z"))
        #expect(CalendarDate(utcDateOf: before1970) == CalendarDate(year: 1969, month: 12, day: 31))
    }

    @Test func flagNamesOfFields() {
        #expect(ProfileRules.fields.map(ProfileRules.flagName) ==
                ["height", "weight", "wrist", "gender", "unit", "birthdate", "skin-tone", "hair-density"])
    }
}
