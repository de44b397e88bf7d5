import Foundation
import Testing

/// What a developer's shell exports never reaches the processes tests start (issue 11: a test
/// fails only for a real reason): not the state store or bracelet, not the language or width.
@Suite struct TestEnvironmentTests {
    @Test func theVariablesCorsanoReadsAreNotInherited() {
        let shell = ["CORSANO_STATE": "/var/lib/lab/state.sqlite3", "CORSANO_BRACELET": "unix:/run/bridge.sock",
                     "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8", "LANGUAGE": "de",
                     "COLUMNS": "40", "TZ": "Europe/Berlin", "NO_COLOR": "", "XDG_STATE_HOME": "/home/me/.local/state",
                     "HOME": "/home/me", "TERM": "xterm-256color", "PATH": "/usr/bin:/bin"]
        #expect(Corsano.scrubbed(shell) == ["HOME": "/home/me", "TERM": "xterm-256color", "PATH": "/usr/bin:/bin"])
    }

    /// The runner's own environment, whatever it holds, reaches a run scrubbed: a run sees
    /// the language and store a test gives it and nothing else.
    @Test func aRunSeesOnlyWhatTheTestSets() throws {
        // But for the run's own audit-key home, which every process of the run shares.
        #expect(Corsano.inherited.allSatisfy { !Corsano.isScrubbed($0.key) || ($0.key == "XDG_CONFIG_HOME" && $0.value == Corsano.sharedConfigHome) })
        let r = try Corsano.run(["history", "--text"], env: ["LANG": "C.UTF-8"])
        #expect(r.status == 0)
        // The test's own XDG_STATE_HOME, whatever CORSANO_STATE the runner was started with.
        #expect(r.stderr.hasPrefix("corsano: history: no runs recorded (no state store at ") && r.stderr.contains("/corsano-e2e-"),
                "\(r.stderr)")
    }
}
