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
        #expect(r.stderr == "4: unknown command 'frobnicate'; try 'corsano --help'\n")
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
}
