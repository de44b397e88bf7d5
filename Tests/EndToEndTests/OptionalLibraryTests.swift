import Foundation
import Testing

/// The binary runs without libpq and libdbus-1 (docs/design.md "Optional libraries"):
/// each is made unloadable for one run of the built binary — a private mount namespace
/// (`unshare --mount`) with an empty file bind-mounted over the library, so dlopen finds a file
/// that is not a library — and a command that needs it exits 69 naming the Debian package before
/// connecting anywhere, while a command that does not need it still succeeds. Needs root (CI
/// runs as root); the test fails, naming why, when it is not.
@Suite(.serialized) struct OptionalLibraryTests {
    static let postgres = ["replay-filter", "--state", "postgresql://127.0.0.1:1/x", "--store-wait", "1"]
    static let bluetooth = ["cuff", "listen", "--device", "00:11:22:33:44:55"]
    /// A bus address nothing listens on: with libdbus loaded, the run fails reaching it (74).
    static let noBus = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/corsano-test-bus"]
    static let reading = #"{"systolic":128,"diastolic":82,"pulse":66,"at":"2026-11-29T10:00:05Z"}"# + "\n"

    @Test func withoutLibpqAStoreOnAServerExits69NamingLibpq5() throws {
        // With the library there, the same command gets as far as connecting (refused until
        // --store-wait runs out: a server that is down cannot be told from one restarting, 75).
        let loaded = try Self.run(Self.postgres, stdin: Self.reading, blanking: [])
        #expect(loaded.status == 75, "\(loaded.stderr)")
        #expect(loaded.stderr.contains("Connection refused"), "\(loaded.stderr)")

        let r = try Self.run(Self.postgres, stdin: Self.reading, blanking: ["libpq.so.5"])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr == "corsano: state store postgresql://127.0.0.1:1/x: PostgreSQL support needs libpq5 (apt-get install libpq5)\n")
        #expect(r.stdout.isEmpty)
    }

    @Test func theMessageShowsTheServerWithoutItsPassword() throws {
        let r = try Self.run(["replay-filter", "--state", "postgresql://lab:s3cret@127.0.0.1:1/x?password=other"],
                             stdin: Self.reading, blanking: ["libpq.so.5"])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr.contains("libpq5"))
        #expect(!r.stderr.contains("s3cret") && !r.stderr.contains("other"), "\(r.stderr)")
    }

    @Test func withoutLibdbusAListenExits69NamingLibdbus13() throws {
        let loaded = try Self.run(Self.bluetooth, env: Self.noBus, blanking: [])
        #expect(loaded.status == 74, "\(loaded.stderr)")

        let r = try Self.run(Self.bluetooth, env: Self.noBus, blanking: ["libdbus-1.so.3"])
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stderr == "corsano: the system bus at unix:path=/nonexistent/corsano-test-bus: "
                + "Bluetooth (BlueZ over D-Bus) support needs libdbus-1-3 (apt-get install libdbus-1-3)\n")
    }

    @Test func withoutEitherACalibrationWithoutStateStillSucceeds() throws {
        let readings = """
            {"systolic":128,"diastolic":82,"pulse":66}
            {"systolic":124,"diastolic":80,"pulse":64}

            """
        let r = try Self.run(["bp-init", "--no-state", "--json"], stdin: readings, blanking: ["libpq.so.5", "libdbus-1.so.3"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.last?.contains(#""result":{"kind":"success","measurementCount":2}"#) == true, "\(r.stdout)")
        let version = try Self.run(["--version"], blanking: ["libpq.so.5", "libdbus-1.so.3"])
        #expect(version.status == 0, "\(version.stderr)")
    }

    // MARK: - Running the binary with libraries made unloadable

    /// Where the dynamic loader finds `soname` (`ldconfig -p`). - Throws: when it is not installed
    /// (then nothing could be made unloadable and the test would prove nothing).
    static func path(of soname: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/sbin/ldconfig")
        process.arguments = ["-p"]
        let listed = try Shell.capture(process, stdin: "").stdout
        let line = listed.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(soname + " ") && $0.contains("x86-64") }
        guard let path = line?.components(separatedBy: " => ").last else {
            throw Unloadable(message: "\(soname) is not installed (ldconfig -p): install it so the test can take it away")
        }
        return path
    }

    /// Runs the built corsano with `args`, each library in `blanking` covered by an empty file
    /// inside a mount namespace of its own (the host's mounts are untouched).
    /// - Throws: when not root (`unshare --mount` needs it) or a library is not installed.
    static func run(_ args: [String], stdin: String = "", env: [String: String] = [:],
                    blanking: [String]) throws -> Corsano.Outcome {
        guard getuid() == 0 else {
            throw Unloadable(message: "needs root for unshare --mount and a bind mount (CI runs as root): run the suite as root")
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-empty-\(UUID().uuidString).so")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        let mounts = try blanking.map { "mount --bind \"$1\" \(try path(of: $0)) || exit 125" }
        let script = (mounts + ["shift 2", "exec \"$0\" \"$@\""]).joined(separator: "\n")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--mount", "--propagation", "private", "sh", "-c", script, Corsano.binary.path, empty.path, "--"] + args
        var environment = Corsano.inherited
        environment["XDG_STATE_HOME"] = FileManager.default.temporaryDirectory
            .appendingPathComponent("corsano-e2e-\(UUID().uuidString)").path
        environment["NO_COLOR"] = "1"
        for (k, v) in env { environment[k] = v }
        process.environment = environment
        let r = try Shell.capture(process, stdin: stdin)
        return Corsano.Outcome(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    struct Unloadable: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
