@testable import CorsanoCLI
import Foundation
import Testing

/// Runs the real built `corsano` binary and captures what it did.
struct Corsano {
    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// The binary next to the test bundle (`swift build` puts both in one folder).
    static let binary: URL = {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("corsano")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return dir.appendingPathComponent("corsano")
    }()

    /// The package root (for fixtures checked into the repo).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Fixtures`: the cuff fixtures this repository carries.
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// The variables `corsano` reads that a test run never inherits: its own (`CORSANO_STATE`
    /// would point every test at the developer's store, `CORSANO_BRACELET` at a real bracelet),
    /// the language (`LANG=de_DE.UTF-8` turns the expected English text German), `COLUMNS`, `TZ`,
    /// `NO_COLOR`, `XDG_STATE_HOME`. A test sets what it needs; `HOME`, `TERM` and `PATH` stay.
    static func isScrubbed(_ name: String) -> Bool {
        if name.hasPrefix("CORSANO_") || name.hasPrefix("LC_") || name == "LANGUAGE" { return true }
        guard let variable = EnvironmentVariable(rawValue: name) else { return false }
        return variable != .home && variable != .term
    }

    /// `environment` without the variables of `isScrubbed`.
    static func scrubbed(_ environment: [String: String]) -> [String: String] {
        environment.filter { !isScrubbed($0.key) }
    }

    /// The environment every process a test starts begins from: the test runner's, scrubbed.
    /// `XDG_CONFIG_HOME` is the test run's own (`sharedConfigHome`), so every process of the run
    /// shares one audit key and none is made in the developer's ~/.config.
    static let inherited = scrubbed(ProcessInfo.processInfo.environment).merging(["XDG_CONFIG_HOME": sharedConfigHome]) { $1 }

    /// The `XDG_CONFIG_HOME` of every run that does not set one (the audit key's default home).
    /// It holds the run's audit key from the start, as a lab's gateways do once set up, so no test
    /// but those about the key sees the note that one was created.
    static let sharedConfigHome: String = {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-e2e-config-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: home + "/corsano", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: home + "/corsano/audit.key", contents: Data((UUID().uuidString + UUID().uuidString + "\n").utf8),
                                       attributes: [.posixPermissions: 0o600])
        return home
    }()

    /// Runs `corsano ARGS` with `stdin` as its input; a temporary state store unless `env` sets one.
    static func run(_ args: [String], stdin: String = "", env: [String: String] = [:],
                    cwd: URL? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = binary
        process.arguments = args
        var environment = inherited
        environment["XDG_STATE_HOME"] = FileManager.default.temporaryDirectory
            .appendingPathComponent("corsano-e2e-\(UUID().uuidString)").path
        environment["NO_COLOR"] = "1"
        for (k, v) in env { environment[k] = v }
        process.environment = environment
        if let cwd { process.currentDirectoryURL = cwd }
        let r = try Shell.capture(process, stdin: stdin)
        return Outcome(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }
}

extension String {
    /// This stderr text without the line saying a new SQLite store was created (said once, by
    /// the command that creates it: issue 28), for a test about the rest of it.
    var withoutNewStoreNotice: String {
        split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !($0.hasPrefix("corsano: state store ") && $0.hasSuffix(": creating a new store")) }
            .joined(separator: "\n")
    }
}

/// A buffer filled by a reader thread and read after it signalled.
final class DataBox: @unchecked Sendable {
    var data = Data()
}
