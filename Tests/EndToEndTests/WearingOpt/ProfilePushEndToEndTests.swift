import Foundation
import Testing

@Suite struct ProfilePushEndToEndTests {
    @Test func pushesThenSkipsTheSameProfileUnlessForced() throws {
        let e2e = try WearingE2E()
        let fresh = try e2e.run(["profile", "push"] + WearingE2E.profileFlags, scenario: "{}")
        #expect(fresh.status == 0, "\(fresh.stderr)")
        let pushed = try #require(WearingE2E.events(fresh, "profile").first)
        #expect(pushed["profile"] as? String == "pushed")
        #expect(pushed["flow"] as? String == "profile-push")
        #expect(pushed["at"] as? String == WearingE2E.now)
        #expect((pushed["values"] as? [String: Any])?["skinTone"] as? Int == 3)

        // The bracelet already holds this profile: nothing is sent.
        let holding = #"{"profile":\#(WearingE2E.scenarioProfile)}"#
        let same = try e2e.run(["profile", "push"] + WearingE2E.profileFlags, scenario: holding)
        #expect(same.status == 0)
        #expect(WearingE2E.events(same, "profile").first?["profile"] as? String == "skipped")
        let forced = try e2e.run(["profile", "push", "--force"] + WearingE2E.profileFlags, scenario: holding)
        #expect(WearingE2E.events(forced, "profile").first?["profile"] as? String == "pushed")
        // A different value is pushed without --force.
        let changed = try e2e.run(["profile", "push"] + WearingE2E.profileFlags(setting: "--skin-tone", to: "5"),
                                  scenario: holding)
        #expect(WearingE2E.events(changed, "profile").first?["profile"] as? String == "pushed")
    }

    @Test(arguments: [
        ("--height", "0", "--height: bad value '0': expected an integer from 50 to 250 cm"),
        ("--weight", "1000", "--weight: bad value '1000': expected an integer from 20 to 300 kg"),
        ("--birthdate", "2026-11-30", "--birthdate: bad value '2026-11-30': expected a date from 1900-01-01 to today (2026-11-29), not in the future"),
        ("--birthdate", "1990-02-30", "--birthdate: bad value '1990-02-30': expected a date YYYY-MM-DD"),
        ("--skin-tone", "7", "--skin-tone: bad value '7': expected an integer from 1 to 6"),
        ("--wrist", "ankle", "--wrist: bad value 'ankle': expected one of left, right"),
    ])
    func badFlagValueIsUsageErrorNamingTheFlag(_ flag: String, _ value: String, _ message: String) throws {
        let e2e = try WearingE2E()
        let out = try e2e.run(["profile", "push"] + WearingE2E.profileFlags(setting: flag, to: value), scenario: "{}")
        #expect(out.status == 64)
        #expect(out.stderr.contains(message), "\(out.stderr)")
        #expect(out.stdout.isEmpty)
    }

    /// Every missing field at once (point 3), and --help marks them required.
    @Test func missingFlagsAreNamedAllAtOnceAndHelpMarksThemRequired() throws {
        let out = try WearingE2E().run(["profile", "push", "--height", "172", "--unit", "metric"], scenario: "{}")
        #expect(out.status == 64)
        #expect(out.stderr == "corsano: profile push: missing --weight KG, --wrist left|right, --gender female|male|other, "
                + "--birthdate YYYY-MM-DD, --skin-tone N, --hair-density none|low|medium|high (required unless --from FILE gives them)\n")
        let help = try Corsano.run(["profile", "push", "--help"], env: ["COLUMNS": "200"])  // one line per option
        for line in ["--height CM                 Height in cm (required unless --from gives it).",
                     "--skin-tone N               Fitzpatrick skin type 1-6 (required unless --from gives it)."] {
            #expect(help.stdout.contains(line), "\(help.stdout)")
        }
        #expect(!help.stdout.contains("--force                     Push even when the bracelet holds the same profile (required"))
    }

    /// One profile shape: a scenario's `profile` block, saved alone, is a `--from` file; the
    /// bracelet of that scenario already holds it, so the push is skipped.
    @Test func aScenariosProfileBlockPushesAsIs() throws {
        let e2e = try WearingE2E()
        let path = try e2e.file("block.json", WearingE2E.scenarioProfile)
        let out = try e2e.run(["profile", "push", "--from", path], scenario: #"{"profile":\#(WearingE2E.scenarioProfile)}"#)
        #expect(out.status == 0, "\(out.stderr)")
        let event = try #require(WearingE2E.events(out, "profile").first)
        #expect(event["profile"] as? String == "skipped")
        let values = try #require(event["values"] as? [String: Any])
        #expect(values["height"] as? Int == 172)
        #expect(values["weight"] as? Int == 68)
    }

    @Test func fromFileWithFlagsOverIt() throws {
        let e2e = try WearingE2E()
        let path = try e2e.file("p.json", """
            {"height": 180, "weight": 82, "wrist": "right", "gender": "male", "unit": "imperial",
             "birthdate": "1975-06-30", "skinTone": 5, "hairDensity": "high"}
            """)
        let out = try e2e.run(["profile", "push", "--from", path, "--weight", "80"], scenario: "{}")
        #expect(out.status == 0, "\(out.stderr)")
        let values = try #require(WearingE2E.events(out, "profile").first?["values"] as? [String: Any])
        #expect(values["height"] as? Int == 180)
        #expect(values["weight"] as? Int == 80)
        #expect(values["hairDensity"] as? String == "high")
    }

    @Test(arguments: [
        ("{\n  \"height\": 172,\n  \"weight\": \"heavy\"\n}", ":3: field 'weight': expected an integer"),
        ("{\n  \"height\": 172,\n  \"weight\": 1000\n}", ":3: field 'weight': bad value '1000'"),
        ("{\"height\": 172, \"skin_tone\": 3}", ":1: field 'skin_tone': unknown field"),
        ("{\"height\": 172,", ": not valid JSON"),
        ("{\"height\": 172, \"weight\": 68}",
         ": missing fields wrist, gender, unit, birthdate, skinTone, hairDensity (in the file or as --wrist, --gender, --unit, "
            + "--birthdate, --skin-tone, --hair-density)"),
    ])
    func malformedFromFileIsBadDataNamingFileLineAndField(_ text: String, _ message: String) throws {
        let e2e = try WearingE2E()
        let path = try e2e.file("bad.json", text)
        let out = try e2e.run(["profile", "push", "--from", path], scenario: "{}")
        #expect(out.status == 65)
        #expect(out.stderr.contains(path + message), "\(out.stderr)")
    }

    @Test func missingFromFileIs66() throws {
        let out = try WearingE2E().run(["profile", "push", "--from", "/nonexistent/p.json"], scenario: "{}")
        #expect(out.status == 66)
        #expect(out.stderr.contains("/nonexistent/p.json"))
    }

    @Test func fromStdin() throws {
        let out = try WearingE2E().run(["profile", "push", "--from", "-"], scenario: "{}", stdin: """
            {"height":172,"weight":68,"wrist":"left","gender":"female","unit":"metric","birthdate":"1990-04-01","skinTone":3,"hairDensity":"low"}
            """)
        #expect(out.status == 0, "\(out.stderr)")
        #expect(WearingE2E.events(out, "profile").first?["profile"] as? String == "pushed")
    }
}
