import CorsanoKit
import Foundation
import Testing

@Suite struct ScenarioTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func emptyObjectIsTheHealthyDefault() throws {
        let s = try Scenario.decode(Data("{}".utf8), source: "t.json")
        #expect(s == Scenario())
        #expect(s.model == "287-2")
        #expect(s.firmware == "7.4")
        #expect(s.plan == "monitoring")
        #expect(s.wearing.model.strapFit == .good)
        #expect(s.faults == FaultScenario())
    }

    @Test func shippedExampleDecodes() throws {
        let s = try Scenario.load(path: Self.root.appendingPathComponent("examples/scenario.json").path)
        #expect(s.serial == "SIM-287-0042")
        #expect(s.profile?.profile.heightCm == 178)
        #expect(s.profile?.profile.hairDensity == .low)
        #expect(s.nibp.attempts == [NIBPAttemptScript(measurements: [true, false], session: false),
                                    NIBPAttemptScript(measurements: [true, true, nil], session: nil)])
        #expect(s.wearing.model == WearingModel(strapFit: .good, movement: .some))
        #expect(s.wearing.attempts.count == 2)
        #expect(s.wearing.attempts[1].polls?[1] == WearingPoll(timeout: true))
        #expect(s.faults.holdAtStep == HoldPoint(flow: "bp-init", step: "measuring", occurrence: 2, seconds: 2))
        #expect(s.faults.pollTimeoutFrom == PollPoint(attempt: 3, poll: 4))
    }

    @Test(arguments: [
        (#"{"wearing":{"model":{"strapFit":"baggy"}}}"#, "field wearing.model.strapFit"),
        (#"{"faults":{"holdAtStep":{"flow":"bp-init"}}}"#, "field faults.holdAtStep.step: missing"),
        (#"{"nibp":{"attempts":[{"measurements":[true,"yes"]}]}}"#, "field nibp.attempts[0].measurements[1]"),
        (#"{"wearing":{"model":{"skinTone":9}}}"#, "field wearing.model.skinTone"),
        (#"{"profile":{"height":170}}"#, "field profile.weight: missing"),
        (#"{"profile":{"heightCm":170}}"#, "field profile.heightCm: unknown field; expected one of height, weight, wrist, gender, unit, birthdate, skinTone, hairDensity"),
        (#"{"profile":{"height":170,"weight":1000,"wrist":"left","gender":"male","unit":"metric","birthdate":"1980-04-12","skinTone":3,"hairDensity":"low"}}"#,
         "field profile.weight: bad value '1000': expected an integer from 20 to 300 kg"),
        (#"{"profile":{"height":"tall"}}"#, "field profile.height: expected an integer"),
        (#"{"model": 287"#, "not valid JSON"),
        (#"{"faults":{"holdAtstep":{"step":"measuring"}}}"#, "field faults.holdAtstep: unknown field"),
        (#"{"wearing":{"attempts":[{"polls":[{"percent":5},{"quality":3,"sucess":true}]}]}}"#,
         "field wearing.attempts[0].polls[1].sucess: unknown field"),
        (#"{"serial":"A","colour":"red"}"#, "field colour: unknown field"),
    ])
    func badScenariosNameTheField(json: String, expected: String) {
        do {
            _ = try Scenario.decode(Data(json.utf8), source: "bad.json")
            Issue.record("decoded \(json)")
        } catch let ScenarioError.invalid(source, message) {
            #expect(source == "bad.json")
            #expect(message.hasPrefix(expected), "\(message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    /// One profile shape: the shipped scenario's `profile` block is a valid `profile push
    /// --from` file, and reads as the same profile both ways.
    @Test func shippedScenarioProfileBlockIsAProfileFromFile() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("examples/scenario.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let block = try JSONSerialization.data(withJSONObject: try #require(object["profile"]))
        let pushed = try ProfileDraft.parse(json: Array(block)).validated(today: CalendarDate(year: 2026, month: 11, day: 29))
        #expect(pushed == UserProfile(heightCm: 178, weightKg: 74, wrist: .left, gender: .male, unit: .metric,
                                      birthdate: "1980-04-12", skinTone: 3, hairDensity: .low))
        #expect(try Scenario.decode(data, source: "scenario.json").profile?.profile == pushed)
    }

    @Test func scenarioProfileEncodesInTheOneShape() throws {
        let p = UserProfile(heightCm: 172, weightKg: 68, wrist: .left, gender: .female, unit: .metric,
                            birthdate: "1990-04-01", skinTone: 1, hairDensity: .none)
        let text = String(decoding: try JSONEncoder().encode(Scenario(profile: ScenarioProfile(p))), as: UTF8.self)
        #expect(text.contains(#""height":172"#) && text.contains(#""weight":68"#) && text.contains(#""skinTone":1"#))
        #expect(!text.contains("heightCm"))
        #expect(try Scenario.decode(Data(text.utf8), source: "t.json").profile?.profile == p)
    }

    @Test func nullFieldsAreAbsentFields() throws {
        let s = try Scenario.decode(Data(#"{"profile":null,"faults":{"holdAtStep":null},"wearing":{"model":{"gravity":null}}}"#.utf8), source: "n.json")
        #expect(s == Scenario())
    }

    @Test func missingFileIsUnreadable() {
        #expect(throws: ScenarioError.unreadable(path: "/nonexistent/s.json")) {
            try Scenario.load(path: "/nonexistent/s.json")
        }
    }

    @Test func splitMix64IsTheReferenceSequence() {
        // Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
        var rng = SplitMix64(seed: 0)
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
    }
}
