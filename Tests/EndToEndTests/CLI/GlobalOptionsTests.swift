@testable import CorsanoCLI
import Foundation
import Testing

/// Issue 23: global options wherever a user puts them, durations on every seconds option, and a
/// missing value that never swallows the next option.
@Suite struct GlobalOptionsTests {
    /// `corsano --help CMD` is `corsano CMD --help`, for a command and for a group word.
    @Test(arguments: [["bp-init"], ["cuff", "ingest"], ["cuff"]])
    func helpBeforeTheCommandIsTheCommandsHelp(words: [String]) throws {
        let before = try Corsano.run(["--help"] + words)
        let after = try Corsano.run(words + ["--help"])
        #expect(before.status == 0)
        #expect(before.stdout == after.stdout)
        #expect(before.stdout.contains("corsano " + words.joined(separator: " ")))
        #expect(before.stderr.isEmpty)
        #expect(try Corsano.run(["-h"] + words).stdout == after.stdout)
    }

    /// `-V`/`--version` before or after the command prints the version, as alone.
    @Test(arguments: [["-V", "bp-init"], ["--version", "cuff", "ingest"], ["bp-init", "--version"], ["cuff", "listen", "-V"]])
    func versionBeforeOrAfterTheCommand(args: [String]) throws {
        let r = try Corsano.run(args)
        #expect(r.status == 0)
        #expect(r.stdout == "corsano \(HelpRenderer.version)\n")
        #expect(r.stderr.isEmpty)
    }

    /// `help` and `completion` write no notes: they do not offer `--quiet`.
    @Test func helpAndCompletionDoNotOfferQuiet() throws {
        for words in [["help"], ["completion"]] {
            let spec = try #require(CommandTable.commands.first { $0.words == words })
            #expect(spec.option(.quiet) == nil)
            #expect(try !Corsano.run(words + ["--help"]).stdout.contains("--quiet"))
        }
        #expect(try Corsano.run(["help", "--quiet"]).status == 64)
    }

    /// `bp-init --state --no-preparation --cuff FILE` used to create a SQLite file named
    /// `--no-preparation`: now 64 naming both, and nothing is created.
    @Test func aMissingValueNeverTakesTheNextOption() throws {
        let (dir, cuff) = try Self.directoryWithEmptyFile("cuff.jsonl")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Corsano.run(["bp-init", "--state", "--no-preparation", "--cuff", cuff], cwd: dir)
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("corsano: --state needs a value (FILE); '--no-preparation' is an option"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["cuff.jsonl"])
        let other = try Corsano.run(["bp-init", "--cuff", "--no-state"], cwd: dir)
        #expect(other.status == 64)
        #expect(!other.stderr.contains("No such file"))
    }

    /// A new temporary directory holding one empty file `name` (and the file's path).
    static func directoryWithEmptyFile(_ name: String) throws -> (URL, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-i23-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        return (dir, path)
    }

    @Test(arguments: [("90s", 90), ("5m", 300), ("1h", 3600), ("1h30m", 5400), ("2m30s", 150), ("1h0m5s", 3605), ("45", 45), ("0", 0),
                      ("0s", 0), ("876000h", 876000 * 3600)])
    func durationsAreAccepted(text: String, seconds: Int) {
        #expect(DurationText.seconds(text) == seconds)
    }

    @Test(arguments: ["", "s", "5x", "1m1h", "1h1h", "1h30", "-5", "+5", "5 m", "1.5h", "5min", "876001h", "99999999999999999999s"])
    func nonDurationsAreRefused(text: String) {
        #expect(DurationText.seconds(text) == nil)
    }

    /// Every option of the table (and the REPL's session commands) that takes seconds takes a
    /// duration, and help calls its value DURATION.
    @Test func everySecondsOptionTakesADuration() throws {
        var checked = 0
        for spec in CommandTable.commands + REPLGrammar.sessionCommands {
            for option in spec.options {
                guard case .seconds(let none)? = option.value else { continue }
                // `--version` spares the options a command requires.
                let parsed = try ArgumentParser.parse(["--" + option.name, "1h30m", "--version"], as: spec, environment: [:])
                #expect(try parsed.seconds(option.key) == .some(5400), "\(spec.name) --\(option.name)")
                #expect(option.usage == "--\(option.name) DURATION" + (none ? "|none" : ""))
                checked += 1
            }
        }
        #expect(checked >= 10)
    }

    /// On the binary: a duration where seconds were taken runs (`replay-filter` on empty input).
    @Test func theBinaryTakesDurations() throws {
        let r = try Corsano.run(["replay-filter", "--no-state", "--backdate", "5m", "--max-reading-age", "1h30m"])
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// `--columns N`, a common option: help (and every layout) as `COLUMNS=N` gives it, on every
    /// command that takes the common options; out of range is 64.
    @Test func columnsLaysOutForThatWidth() throws {
        for words in [["bp-init"], ["cuff", "ingest"], ["history"]] {
            let given = try Corsano.run(words + ["--columns", "40", "--help"])
            #expect(given.status == 0)
            #expect(given.stdout == (try Corsano.run(words + ["--help"], env: ["COLUMNS": "40"])).stdout)
            #expect(given.stdout != (try Corsano.run(words + ["--help"], env: ["COLUMNS": "250"])).stdout)
            #expect(try Corsano.run(words + ["--columns", "250", "--help"], env: ["COLUMNS": "40"]).stdout
                    == (try Corsano.run(words + ["--help"], env: ["COLUMNS": "250"])).stdout)
        }
        let bad = try Corsano.run(["cuff", "ingest", "/nonexistent", "--columns", "5"])
        #expect(bad.status == 64)
        #expect(bad.stderr == "corsano: --columns: bad value '5': expected an integer from 20 to 1000\n")
    }
}
