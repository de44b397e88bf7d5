import Foundation
import Testing

/// wearing-opt with stdin on a terminal (a pty from util-linux `script`): the preparation
/// pickers, Enter to start, the retry question and the position picker.
@Suite struct WearingOptTerminalTests {
    /// Runs wearing-opt on a pty, typing `answers` (one line each); returns the exit status and
    /// everything the pty showed (JSON lines on stdout, prompts on stderr).
    static func onTerminal(_ e2e: WearingE2E, _ args: [String], answers: [String]) throws -> (Int32, String) {
        let scenario = try e2e.file("t.json", #"{"profile":\#(WearingE2E.scenarioProfile),"wearing":{"attempts":[{"polls":[{"percent":100,"quality":30,"finished":true}]}]}}"#)
        let command = ([Corsano.binary.path, "wearing-opt", "--bracelet", "sim:" + scenario, "--now", WearingE2E.now,
                        "--state", e2e.state, "--json"] + args).map { "'\($0)'" }.joined(separator: " ")
        let out = try Shell.run("script", ["-qec", command, "/dev/null"], stdin: answers.map { $0 + "\n" }.joined())
        return (out.status, out.stdout)
    }

    @Test func pickedValuesArePushedAndTheRetryTakesThePickedPosition() throws {
        let e2e = try WearingE2E()
        // skin tone 5, hair and wrist kept, strap, placement, start, retry yes, supine, start.
        let (status, shown) = try Self.onTerminal(e2e, [], answers: ["5", "", "", "", "", "", "y", "2", ""])
        #expect(status == 0, "\(shown)")
        #expect(shown.contains("1a. Skin tone, 1 (lightest) to 6 (darkest) [3]: "))
        #expect(shown.contains("1b. Hair density at the wrist (none/low/medium/high) [low]: "))
        #expect(shown.contains("Start another attempt? [y/n] "))
        #expect(shown.contains(#""why":"strapTightness","serial":"SIM-287-0001","values":{"height":172,"weight":68,"wrist":"left","gender":"female","unit":"metric","birthdate":"1990-04-01","skinTone":5,"hairDensity":"low"}"#))
        #expect(shown.contains(#""step":"armedPreparing","attempt":2,"position":"supine","instructions":["lieOnBack","armAlongsideBody"]"#))
        #expect(shown.contains(#""result":{"kind":"success","#))
        #expect(shown.contains(#""position":"supine"}"#))
    }

    /// The preparation questions are 1a to 1c of step 1, and an answer that is not a choice asks
    /// again saying so (skin tone 7, then 4).
    @Test func aPickOutsideTheChoicesIsAskedAgainWithTheReason() throws {
        let (status, shown) = try Self.onTerminal(try WearingE2E(), [], answers: ["7", "4", "", "", "", "", "", "n"])
        #expect(status == 130, "\(shown)")
        #expect(shown.contains("'7' is not one of the choices.") && shown.components(separatedBy: "1a. Skin tone").count == 3, "\(shown)")
        #expect(shown.contains("1c. Wrist that wears the bracelet"))
        #expect(shown.contains(#""skinTone":4"#), "\(shown)")
    }

    @Test func decliningTheRetryExits130() throws {
        let (status, shown) = try Self.onTerminal(try WearingE2E(), [], answers: ["", "", "", "", "", "", "n"])
        #expect(status == 130, "\(shown)")
        #expect(shown.contains(#""result":{"kind":"cancelledByUser"}"#))
    }
}
