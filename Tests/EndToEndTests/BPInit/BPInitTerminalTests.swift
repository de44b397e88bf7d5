import Foundation
import Testing

/// `bp-init` with a terminal on stdin and stdout (under `script`, which gives the process a
/// pseudo-terminal): human text instead of JSON, Enter to start, typed readings, the retry question.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
struct BPInitTerminalTests {
    typealias E = BPInitE2E

    /// Runs `corsano ARGS` under `script -qec`, typing `keys` into its terminal.
    static func onTerminal(_ args: [String], keys: String, env: [String: String] = [:]) throws -> Shell.Outcome {
        let quoted = ([Corsano.binary.path] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        // A short pause per line: script forwards keys as they come, the prompts read one line each.
        let feeder = keys.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { "sleep 0.3; printf '%s\\n' '\($0)'" }.joined(separator: "; ")
        return try Shell.run("sh", ["-c", "(\(feeder); sleep 1) | script -qec \"\(quoted.joined(separator: " "))\" /dev/null"],
                             env: ["LANG": "C", "NO_COLOR": "1", "TERM": "dumb"].merging(env) { $1 })
    }

    @Test func fixtureSessionPrintsTextScreens() throws {
        let dir = try E.directory()
        let cuff = try E.file(dir, "cuff.jsonl", E.ingestedSession)
        let r = try Self.onTerminal(["bp-init", "--cuff", cuff, "--no-state"] + E.now, keys: "\n")
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.stdout.contains("Press Enter to start"))
        #expect(r.stdout.contains("Press START on the BP cuff monitor."))
        #expect(r.stdout.contains("Calibration complete"))
        #expect(r.stdout.contains("128/82 mmHg, pulse 66 bpm (accepted)"))
        #expect(!r.stdout.contains(#""event""#))
    }

    @Test func typedReadingsAreManualEntries() throws {
        let r = try Self.onTerminal(["bp-init", "--no-state", "--json"], keys: "\n120/80 72\n12O/80\n122/81 70\n")
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.stdout.contains(#""isManualEntry":true"#))
        #expect(r.stdout.contains(#""result":{"kind":"success","measurementCount":2}"#))
        #expect(r.stdout.contains("corsano: Not understood. Type systolic/diastolic pulse, for example 120/80 72."))
    }

    @Test func decliningTheRetryIsCancelledByUser() throws {
        let dir = try E.directory()
        let scenario = try E.file(dir, "s.json", #"{"nibp":{"attempts":[{"session":false}]}}"#)
        let r = try Self.onTerminal(["bp-init", "--bracelet", "sim:" + scenario, "--no-state", "--text"],
                                    keys: "\n120/80 72\n122/81 70\nn\n")
        #expect(r.status == 130, "\(r.stdout)")
        #expect(r.stdout.contains("Start another attempt? [y/n]"))
        #expect(r.stdout.contains("Result: cancelled"))
    }
}
