@testable import CorsanoCLI
import CorsanoKit
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 27: health data nobody else reads, a bridge nobody else drives, passwords nobody sees,
/// files nothing overwrites — with the real binary, a real second user (`nobody`) and real files.
@Suite(.serialized) struct PrivacyEndToEndTests {
    typealias E = BPInitE2E
    static let nobody: uid_t = 65534

    /// `corsano ARGS` run as the user `nobody` (setpriv drops every id and group), with `env`.
    static func runAsNobody(_ args: [String], env: [String: String]) throws -> Shell.Outcome {
        try Shell.run("setpriv", ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", Corsano.binary.path] + args,
                      env: ["NO_COLOR": "1"].merging(env) { $1 })
    }

    /// A directory `nobody` owns (its state directory, its copies of token files).
    static func nobodyDirectory() throws -> URL {
        let dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("corsano-nobody-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        #expect(chown(dir.path, nobody, gid_t(nobody)) == 0)
        return dir
    }

    /// `token` written to a 0600 file `nobody` owns.
    static func nobodyTokenFile(_ dir: URL, _ name: String, hex: String) throws -> String {
        let path = dir.appendingPathComponent(name).path
        #expect(FileManager.default.createFile(atPath: path, contents: Data((hex + "\n").utf8), attributes: [.posixPermissions: 0o600]))
        #expect(chown(path, nobody, gid_t(nobody)) == 0)
        return path
    }

    /// Another local user cannot read or change a bracelet served over TCP without the token
    /// (neither with none, nor with the server's file it cannot read, nor with a wrong one: 77),
    /// and can with it; the profile is untouched until then.
    @Test func anotherUserNeedsTheTokenToUseATCPBridge() async throws {
        let profile = UserProfile(heightCm: 181, weightKg: 80, wrist: .left, gender: .male, unit: .metric,
                                  birthdate: "1975-06-30", skinTone: 2, hairDensity: .medium)
        let server = try ServedSimulator(.tcp, scenario: Scenario(serial: "PRIV-1", profile: ScenarioProfile(profile)))
        defer { server.stop() }
        let tokenFile = try #require(server.tokenFile)
        var st = stat()
        #expect(stat(tokenFile, &st) == 0 && st.st_mode & 0o777 == 0o600)
        let home = try Self.nobodyDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let push = ["profile", "push", "--bracelet", server.listening, "--no-state", "--json"] + WearingE2E.profileFlags
        let env = ["XDG_STATE_HOME": home.path]

        let none = try Self.runAsNobody(push, env: env)
        #expect(none.status == 77, "\(none.stderr)")
        #expect(none.stderr.contains("bridge token file \(home.path)/corsano/bridge-token"), "\(none.stderr)")
        let unreadable = try Self.runAsNobody(push, env: env.merging(["CORSANO_BRIDGE_TOKEN_FILE": tokenFile]) { $1 })
        #expect(unreadable.status == 77, "\(unreadable.stderr)")
        let wrong = try Self.nobodyTokenFile(home, "wrong", hex: String(repeating: "5a", count: 32))
        let refused = try Self.runAsNobody(push + ["--token-file", wrong], env: env)
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("refused our token"), "\(refused.stderr)")

        let owner = try await server.client(clock: VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000)))
        #expect(try await owner.readProfile() == profile)
        await owner.close()

        let right = try Self.nobodyTokenFile(home, "right", hex: try String(contentsOfFile: tokenFile, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines))
        let allowed = try Self.runAsNobody(push + ["--token-file", right], env: env)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.contains(#""profile":"pushed""#), "\(allowed.stdout)")
    }

    /// The modes of every file and directory runs create under umask 022: the default store's
    /// directory and file, rejects, FHIR bulk files and manifest; the socket of a unix listener
    /// under umask 000; a SQLite store's -wal and -shm while it is open.
    @Test func everyFileARunCreatesIsPrivateUnderUmask022() throws {
        let dir = try E.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("xdg")
        func run(_ args: [String], stdin: String = "") throws -> Shell.Outcome {
            try Shell.run("sh", ["-c", #"umask 022; exec "$0" "$@""#, Corsano.binary.path] + args, stdin: stdin,
                          env: ["XDG_STATE_HOME": state.path, "NO_COLOR": "1"])
        }
        let bp = try run(["bp-init"] + E.now, stdin: E.ingestedSession)
        #expect(bp.status == 0, "\(bp.stderr)")
        let capture = try E.file(dir, "capture.jsonl", #"{"systolic":120,"diastolic":80,"receivedAt":"2026-11-29T10:00:00Z"}"# + "\n{bad\n")
        let out = dir.appendingPathComponent("out")
        let ingest = try run(["cuff", "ingest", "--rejects", out.path + "/rejects.jsonl", "--format", "fhir",
                              "--output-dir", out.path + "/fhir", capture])
        #expect(ingest.status == 65, "\(ingest.stderr)")
        let history = try run(["history", "--format", "fhir", "--output-dir", out.path + "/history"])
        #expect(history.status == 0, "\(history.stderr)")

        var seen: [String: mode_t] = [:]
        for root in [state, out] {
            let walker = FileManager.default.enumerator(atPath: root.path)
            while let relative = walker?.nextObject() as? String {
                var st = stat()
                #expect(lstat(root.path + "/" + relative, &st) == 0)
                seen[root.lastPathComponent + "/" + relative] = st.st_mode
            }
        }
        #expect(seen.keys.contains("xdg/corsano/state.sqlite3"))
        #expect(seen.keys.contains("out/rejects.jsonl"))
        #expect(seen.keys.contains("out/fhir/manifest.json"))
        #expect(seen.keys.contains("out/history/manifest.json"))
        for (path, mode) in seen {
            let expected: mode_t = (mode & S_IFMT) == S_IFDIR ? 0o700 : 0o600
            #expect(mode & 0o777 == expected, "\(path): \(String(mode & 0o777, radix: 8))")
        }
        var st = stat()
        #expect(stat(state.path, &st) == 0 && st.st_mode & 0o777 == 0o700)

        // -wal and -shm while a store is open (SQLite removes them at the last close).
        let old = umask(0o022)
        defer { umask(old) }
        let path = dir.appendingPathComponent("open.sqlite3").path
        let store = try SQLiteStore(path: path)
        for suffix in ["", "-wal", "-shm"] {
            #expect(stat(path + suffix, &st) == 0 && st.st_mode & 0o777 == 0o600, "\(suffix): \(String(st.st_mode & 0o777, radix: 8))")
        }
        _ = store

        umask(0)
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        guard case .unix(let socket) = server.address else { Issue.record("not a unix address"); return }
        #expect(lstat(socket, &st) == 0 && st.st_mode & 0o777 == 0o600, "\(String(st.st_mode & 0o777, radix: 8))")
    }

    /// A password in a `--state` URI, percent-encoded with '/', '@', ':' and '%' in it: warned
    /// about once with the advice, and no message shows it in any spelling.
    @Test func aPasswordOnTheCommandLineIsWarnedAboutAndNeverPrinted() throws {
        let password = "s/e@c:r%t"
        let encoded = "s%2Fe%40c%3Ar%25t"
        let uri = "postgresql://corsano:\(encoded)@127.0.0.1:1/lab?connect_timeout=2"
        let r = try Corsano.run(["history", "--state", uri, "--store-wait", "1"])
        #expect(r.status == 75, "\(r.stderr)")  // refused until --store-wait runs out: busy, try again
        #expect(r.stderr.components(separatedBy: "a password on the command line").count == 2, "\(r.stderr)")
        #expect(r.stderr.contains("~/.pgpass") && r.stderr.contains("PGPASSFILE") && r.stderr.contains("PGSERVICE"))
        for spelling in [password, encoded, "s/e", "c:r", "%2Fe", "r%25t"] {
            #expect(!r.stderr.contains(spelling) && !r.stdout.contains(spelling), "\(spelling) in \(r.stderr)")
        }
    }

    /// Unencoded '/', '@' or '%' in a password, a libpq key=value string, a mistyped scheme:
    /// refused with 64, no file made under the name, no password printed.
    @Test(arguments: [
        "postgresql://corsano:se/cret@127.0.0.1:1/lab",
        "postgresql://corsano:se@cret@127.0.0.1:1/lab",
        "postgresql://corsano:50%off@127.0.0.1:1/lab",
        "host=127.0.0.1 user=corsano password=secret dbname=lab",
        "postgresql:/corsano:secret@127.0.0.1/lab",
        "postgres//corsano:secret@127.0.0.1/lab",
    ])
    func aConnectionStringThatIsNotAValidURIIsRefused(_ state: String) throws {
        let dir = try E.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Corsano.run(["history", "--state", state], cwd: dir)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--state"), "\(r.stderr)")
        for secret in ["secret", "cret", "50%off", "off@"] {
            #expect(!r.stderr.contains(secret), "\(secret) in \(r.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
    }

    /// `--rejects` naming a symlink is refused (only regular files are replaced) and the link's
    /// target keeps its bytes; so is a symlinked export file in `--output-dir`, before any file
    /// is written (no manifest without its files); a directory named like an export file is
    /// left alone, never removed.
    @Test func outputFilesNeverFollowSymlinksNorReplaceOtherFiles() throws {
        let dir = try E.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let precious = try E.file(dir, "precious.txt", "keep me\n")
        let link = dir.appendingPathComponent("rejects.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: precious)
        let capture = try E.file(dir, "capture.jsonl", "{bad\n")
        let r = try Corsano.run(["cuff", "ingest", "--rejects", link, capture])
        #expect(r.status == 74, "\(r.stderr)")
        #expect(r.stderr.contains("\(link): is a symbolic link"), "\(r.stderr)")
        #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me\n")

        // A symlinked export file in --output-dir, and a directory named like a stale one.
        let (storeDir, state) = try FHIRExportEndToEndTests.storeWithFixtureRuns()
        defer { try? FileManager.default.removeItem(at: storeDir) }
        let bulk = dir.appendingPathComponent("bulk")
        try FileManager.default.createDirectory(at: bulk, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bulk.path + "/Observation.ndjson", withDestinationPath: precious)
        let linked = try Corsano.run(["history", "--format", "fhir", "--output-dir", bulk.path, "--state", state])
        #expect(linked.status == 74, "\(linked.stderr)")
        #expect(try String(contentsOfFile: precious, encoding: .utf8) == "keep me\n")
        #expect(!FileManager.default.fileExists(atPath: bulk.path + "/manifest.json"))

        let fresh = dir.appendingPathComponent("fresh")
        let kept = fresh.appendingPathComponent("Device.ndjson/mine.txt")
        try FileManager.default.createDirectory(at: kept.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: kept)
        let stale = try Corsano.run(["history", "--format", "fhir", "--output-dir", fresh.path, "--state", state])
        #expect(stale.status == 74, "\(stale.stderr)")
        #expect(stale.stderr.contains("Device.ndjson: is a directory"), "\(stale.stderr)")
        #expect(FileManager.default.fileExists(atPath: kept.path), "the directory was removed: \(stale.stderr)")
    }

    /// What a terminal must never receive: ESC (OSC 52 clipboard write, CSI 2J clear), BEL, C1 CSI.
    static func expectNoControls(_ text: String, _ what: String) {
        for control in ["\u{1b}", "\u{07}", "\u{9b}", "\u{7f}"] {
            #expect(!text.contains(control), "\(what): \(text.debugDescription)")
        }
    }

    /// A bridge whose serial carries an OSC 52 clipboard write and a screen clear: the run's
    /// text output, its notices and `history --text` show them escaped.
    @Test func aBridgeSerialWithOSC52ReachesTheTerminalEscaped() throws {
        let evil = "SIM\u{1b}]52;c;ZXZpbA==\u{07}\u{1b}[2J\u{9b}2J\u{7f}"
        let server = try ServedSimulator(.unix, scenario: Scenario(serial: evil))
        defer { server.stop() }
        let dir = try E.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state.sqlite3").path
        let run = try Corsano.run(["bp-init", "--bracelet", server.listening, "--state", state, "--text"] + E.now, stdin: E.ingestedSession)
        #expect(run.status == 0, "\(run.stderr)")
        Self.expectNoControls(run.stdout + run.stderr, "bp-init")
        let history = try Corsano.run(["history", "--text", "--state", state])
        #expect(history.status == 0, "\(history.stderr)")
        Self.expectNoControls(history.stdout + history.stderr, "history")
        #expect(history.stdout.contains(#"SIM\e]52;c;ZXZpbA==\x07\e[2J\u{9b}2J\x7f"#), "\(history.stdout)")
        // JSON keeps JSON's own escapes, the serial intact.
        let json = try Corsano.run(["history", "--json", "--state", state])
        #expect(json.stdout.contains(#"SIM\u001b]52;c;ZXZpbA==\u0007"#), "\(json.stdout)")
    }

    /// A CSV cell and a file name with controls: the reject and the summary show them escaped.
    @Test func aCSVCellAndAFileNameWithControlsAreEscaped() throws {
        let dir = try E.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = "timestampUnixMs,systolic,diastolic,pulse,notes,needlePin\n1795677734000,12\u{1b}]52;c;aGk=\u{07}4,79,61,,null\n"
        let file = try E.file(dir, "cuff\u{1b}[2J.csv", csv)
        let r = try Corsano.run(["cuff", "ingest", file])
        #expect(r.status == 65, "\(r.stderr)")
        Self.expectNoControls(r.stdout + r.stderr, "cuff ingest")
        #expect(r.stderr.contains(#"cuff\e[2J.csv"#), "\(r.stderr)")
    }
}

/// The REPL's history file: 0600 in a 0700 directory whatever the umask, and never a line
/// holding a password.
@Suite(.serialized) struct REPLHistoryPrivacyTests {
    @Test func historyIsPrivateAndKeepsNoPasswordLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let old = umask(0o022)
        defer { umask(old) }
        let history = REPLHistory(environment: ["XDG_STATE_HOME": dir.path])
        history.load()
        history.add("status", to: .commands)
        history.add("state migrate --from a.sqlite3 --to postgresql://lab:s%2Fecret@db/lab", to: .commands)
        history.add("history --state 'host=db password=hunter2'", to: .commands)
        history.add("history", to: .commands)
        let text = try String(contentsOfFile: history.path, encoding: .utf8)
        #expect(text.contains("status") && text.contains("history\n"))
        #expect(!text.contains("ecret") && !text.contains("hunter2"), "\(text)")
        var st = stat()
        #expect(stat(history.path, &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(stat(dir.appendingPathComponent("corsano").path, &st) == 0 && st.st_mode & 0o777 == 0o700)
    }
}
