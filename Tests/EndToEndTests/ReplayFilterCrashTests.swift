@testable import CorsanoKit
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a crash can lose: claims are committed per batch of at most 1 MiB, so a
/// SIGKILL while a slow reader holds the pipe full, or a reader that goes (`| head`), loses at
/// most one write's lines, and no rerun hands a reading on twice. Counted against the input.
@Suite struct ReplayFilterCrashTests {
    typealias E = BPInitE2E
    /// `CommitBatch.standard.bytes`: the most bytes one kill may lose.
    static let writeBytes = CommitBatch.standard.bytes

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
        // Each kill may lose a whole commit batch (1 MiB of kept lines): the input outlasts four
        // of them, so every round still has lines left to block on.
        let (file, lines) = try Self.input(dir, count: 100_000)
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

    /// The narrowest window of the protocol: the process dies right after a batch's commit was
    /// synced and before that batch's write to stdout. strace (Debian's `strace`) kills it with
    /// SIGKILL on entry to that write(2), so the write never runs, and its log shows the store's
    /// fdatasync as the call before. The batch's lines are lost (at most one batch: their claims
    /// are on disk), and a rerun hands on every other line exactly once.
    @Test func aKillRightAfterACommitsSyncAndBeforeItsWriteLosesAtMostOneBatchAndNothingTwice() throws {
        let dir = try E.directory()
        let (file, lines) = try Self.input(dir, count: 30_000)  // about 3 MB of kept lines: several batches
        func args(_ state: String) -> [String] {
            ["replay-filter", "--state", dir.appendingPathComponent(state).path, "--max-reading-age", "none", file]
        }
        // The same run on a store of its own, traced, says which write(2) call of which thread
        // is the second batch's write to stdout (the first that follows a sync, twice).
        let probeLog = dir.appendingPathComponent("probe.strace").path
        let probe = try Shell.run("strace", ["-f", "-o", probeLog, "-e", "trace=write,fdatasync,fsync", Corsano.binary.path] + args("probe.sqlite3"))
        #expect(probe.status == 0, "\(probe.stderr)")
        let calls = try Self.syscalls(probeLog)
        let batchWrites = calls.indices.filter { i in
            calls[i].call.hasPrefix("write(1,") && i > 0 && calls[..<i].last(where: { $0.tid == calls[i].tid })?.call.hasPrefix("fdatasync(") == true
        }
        try #require(batchWrites.count >= 2, "the probe wrote \(batchWrites.count) batches after a sync")
        let target = calls[batchWrites[1]]
        let nth = calls[...batchWrites[1]].filter { $0.tid == target.tid && $0.call.hasPrefix("write(") }.count

        let log = dir.appendingPathComponent("kill.strace").path
        let killed = try Shell.run("strace", ["-f", "-o", log, "-e", "trace=write,fdatasync,fsync",
                                              "-e", "inject=write:signal=KILL:when=\(nth)", Corsano.binary.path] + args("state.sqlite3"))
        // strace ends as its tracee did: killed by the same signal.
        #expect(killed.status == SIGKILL || killed.status == 128 + SIGKILL, "\(killed.status) \(killed.stderr)")
        let traced = try Self.syscalls(log)
        let victim = try #require(traced.last { $0.call.hasPrefix("write(1,") })
        #expect(victim.call.hasSuffix("= ?"), "the write to stdout never ran: \(victim.call)")
        let before = traced.filter { $0.tid == victim.tid }.dropLast().last
        #expect(before?.call.hasPrefix("fdatasync(") == true && before?.call.hasSuffix("= 0") == true,
                "the call before the write was the commit's sync: \(before?.call ?? "none")")
        var received = Self.completeLines(Array(killed.stdout.utf8))
        #expect(!received.isEmpty, "the first batch was written before the kill")

        let rerun = try Corsano.run(args("state.sqlite3"))
        #expect(rerun.status == 0, "\(rerun.stderr)")
        received += rerun.lines
        let lost = Self.expectBounded(received, input: lines, kills: 1)
        #expect(lost > 0, "the batch whose write was cut is lost, not handed on by the rerun")
        print("replay-filter crash: a kill between a commit's sync and its write lost \(lost) of \(lines.count) lines")
    }

    /// The calls of an strace log (`-f -o`: `TID call(args) = result` a line), unfinished and
    /// resumed halves joined; signals and exits left out.
    static func syscalls(_ path: String) throws -> [(tid: String, call: String)] {
        var calls: [(tid: String, call: String)] = []
        var open: [String: String] = [:]
        for row in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let parts = row.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard parts.count == 2 else { continue }
            let tid = String(parts[0]), rest = parts[1].trimmingCharacters(in: .whitespaces)
            if rest.hasPrefix("---") || rest.hasPrefix("+++") { continue }
            if rest.hasSuffix("<unfinished ...>") {
                open[tid] = String(rest.dropLast("<unfinished ...>".count))
            } else if rest.hasPrefix("<..."), let start = open.removeValue(forKey: tid), let cut = rest.range(of: "resumed>") {
                calls.append((tid, start + rest[cut.upperBound...]))
            } else {
                calls.append((tid, rest))
            }
        }
        for (tid, start) in open { calls.append((tid, start + "= ?")) }
        return calls
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
