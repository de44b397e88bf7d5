import CorsanoKit
import Foundation
import Testing

/// `corsano repl < script`: no prompts, `LINE: message` for failures, exit 1 if any line failed,
/// `--bail` stops at the first failure with its status.
@Suite struct REPLScriptTests {
    @Test func aFailingLineMakesTheSessionExit1AndIsReportedWithItsLineNumber() throws {
        let r = try Corsano.run(["repl", "--no-state"], stdin: """
            # queue two readings
            cuff add 120/80 72

            frobnicate now
            cuff add 118 / 79 70 at 2026-11-29T10:00:00Z
            status
            """)
        #expect(r.status == 1)
        #expect(r.stderr == "4: unknown command 'frobnicate'; try 'help'\n")
        #expect(r.stdout.contains("queued    120/80 72 (manual), 118/79 70 at 2026-11-29T10:00:00Z\n"))
        #expect(!r.stdout.contains("corsano>"))
    }

    @Test func bailStopsAtTheFirstFailureWithItsStatus() throws {
        let r = try Corsano.run(["repl", "--bail", "--no-state"], stdin: "cuff add 120/80 72\ncuff add 80/120 72\nstatus\n")
        #expect(r.status == 64)
        #expect(r.stderr == "2: cuff add: systolic must be above diastolic\n")
        #expect(!r.stdout.contains("plan"))
    }

    @Test func badOptionValueNamesTheLineAndTheFlag() throws {
        let r = try Corsano.run(["repl", "--bail", "--no-state"], stdin: "status --clock sundial\n")
        #expect(r.status == 64)
        #expect(r.stderr == "1: --clock: bad value 'sundial': expected one of real, virtual\n")
    }

    @Test func aCleanScriptExits0AndQuitStopsReading() throws {
        let r = try Corsano.run(["repl", "--no-state"], stdin: "cuff add 120/80 72\nquit\nfrobnicate\n")
        #expect(r.status == 0)
        #expect(r.stdout == "queued 120/80 72 (manual) (1 waiting for the next bp-init)\n")
        #expect(r.stderr.isEmpty)
    }

    @Test func commandsThatWouldReadStandardInputAreRefused() throws {
        let r = try Corsano.run(["repl", "--no-state"], stdin: "replay-filter --now 2026-11-29T10:00:00Z\nstatus\n")
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("1: replay-filter: in the REPL, name the input FILE"))
        #expect(r.stdout.contains("plan      monitoring"))
    }

    @Test func helpListsSessionCommandsAndShowsACommandsOptions() throws {
        let r = try Corsano.run(["repl"], stdin: "help\nhelp cuff add\nhelp bp-init\n")
        #expect(r.status == 0)
        #expect(r.stdout.contains("  cuff add          Queue a cuff reading for the next flow.\n"))
        #expect(r.stdout.contains("usage: corsano cuff add SYS/DIA PULSE [at TIME]\n"))
        #expect(r.stdout.contains("  --max-attempts N"))
    }

    @Test func queuedReadingsFeedBpInitOnTheConnectedBracelet() throws {
        // The served bracelet refuses the attempt; the embedded default would accept it.
        let server = try ServedSimulator(.unix, scenario: Scenario(nibp: NIBPScenario(attempts: [NIBPAttemptScript(session: false)])))
        defer { server.stop() }
        let r = try Corsano.run(["repl", "--no-state"], stdin: """
            connect \(server.listening)
            cuff add 120/80 72
            cuff add 122/81 70 at 2026-11-29T10:00:00Z
            bp-init --json --max-attempts 1 --now 2026-11-29T10:00:30Z
            status
            """)
        #expect(r.status == 1)
        #expect(r.stderr == "4: bp-init exited with status 1\n")
        let events = r.lines.filter { $0.hasPrefix("{") }
        #expect(events.filter { $0.contains(#""event":"measurement""#) }.map { $0.contains(#""systolic":120"#) || $0.contains(#""systolic":122"#) } == [true, true])
        #expect(events.last?.contains(#""result":{"kind":"failedAfterRetries","attemptCount":1}"#) == true)
        #expect(r.stdout.contains("queued    no cuff readings\n"))
    }

    @Test func profileSetMergesValidatesAndStoresForTheBracelet() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-repl-\(UUID().uuidString).sqlite3").path
        let r = try Corsano.run(["repl", "--state", state], stdin: """
            profile show
            profile set --height 180 --weight 80
            profile set --height 180 --weight 80 --wrist left --gender male --unit metric --birthdate 1980-02-03 --skin-tone 3 --hair-density low
            profile set --weight 82
            profile set --skin-tone 9
            """)
        #expect(r.status == 1)
        #expect(r.stderr == "2: --wrist is required (or give the profile with --from FILE)\n5: --skin-tone: bad value '9': expected an integer from 1 to 6 (Fitzpatrick I-VI)\n")
        // A later session on the same store sees the merged profile.
        let again = try Corsano.run(["repl", "--state", state], stdin: "profile show\nstatus\n")
        #expect(again.stdout.hasPrefix(#"{"height":180,"weight":82,"wrist":"left","gender":"male","unit":"metric","birthdate":"1980-02-03","skinTone":3,"hairDensity":"low"}"# + "\n"))
        #expect(again.stdout.contains("stored    180 cm, 82 kg, left wrist, male, metric, born 1980-02-03, skin tone 3, hair low\n"))
        #expect(r.stdout.hasPrefix("no profile stored for SIM-287-0001\n"))
    }
}
