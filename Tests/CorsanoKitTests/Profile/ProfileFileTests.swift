import CorsanoKit
import Testing

@Suite struct ProfileFileTests {
    static func parse(_ text: String) throws -> ProfileDraft { try ProfileDraft.parse(json: Array(text.utf8)) }

    @Test func fieldsAreReadWithTheFlagNames() throws {
        let d = try Self.parse("""
            {"height":180,"weight":82,"wrist":"right","gender":"male","unit":"imperial",
             "birthdate":"1975-06-30","skinTone":5,"hairDensity":"high"}
            """)
        #expect(try d.validated(today: CalendarDate(year: 2026, month: 1, day: 1)) ==
                UserProfile(heightCm: 180, weightKg: 82, wrist: .right, gender: .male, unit: .imperial,
                            birthdate: "1975-06-30", skinTone: 5, hairDensity: .high))
    }

    /// 0 and 1 are numbers, not booleans (Linux bridges NSNumber 1 to Bool too).
    @Test func skinToneOneIsAnInteger() throws {
        #expect(try Self.parse(#"{"skinTone":1}"#).values == ["skinTone": "1"])
        #expect(throws: ProfileError.wrongType(field: "skinTone", expected: "an integer")) { try Self.parse(#"{"skinTone":false}"#) }
    }

    @Test func wireProfileIsCheckedLikeAFile() throws {
        let good: JSONValue = .object([("height", 178), ("weight", 74), ("wrist", "left"), ("gender", "male"),
                                       ("unit", "metric"), ("birthdate", "1980-04-12"), ("skinTone", 3), ("hairDensity", "low")])
        #expect(try UserProfile(json: good) == UserProfile(heightCm: 178, weightKg: 74, wrist: .left, gender: .male,
                                                           unit: .metric, birthdate: "1980-04-12", skinTone: 3, hairDensity: .low))
        #expect(throws: ProfileError.unknownField("heightCm")) { try UserProfile(json: .object([("heightCm", 178)])) }
        #expect(throws: ProfileError.missing(field: "weight")) { try UserProfile(json: .object([("height", 178)])) }
        #expect(throws: ProfileError.invalid(field: "height", value: "20", expected: "an integer from 50 to 250 cm")) {
            try UserProfile(json: .object([("height", 20)]))
        }
    }

    @Test func partialFileLeavesOtherFieldsUnset() throws {
        #expect(try Self.parse(#"{"height":180}"#).values == ["height": "180"])
    }

    @Test(arguments: [
        (#"{"height":"tall"}"#, ProfileError.wrongType(field: "height", expected: "an integer")),
        (#"{"height":180.5}"#, ProfileError.wrongType(field: "height", expected: "an integer")),
        (#"{"skinTone":true}"#, ProfileError.wrongType(field: "skinTone", expected: "an integer")),
        (#"{"wrist":1}"#, ProfileError.wrongType(field: "wrist", expected: "a string")),
        (#"{"skin_tone":3}"#, ProfileError.unknownField("skin_tone")),
        (#"[1,2]"#, ProfileError.malformed("expected one JSON object with the profile fields")),
    ])
    func malformedFileNamesTheField(_ text: String, _ expected: ProfileError) {
        #expect(throws: expected) { try Self.parse(text) }
    }

    @Test func syntaxErrorIsMalformed() {
        do {
            _ = try Self.parse(#"{"height": 180,"#)
            Issue.record("parsed a truncated object")
        } catch let e as ProfileError {
            guard case .malformed = e else { Issue.record("expected malformed, got \(e)"); return }
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func lineOfAFieldForMessages() {
        let text = Array("{\n  \"height\": 180,\n  \"weight\": 1000\n}\n".utf8)
        #expect(ProfileDraft.line(of: "weight", in: text) == 3)
        #expect(ProfileDraft.line(of: "height", in: text) == 2)
        #expect(ProfileDraft.line(of: "gender", in: text) == nil)
    }

    @Test func profileJSONUsesTheSameNames() {
        let p = UserProfile(heightCm: 172, weightKg: 68, wrist: .left, gender: .female, unit: .metric,
                            birthdate: "1990-04-01", skinTone: 3, hairDensity: .low)
        #expect(p.json.serialized == #"{"height":172,"weight":68,"wrist":"left","gender":"female","unit":"metric","birthdate":"1990-04-01","skinTone":3,"hairDensity":"low"}"#)
    }
}
