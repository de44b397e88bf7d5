@testable import CorsanoKit
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a crash can lose (issue 28): claims are committed per write of at most 64 KiB, so a
/// SIGKILL while a slow reader holds the pipe full, or a reader that goes (`| head`), loses at
/// most one write's lines, and no rerun hands a reading on twice. Counted against the input.
@Suite struct ReplayFilterCrashTests {
    typealias E = BPInitE2E
    /// `ReplayFilterPass.writeBytes`: the most bytes one kill may lose.
    static let writeBytes = 1 << 16

    /// `count` distinct readings, one a line.
    static func input(_ dir: URL, count: Int) throws -> (path: String, lines: [String]) {
        let lines = (0..<count).map(PostgresEndToEndTests.reading)
        return (try E.file(dir, "in.jsonl", lines.joined(separator: "\n") + "\n"), lines)
    }

    /// The complete lines of `bytes` (a torn last line, cut by a kill, is not a line).
    static func completeLines(_ bytes: [UInt8]) -> [String] {
        guard let end = bytes.lastIndex(of: 0x0A) else { return [] }
        return bytes[..<end].split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Asserts that `received` (every run's complete lines) holds no input line twice and
    /// misses at most `kills` writes' worth of the input's bytes; returns the lines missed.
    @discardableResult
    static func expectBounded(_ received: [String], input: [String], kills: Int) -> Int {
        var seen: [String: Int] = [:]
        for line in received { seen[line, default: 0] += 1 }
        let twice = seen.filter { $0.value > 1 }
        #expect(twice.isEmpty, "\(twice.count) readings handed on twice")
        #expect(Set(received).isSubset(of: Set(input)), "only input lines")
        let missing = input.filter { seen[$0] == nil }
        let missingBytes = missing.reduce(0) { $0 + $1.utf8.count + 1 }
        #expect(missingBytes <= kills * writeBytes,
                "\(missing.count) lines (\(missingBytes) bytes) lost in \(kills) kills; at most \(kills * writeBytes) bytes")
        return missing.count
    }

    @Test func aSIGKILLWithASlowReaderLosesAtMostOneWriteAndNothingTwice() throws {
        let dir = try E.directory()
        let (file, lines) = try Self.input(dir, count: 30_000)
        let state = dir.appendingPathComponent("state.sqlite3").path
        let args = ["replay-filter", "--state", state, "--max-reading-age", "none", file]
        var received: [String] = []
        let kills = 4
        for round in 0..<kills {
            let run = try PipedCorsano(args)
            // The reader takes some output, then stalls: the run blocks writing with the pipe full.
            _ = run.read(bytes: 40_000 + round * 150_000, into: &received)
            #expect(Wait.until(seconds: 30) { run.blockedWritingStdout }, "the run never blocked on the full pipe")
            kill(run.pid, SIGKILL)
            received += Self.completeLines(run.drain())  // what was in the pipe still arrives
            #expect(run.wait() == 128 + SIGKILL)
        }
        let last = try Corsano.run(args)
        #expect(last.status == 0, "\(last.stderr)")
        received += last.lines
        let lost = Self.expectBounded(received, input: lines, kills: kills)
        print("replay-filter crash: \(kills) SIGKILLs with a slow reader lost \(lost) of \(lines.count) lines")
    }

    @Test func aReaderThatGoesLosesAtMostThePipesBufferAndNothingTwice() throws {
        let dir = try E.directory()
        let (file, lines) = try Self.input(dir, count: 30_000)
        let state = dir.appendingPathComponent("state.sqlite3").path
        let args = ["replay-filter", "--state", state, "--max-reading-age", "none", file]
        let head = try Shell.capture(
            { let p = Process(); p.executableURL = URL(fileURLWithPath: "/bin/sh")
              p.arguments = ["-c", "\"$0\" \"$@\" | head -n 5000", Corsano.binary.path] + args
              p.environment = Corsano.inherited.merging(["NO_COLOR": "1"]) { $1 }
              return p }(), stdin: "")
        #expect(head.status == 0)
        var received = Self.completeLines(Array(head.stdout.utf8))
        #expect(received.count == 5000)
        let rest = try Corsano.run(args)
        #expect(rest.status == 0, "\(rest.stderr)")
        received += rest.lines
        let lost = Self.expectBounded(received, input: lines, kills: 1)
        print("replay-filter crash: | head -n 5000 lost \(lost) of \(lines.count) lines")
    }
}

/// `corsano ARGS` with stdout on a pipe the test reads when it wants (a slow reader), stdin and
/// stderr on /dev/null.
final class PipedCorsano {
    let pid: pid_t
    private let fd: Int32

    init(_ args: [String], env: [String: String] = [:]) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addclose(&actions, fds[1])
        var environment = Corsano.inherited
        environment["NO_COLOR"] = "1"
        for (k, v) in env { environment[k] = v }
        let argv = ([Corsano.binary.path] + args).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, Corsano.binary.path, &actions, nil, argv, envp)
        close(fds[1])
        guard rc == 0 else { close(fds[0]); throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
        self.pid = pid
        fd = fds[0]
    }

    deinit { close(fd) }

    /// Reads at least `bytes` (or to the end), appending the complete lines to `lines`; returns the bytes read.
    @discardableResult
    func read(bytes: Int, into lines: inout [String]) -> Int {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while data.count < bytes {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            data += chunk[..<n]
        }
        // Finish the line in progress, so the next read starts at a line.
        while let last = data.last, last != 0x0A {
            let n = Glibc.read(fd, &chunk, 1)
            if n <= 0 { break }
            data.append(chunk[0])
        }
        lines += ReplayFilterCrashTests.completeLines(data)
        return data.count
    }

    /// Whether a thread of the process is blocked in `write(1, …)` (Linux /proc/PID/task/TID/syscall:
    /// the call's number, 1 on x86-64, and its first argument), with the pipe full.
    var blockedWritingStdout: Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.contains { task in
            let call = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/syscall", encoding: .utf8)) ?? ""
            return call.hasPrefix("1 0x1 ")
        }
    }

    /// Everything left, to the end of the stream.
    func drain() -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return data }
            data += chunk[..<n]
        }
    }

    /// The exit status (128 + signal when killed).
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
