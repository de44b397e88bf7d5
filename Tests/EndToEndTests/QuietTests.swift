@testable import CorsanoCLI
import Foundation
import Testing

/// `--quiet` on every command (point 10): no closing counts or notes on stderr, while
/// errors and the reports of rejected or dropped records are still printed.
@Suite struct QuietTests {
    /// Every command that writes notes; `help` and `completion` write none, so do not offer it.
    @Test func everyCommandTakesQuiet() throws {
        for spec in CommandTable.commands where spec.words != ["help"] && spec.words != ["completion"] {
            #expect(spec.option(.quiet) != nil, "\(spec.name)")
            let parsed = try ArgumentParser.parse(spec.words + ["--quiet", "--help"], environment: [:])
            #expect(parsed.flag(.quiet), "\(spec.name)")
        }
        let help = try Corsano.run(["cuff", "ingest", "--help"])
        #expect(help.stdout.contains("--quiet"))
    }

    static let good = #"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:15:00Z"}"#

    @Test func cuffIngestKeepsRejectsAndDropsCountsAndNotes() throws {
        let input = Self.good + "\n" + #"{"systolic":80,"diastolic":120,"pulse":64}"# + "\n"
            + #"{"systolic":121,"diastolic":79,"pulse":64,"deviceTime":"2025-01-01T00:04:00"}"# + "\n"
        let loud = try Corsano.run(["cuff", "ingest", "--tz", "UTC"], stdin: input)
        let quiet = try Corsano.run(["cuff", "ingest", "--tz", "UTC", "--quiet"], stdin: input)
        #expect(loud.status == 65 && quiet.status == 65)
        #expect(quiet.stdout == loud.stdout)
        #expect(loud.stderr.contains("corsano: cuff ingest: read 3, written 2"))
        #expect(loud.stderr.contains("naive stamps read in zone "))
        let rejects = loud.stderr.split(separator: "\n").filter { $0.hasPrefix("<stdin>:") }
        #expect(rejects.count == 1)
        #expect(quiet.stderr == rejects.joined(separator: "\n") + "\n")
    }

    @Test func replayFilterKeepsDropsAndDropsCounts() throws {
        let input = Self.good + "\n" + Self.good + "\n"
        let quiet = try Corsano.run(["replay-filter", "--no-state", "--now", "2026-11-29T10:20:00Z", "--quiet"], stdin: input)
        #expect(quiet.status == 0)
        #expect(quiet.stdout == Self.good + "\n")
        #expect(quiet.stderr == "<stdin>:2: duplicate\n")
    }

    @Test func historyIsSilentAboutAnEmptyLogButErrorsStillShow() throws {
        let quiet = try Corsano.run(["history", "--state", "/nonexistent/dir/state.sqlite3", "--quiet"])
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty)
        let bad = try Corsano.run(["history", "--no-state", "--quiet", "--limit", "0"])
        #expect(bad.status == 64)
        #expect(bad.stderr == "corsano: --limit: bad value '0': expected an integer from 1 to 1000000\n")
    }
}
