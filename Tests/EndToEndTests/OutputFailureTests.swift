import CorsanoKit
import Foundation
import Testing

/// Output that cannot be written (docs/design.md "Exit status"): a full disk is 74 with a message naming
/// the stream, never 0; a reader closing stdout during a flow cancels it with the plan restored
/// (docs/design.md "Plan safety"), then 141 quietly.
@Suite struct OutputFailureTests {
    typealias E = BPInitE2E

    /// `corsano ARGS > /dev/full` (every write fails with ENOSPC), fed `stdin`.
    static func toFullDisk(_ args: [String], stdin: String) throws -> Shell.Outcome {
        try Shell.run("bash", ["-c", #""$0" "$@" > /dev/full"#, Corsano.binary.path] + args, stdin: stdin)
    }

    static let enospc = "corsano: stdout: No space left on device"

    @Test func cuffIngestToAFullDiskIs74AndWritesNothingItClaims() throws {
        let session = Corsano.packageRoot.appendingPathComponent("examples/session-replay.jsonl").path
        let r = try Self.toFullDisk(["cuff", "ingest", "--anchor-device", "2025-01-01T00:03:10",
                                     "--anchor-phone", "2026-11-29T10:00:05Z", session], stdin: "")
        #expect(r.status == 74)
        #expect(r.stderr == "corsano: cuff ingest: read 5, written 0, skipped 0, dropped 0, rejected 0, unwritten 5\n" + Self.enospc + "\n")
    }

    /// A CSV export whose output fails mid-file (the early stop) still names its layout in the
    /// summary, as a run that reached the end does.
    @Test func aCSVStoppedByAFullDiskStillNamesItsLayout() throws {
        let rows = (0..<20_000).map { i in String(format: "2026-11-%02d %02d:%02d:14,79,124,61,0,0", 1 + i / 1440 % 28, i / 60 % 24, i % 60) }
        let r = try Self.toFullDisk(["cuff", "ingest", "--tz", "UTC"], stdin: "datetime,dia,sys,bpm,mov,ihb\n" + rows.joined(separator: "\n") + "\n")
        #expect(r.status == 74)
        #expect(r.stderr.contains("; layout: omblepy\n"), "\(r.stderr)")
        #expect(!r.stderr.contains("read 20000"), "stopped early: \(r.stderr)")
    }

    /// Issue 18: the claims of the lines a full disk lost are given back, so the next run hands
    /// those readings on instead of dropping them as duplicates.
    @Test func replayFilterToAFullDiskIs74AndReleasesTheClaimsOfUnwrittenLines() throws {
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let args = ["replay-filter", "--state", state] + E.now
        let r = try Self.toFullDisk(args, stdin: E.ingestedSession)
        #expect(r.status == 74)
        #expect(r.stderr.hasSuffix("corsano: replay-filter: read 5, written 0, skipped 0, dropped 3 (duplicate: 1, stale: 2), rejected 0, "
                                   + "unwritten 2, released 2\n" + Self.enospc + "\n"), "\(r.stderr)")
        let again = try Corsano.run(args, stdin: E.ingestedSession)
        #expect(again.status == 0)
        #expect(again.stdout.split(separator: "\n").count == 2)
        #expect(again.stderr.hasSuffix("corsano: replay-filter: read 5, written 2, skipped 0, dropped 3 (duplicate: 1, stale: 2), rejected 0\n"))
    }

    /// Issue 18's rule when the reader closes stdout (`| head -1`): the run still ends at 141
    /// quietly, but first gives back the claims of the lines the pipe never took, so the next run
    /// hands on every reading but those (at most what the reader read and the pipe held, 64 KiB
    /// each). Before issue 18 it ended at once and kept the claims of its whole batch for good;
    /// a batch is now at most one 64 KiB write of kept lines.
    @Test func replayFilterToAClosedPipeIs141AndReleasesTheClaimsOfUnwrittenLines() throws {
        let directory = try E.directory()
        let state = directory.appendingPathComponent("state.sqlite3").path
        let input = directory.appendingPathComponent("in.jsonl")
        let lines = (0..<20_000).map { i in
            #"{"systolic":\#(100 + i % 80),"diastolic":\#(60 + i % 20),"pulse":\#(50 + i % 40),"measuredAt":"\#(RFC3339.format(Instant(secondsSinceEpoch: 1_795_000_000 + Int64(i) * 60)))","isManualEntry":false}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let args = ["replay-filter", "--state", state, "--max-reading-age", "none", input.path]
        let r = try Shell.run("bash", ["-c", #""$0" "$@" | head -1 >/dev/null; echo "${PIPESTATUS[0]}""#, Corsano.binary.path] + args)
        #expect(r.stdout == "141\n")
        #expect(r.stderr.withoutNewStoreNotice == "")
        let again = try Corsano.run(args)
        #expect(again.status == 0)
        let held = lines.count - again.stdout.split(separator: "\n").count
        // What the reader read (head: one buffer) and what the pipe held when it closed, 64 KiB each at most.
        let pipeLines = 1 + 2 * 65_536 / lines.map(\.utf8.count).min()!
        #expect(held >= 1 && held <= pipeLines, "\(held) readings dropped as duplicates, at most \(pipeLines) could reach the reader")
    }

    /// A release that fails too (the store locked by another writer past the busy timeout) is
    /// counted as `unreleased`, still 74.
    @Test func aFailedReleaseIsCountedUnreleased() throws {
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let args = ["replay-filter", "--state", state] + E.now
        // The write lock is taken by a trigger the moment the claims commit: a second connection
        // cannot be timed from outside, so the claims' own commit makes the store refuse deletes.
        let store = try SQLiteStore(path: state)
        try store.execute("CREATE TRIGGER no_release BEFORE DELETE ON seen_reading BEGIN SELECT RAISE(ABORT, 'held'); END")
        let r = try Self.toFullDisk(args, stdin: E.ingestedSession)
        #expect(r.status == 74)
        #expect(r.stderr.contains("replay-filter: the claims of 2 unwritten lines could not be released: "), "\(r.stderr)")
        #expect(r.stderr.hasSuffix("rejected 0, unwritten 2, unreleased 2\n" + Self.enospc + "\n"), "\(r.stderr)")
    }

    @Test func bpInitToAFullDiskIs74() throws {
        let r = try Self.toFullDisk(["bp-init", "--no-state"] + E.now, stdin: E.sixReadings)
        #expect(r.status == 74)
        #expect(r.stderr == "corsano: bp-init: read 2, fed 2, dropped 0\n" + Self.enospc + "\n")
    }

    @Test func usageErrorKeepsItsStatusBeforeTheFullDisk() throws {
        let r = try Self.toFullDisk(["replay-filter", "--max-reading-age", "soon"], stdin: "")
        #expect(r.status == 64)
        #expect(r.stderr.contains("--max-reading-age"))
        #expect(!r.stderr.contains("No space left"))
    }

    /// `bp-init | head -1` at the measuring step: the plan is switched and the flow waits for
    /// the cuff (a FIFO); stdout's reader then goes and the readings arrive, so the next event
    /// meets EPIPE. Returns the exit status and stderr.
    static func closeStdoutAtMeasuring(_ args: [String], script: String, server: ServedSimulator) async throws
        -> (status: Int32, stderr: String) {
        let cuff = try E.directory().appendingPathComponent("cuff.fifo").path
        #expect(mkfifo(cuff, 0o600) == 0)
        let process = Process()
        process.executableURL = Corsano.binary
        process.arguments = args.map { $0 == "CUFF" ? cuff : $0 }
        var environment = Corsano.inherited
        environment["XDG_STATE_HOME"] = try E.directory().path
        process.environment = environment
        // Close-on-exec pipes: a process another test spawns meanwhile must not inherit (and keep
        // open) the read end of stdout, or the write never fails with EPIPE.
        let (input, output, errors) = try Self.runOnPipes(process)
        try input.write(contentsOf: Data(script.replacingOccurrences(of: "CUFF", with: cuff).utf8))
        try input.close()
        // Opening a FIFO waits for its other end: corsano opens it at start, before any event.
        let fifo = open(cuff, O_WRONLY | O_CLOEXEC)
        #expect(fifo >= 0)
        let writer = FileHandle(fileDescriptor: fifo, closeOnDealloc: false)
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(#""step":"measuring""#) {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        #expect(String(decoding: seen, as: UTF8.self).contains(#""step":"measuring""#))
        #expect(try await BPInitServedTests.plan(of: server) == .nibpCalibration)
        try output.close()
        try writer.write(contentsOf: Data(E.sixReadings.utf8))
        try writer.close()
        let stderr = errors.readDataToEndOfFile()
        try errors.close()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }

    /// Runs `process` with stdin, stdout and stderr on close-on-exec pipes (see `pipe()`), the
    /// child's ends closed here once it started; returns this side's ends: stdin's write end,
    /// stdout's and stderr's read ends.
    static func runOnPipes(_ process: Process) throws -> (input: FileHandle, output: FileHandle, errors: FileHandle) {
        let input = try pipe(), output = try pipe(), errors = try pipe()
        process.standardInput = input.read
        process.standardOutput = output.write
        process.standardError = errors.write
        try process.run()
        try input.read.close()
        try output.write.close()
        try errors.write.close()
        return (input.write, output.read, errors.read)
    }

    /// A pipe whose two ends are closed on exec (the child gets its end through dup2).
    static func pipe() throws -> (read: FileHandle, write: FileHandle) {
        var ends: [Int32] = [-1, -1]
        guard systemPipe2(&ends, O_CLOEXEC) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return (FileHandle(fileDescriptor: ends[0], closeOnDealloc: false), FileHandle(fileDescriptor: ends[1], closeOnDealloc: false))
    }

    @Test func closedStdoutDuringTheFlowRestoresTheServedPlanAndExits141() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        for _ in 1...3 {
            let r = try await Self.closeStdoutAtMeasuring(["bp-init", "--bracelet", server.listening, "--no-state", "--cuff", "CUFF"]
                                                          + E.now, script: "", server: server)
            #expect(r.status == 141)
            #expect(r.stderr == "")
            #expect(try await BPInitServedTests.plan(of: server) == BraceletPlan("monitoring"))
        }
    }

    /// The REPL runs the flow in-process: the same cancellation, and the session ends with 141.
    @Test func closedStdoutDuringAFlowInTheREPLRestoresThePlanAndExits141() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let line = (["bp-init", "--bracelet", server.listening, "--no-state", "--cuff", "CUFF"] + E.now).joined(separator: " ")
        let r = try await Self.closeStdoutAtMeasuring(["repl", "--no-state"], script: line + "\nstatus\n", server: server)
        #expect(r.status == 141)
        #expect(r.stderr == "")
        #expect(try await BPInitServedTests.plan(of: server) == BraceletPlan("monitoring"))
    }

    /// Outside a flow a closed stdout still ends the run at once, quietly.
    @Test func closedStdoutOutsideAFlowIs141() throws {
        let r = try Shell.run("bash", ["-c", #"yes '{"systolic":120,"diastolic":80,"pulse":60}' | head -100000 | "$0" cuff ingest | head -1 >/dev/null; echo "${PIPESTATUS[2]}""#,
                                       Corsano.binary.path], stdin: "")
        #expect(r.stdout == "141\n")
        #expect(r.stderr == "")
    }
}

/// glibc's pipe2(2), which the Glibc module does not export (it needs _GNU_SOURCE).
@_silgen_name("pipe2")
private func systemPipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// `cuff ingest --format fhir` to a full disk counts readings, not resource lines: it said
/// "read 2, written 0, ..., unwritten 4" (two resources a reading) and, with --bundle,
/// "written 1, unwritten 1" though the one Bundle line was lost.
@Suite struct FHIROutputFailureTests {
    @Test(arguments: [[String](), ["--bundle"]])
    func readingsLostToAFullDiskAreCountedAsReadings(extra: [String]) throws {
        let sbm69 = Corsano.fixtures.appendingPathComponent("csv/sbm69.csv").path
        let r = try OutputFailureTests.toFullDisk(["cuff", "ingest", "--format", "fhir", "--tz", "UTC"] + extra + [sbm69], stdin: "")
        #expect(r.status == 74)
        #expect(r.stderr.contains("read 2, written 0, skipped 0, dropped 0, rejected 0, unwritten 2"), "\(r.stderr)")
        #expect(r.stderr.hasSuffix(OutputFailureTests.enospc + "\n"))
    }
}
