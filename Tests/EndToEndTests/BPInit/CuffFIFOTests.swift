import Foundation
import Testing

/// Inputs with a timeout are opened without blocking (docs/design.md "Commands and options"): a
/// FIFO nobody writes ends `bp-init --cuff FIFO` (and `validate --live`'s cuff) within
/// `--cuff-timeout` with `cuffError noReading` (3), where open(2) used to block for ever; a FIFO
/// whose writer comes later still feeds the run. Operand FIFOs of `cuff ingest` and
/// `replay-filter` keep blocking (pipelines rely on it) and say so at `-v`.
@Suite struct CuffFIFOTests {
    static func fifo() throws -> String {
        let path = try BPInitE2E.directory().appendingPathComponent("cuff.fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        return path
    }

    @Test func aFIFONobodyWritesEndsWithinTheCuffTimeout() throws {
        let path = try Self.fifo()
        let started = Date()
        let r = try Corsano.run(["bp-init", "--no-state", "--json", "--cuff", path, "--cuff-timeout", "3s"])
        let took = Date().timeIntervalSince(started)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(BPInitE2E.result(r.lines) == #"{"error":{"kind":"noReading"},"kind":"cuffError"}"#, "\(r.stdout)")
        #expect(took >= 3 && took < 20, "ended after \(took) s")
    }

    /// The writer may come after the run started: its readings are fed as from a file.
    @Test func aFIFOWhoseWriterComesLaterFeedsTheRun() throws {
        let path = try Self.fifo()
        let readings = BPInitE2E.sixReadings
        // The writer opens the FIFO (waiting for the reader) from a shell started beside the run.
        let r = try Shell.run("bash", ["-c", "printf '%s' \"$2\" > \"$1\" & exec \"$0\" bp-init --no-state --json --now 2026-11-29T10:00:30Z --cuff \"$1\" --cuff-timeout 20",
                                       Corsano.binary.path, path, readings])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(BPInitE2E.result(r.stdout.split(separator: "\n").map(String.init)) == #"{"kind":"success","measurementCount":2}"#, "\(r.stdout)")
    }

    /// `validate --live`'s reference cuff is bp-init's (`BPInitOptions.cuff`): the same bound.
    @Test func validateLiveWithAFIFONobodyWritesEndsWithinTheCuffTimeout() throws {
        let (server, dir) = try ValidateLiveCuffSourcesTests.calibrated()
        defer { server.stop(); try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/cuff.fifo"
        #expect(mkfifo(path, 0o600) == 0)
        let started = Date()
        let r = try Corsano.run(["validate", "--live", "--bracelet", server.listening, "--cuff", path, "--subject-id", "S1",
                                 "--now", ValidateLiveCuffSourcesTests.measuredAt, "--cuff-timeout", "3s"], env: server.clientEnvironment)
        let took = Date().timeIntervalSince(started)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stderr.contains("the reference cuff gave no reading"), "\(r.stderr)")
        #expect(took >= 3 && took < 30, "ended after \(took) s")
    }

    @Test func operandFIFOsBlockAndSaySoAtVerbose() throws {
        let path = try Self.fifo()
        let line = #"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:15:00Z"}"#
        for command in [["cuff", "ingest", "--from", "jsonl"], ["replay-filter", "--no-state", "--now", "2026-11-29T10:15:30Z"]] {
            let r = try Shell.run("bash", ["-c", "printf '%s\\n' \"$2\" > \"$1\" & exec \"$0\" \"${@:3}\" -v \"$1\"",
                                           Corsano.binary.path, path, line] + command)
            #expect(r.status == 0, "\(command): \(r.stderr)")
            #expect(r.stderr.contains("waiting for a writer on \(path)"), "\(command): \(r.stderr)")
            #expect(r.stdout.contains(#""systolic":121"#), "\(command): \(r.stdout)")
        }
    }
}
