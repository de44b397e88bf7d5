import CorsanoKit
import Foundation
import Testing
import TestSupport

/// `bracelet serve` never takes over a live socket: it connects first, each "cannot
/// listen" case exits 74 with its own message, a stale socket file is replaced, and clients say
/// what a path is when it is not a socket.
@Suite struct ServeTakeoverTests {
    static func directory() throws -> URL {
        let dir = URL(fileURLWithPath: "/tmp").appendingPathComponent("corsano-takeover-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// `corsano ARGS` that must exit by itself within `seconds`; a server still running then is
    /// stopped (SIGTERM) and reported, so a regression fails instead of hanging the suite.
    static func serveWithin(seconds: Double, _ args: [String]) throws -> Corsano.Outcome {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out"), err = dir.appendingPathComponent("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = Corsano.binary
        process.arguments = args
        process.environment = Corsano.inherited
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        if !Wait.until(seconds: seconds, { !process.isRunning }) {
            Issue.record("\(args) still running after \(seconds) s")
            process.terminate()
        }
        process.waitUntilExit()
        return Corsano.Outcome(status: process.terminationStatus, stdout: try String(contentsOf: out, encoding: .utf8),
                               stderr: try String(contentsOf: err, encoding: .utf8))
    }

    /// A second server on a live server's path exits 74 naming the one there; the first still
    /// answers afterwards, on the same socket file.
    @Test func aSecondServerOnALiveSocketExits74AndTheFirstStillAnswers() async throws {
        let first = try ServedSimulator(.unix)
        defer { first.stop() }
        guard case .unix(let path) = first.address else { Issue.record("not unix"); return }
        // Without the check the second server would take the path over and serve on: bounded.
        let second = try Self.serveWithin(seconds: 15, ["bracelet", "serve", "--listen", "unix:" + path])
        #expect(second.status == 74)
        #expect(second.stderr == "corsano: bracelet serve: cannot listen on unix:\(path): a server is already listening there "
                + "(pid \(first.process.processIdentifier), corsano)\n", "\(second.stderr)")
        #expect(second.stdout.isEmpty)
        let client = try await first.client(clock: VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000)))
        defer { client.shutdown() }
        #expect(try await client.identify().serial == "SIM-287-0001")
    }

    @Test func aRegularFileOrADirectoryIsRefusedWith74AndLeftInPlace() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("notes.txt")
        try Data("keep me\n".utf8).write(to: file)
        let onFile = try Corsano.run(["bracelet", "serve", "--listen", "unix:" + file.path])
        #expect(onFile.status == 74)
        #expect(onFile.stderr == "corsano: bracelet serve: cannot listen on unix:\(file.path): is a regular file, not a socket\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == "keep me\n")
        let onDir = try Corsano.run(["bracelet", "serve", "--listen", "unix:" + dir.path])
        #expect(onDir.status == 74)
        #expect(onDir.stderr == "corsano: bracelet serve: cannot listen on unix:\(dir.path): is a directory, not a socket\n")
    }

    /// A socket file nobody listens on (a server killed with SIGKILL) is replaced, as documented.
    @Test func aStaleSocketIsReplaced() async throws {
        let dead = try ServedSimulator(.unix)
        guard case .unix(let path) = dead.address else { Issue.record("not unix"); return }
        let dir = dead.directory
        kill(dead.process.processIdentifier, SIGKILL)
        dead.process.waitUntilExit()
        #expect(BridgeSocket.notASocket(path) == nil && FileManager.default.fileExists(atPath: path))
        let again = try ServedSimulator(.custom("unix:" + path))
        defer { again.stop(); try? FileManager.default.removeItem(at: dir) }
        let client = try await again.client(clock: VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000)))
        defer { client.shutdown() }
        #expect(try await client.identify().serial == "SIM-287-0001")
    }

    /// A client given a path that is not a socket says what it is (it said "Connection refused").
    @Test func aClientSaysWhatAPathIsWhenItIsNotASocket() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("plain")
        try Data().write(to: file)
        for (path, what) in [(file.path, "is a regular file, not a socket"), (dir.path, "is a directory, not a socket")] {
            let r = try Corsano.run(["bracelet", "repair", "--no-state", "--bracelet", "unix:" + path])
            #expect(r.status == 69)
            #expect(r.stderr.contains("unix:\(path): \(what)"), "\(r.stderr)")
            #expect(throws: BraceletError.unavailable("unix:\(path): \(what)")) {
                _ = try BridgeClient.connect(.unix(path: path), requestTimeout: 1)
            }
        }
    }
}
