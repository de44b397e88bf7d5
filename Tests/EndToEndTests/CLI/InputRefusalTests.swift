import Foundation
import Testing

/// Inputs refused with the right status and a message naming what failed (docs/design.md "Exit status"):
/// directories as inputs, 66 before 74, read-only history, messages with no Swift dumps.
@Suite struct InputRefusalTests {
    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-refusal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func cuffIngestOfADirectoryIs66NamingThePath() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Corsano.run(["cuff", "ingest", dir.path])
        #expect(r.status == 66)
        #expect(r.stderr == "corsano: \(dir.path): Is a directory\n")
        #expect(r.stdout.isEmpty)
    }

    @Test func bpInitRefusesADirectoryAsCuffBeforeTheFlowStarts() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Corsano.run(["bp-init", "--cuff", dir.path, "--no-state", "--now", "2026-11-29T10:00:00Z"])
        #expect(r.status == 66)
        #expect(r.stderr == "corsano: \(dir.path): Is a directory\n")
        #expect(r.stdout.isEmpty)  // no `started` event: refused at start
    }

    @Test(arguments: [["bp-init"], ["wearing-opt"],
                      ["profile", "push", "--height", "180", "--weight", "75", "--wrist", "left", "--gender", "male",
                       "--unit", "metric", "--birthdate", "1980-01-01", "--skin-tone", "3", "--hair-density", "low"]])
    func aMissingScenarioIs66BeforeAnUnopenableStateStore(words: [String]) throws {
        let r = try Corsano.run(words + ["--bracelet", "sim:/nonexistent/scenario.json", "--state", "/proc/corsano-x/y.db"])
        #expect(r.status == 66)
        #expect(r.stderr == "corsano: scenario /nonexistent/scenario.json: no such file\n")
    }

    @Test func aScenarioFieldOfTheWrongTypeIs65NamingFileAndField() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("s.json")
        try Data(#"{"nibp":{"attempts":"accept"}}"#.utf8).write(to: file)
        let r = try Corsano.run(["bp-init", "--bracelet", "sim:" + file.path, "--no-state"])
        #expect(r.status == 65)
        #expect(r.stderr == "corsano: scenario \(file.path): field nibp.attempts: expected an array, found a string\n")
        let served = try Corsano.run(["bracelet", "serve", "--stdio", "--scenario", file.path])
        #expect(served.status == 65)
        #expect(served.stderr == "corsano: scenario \(file.path): field nibp.attempts: expected an array, found a string\n")
    }

    @Test func historyWithoutAStoreCreatesNothingAndSaysSo() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("absent/x.db").path
        let r = try Corsano.run(["history", "--state", path])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "corsano: history: no runs recorded (no state store at \(path))\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("absent").path))
    }

    @Test func historyOfAStoreWithNoRunsSaysSoOnStderr() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("state.db").path
        // replay-filter creates the store and records no run.
        let made = try Corsano.run(["replay-filter", "--state", path], stdin: "")
        #expect(made.status == 0)
        let r = try Corsano.run(["history", "--state", path])
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "corsano: history: no runs recorded in \(path)\n")
    }

    @Test func aSecondsLimitIsNamed() throws {
        let r = try Corsano.run(["bp-init", "--max-reading-age", "99999999999999"])
        #expect(r.status == 64)
        #expect(r.stderr == "corsano: --max-reading-age: bad value '99999999999999': expected a duration like 90s, 5m, 1h or 1h30m (a bare number is seconds), at most 100 years, or none\n")
        let timeout = try Corsano.run(["bp-init", "--cuff-timeout", "-5"])
        #expect(timeout.stderr == "corsano: --cuff-timeout: bad value '-5': expected a duration like 90s, 5m, 1h or 1h30m (a bare number is seconds), at most 100 years\n")
    }

    @Test func aServerThatCannotBindIs74NamingTheAddress() throws {
        let r = try Corsano.run(["bracelet", "serve", "--listen", "unix:/proc/corsano-nope/x.sock"])
        #expect(r.status == 74)
        #expect(r.stderr == "corsano: bracelet serve: cannot listen on unix:/proc/corsano-nope/x.sock: No such file or directory\n")
        #expect(r.stdout.isEmpty)
    }
}
