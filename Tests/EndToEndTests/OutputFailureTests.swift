import CorsanoKit
import Foundation
import Testing

/// Output that cannot be written (DESIGN "Exit status"): a full disk is 74 with a message naming
/// the stream, never 0; a reader closing stdout during a flow cancels it with the plan restored
/// (DESIGN "Plan safety"), then 141 quietly.
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
        #expect(r.stderr == "corsano: cuff ingest: read 5, written 0, skipped 0, rejected 0, unwritten 5\n" + Self.enospc + "\n")
    }

    @Test func replayFilterToAFullDiskIs74AndItsCommittedKeysStay() throws {
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let args = ["replay-filter", "--state", state] + E.now
        let r = try Self.toFullDisk(args, stdin: E.ingestedSession)
        #expect(r.status == 74)
        #expect(r.stderr.hasSuffix("replay-filter: read 5, emitted 0, dropped 3 (duplicate 1, stale 2), malformed 0, unwritten 2\n"
                                   + Self.enospc + "\n"), "\(r.stderr)")
        // DESIGN "State store": the keys were committed before the lines were lost; loud, not silent.
        let again = try Corsano.run(args, stdin: E.ingestedSession)
        #expect(again.status == 0)
        #expect(again.stdout == "")
        #expect(again.stderr.hasSuffix("replay-filter: read 5, emitted 0, dropped 5 (duplicate 3, stale 2), malformed 0\n"))
    }

    @Test func bpInitToAFullDiskIs74() throws {
        let r = try Self.toFullDisk(["bp-init", "--no-state"] + E.now, stdin: E.sixReadings)
        #expect(r.status == 74)
        #expect(r.stderr == Self.enospc + "\n")
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
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = try E.directory().path
        process.environment = environment
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data(script.replacingOccurrences(of: "CUFF", with: cuff).utf8))
        try input.fileHandleForWriting.close()
        // Opening a FIFO waits for its other end: corsano opens it at start, before any event.
        let writer = try #require(FileHandle(forWritingAtPath: cuff))
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(#""step":"measuring""#) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        #expect(String(decoding: seen, as: UTF8.self).contains(#""step":"measuring""#))
        #expect(try await BPInitServedTests.plan(of: server) == .nibpCalibration)
        try output.fileHandleForReading.close()
        try writer.write(contentsOf: Data(E.sixReadings.utf8))
        try writer.close()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
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
