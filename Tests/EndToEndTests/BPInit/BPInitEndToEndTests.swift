import CorsanoKit
import Foundation
import Testing

/// `corsano bp-init` and `corsano history` with the built binary (issue 5 "Show").
@Suite struct BPInitEndToEndTests {
    typealias E = BPInitE2E

    @Test func fixtureSessionDropsReplaysAndSucceedsWithTwo() throws {
        let r = try Corsano.run(["bp-init"] + E.now + ["--no-state"], stdin: E.ingestedSession)
        #expect(r.status == 0)
        #expect(E.result(r.lines) == #"{"kind":"success","measurementCount":2}"#)
        #expect(E.dropReasons(r.lines) == ["replayed", "replayed", "duplicate"])
        #expect(E.collected(r.lines) == [[1, 1, 128], [1, 2, 124]])
        #expect(E.names(r.lines) == ["started", "step", "step", "cuffReadingDropped", "cuffReadingDropped", "measurement",
                                     "step", "step", "cuffReadingDropped", "measurement", "step", "attempt",
                                     "planRestored", "step", "readings", "finished"])
        #expect(r.lines.last?.hasSuffix(#""at":"2026-11-29T10:02:55Z","bracelet":"SIM-287-0001","result":{"kind":"success","measurementCount":2}}"#) == true)
        // Every event names the bracelet, so the logs of parallel runs can be split.
        #expect(r.lines.allSatisfy { $0.contains(#","bracelet":"SIM-287-0001","#) })
        // The closing counts: what was read, fed and dropped by reason.
        #expect(r.stderr == "corsano: bp-init: read 5, fed 2, dropped 3 (replayed: 2, duplicate: 1)\n")
    }

    /// The README's first command: the shipped dump (a copy of the fixture
    /// jsonl/session-replay.jsonl) through `cuff ingest` with its anchor into bp-init.
    @Test func readmePipelineOnTheFixtureSucceeds() throws {
        let path = Corsano.packageRoot.appendingPathComponent("examples/session-replay.jsonl").path
        try #require(FileManager.default.fileExists(atPath: path))
        let bin = "'" + Corsano.binary.path + "'"
        let r = try Shell.run("sh", ["-c", "\(bin) cuff ingest --anchor-device 2025-01-01T00:03:10 --anchor-phone 2026-11-29T10:00:05Z '\(path)' | \(bin) bp-init --now 2026-11-29T10:00:30Z --no-state"],
                              env: ["XDG_STATE_HOME": try E.directory().path])
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(r.status == 0)
        #expect(E.result(lines) == #"{"kind":"success","measurementCount":2}"#)
        #expect(E.dropReasons(lines) == ["replayed", "replayed", "duplicate"])
        #expect(E.collected(lines) == [[1, 1, 128], [1, 2, 124]])
    }

    @Test func sameCommandTwiceWithTheDefaultStoreSucceedsTwiceAndHistoryListsBoth() throws {
        let state = try E.directory()
        let env = ["XDG_STATE_HOME": state.path]
        let wallBefore = RFC3339.format(Instant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970)))
        for _ in 1...2 {
            let r = try Corsano.run(["bp-init"] + E.now, stdin: E.ingestedSession, env: env)
            #expect(r.status == 0)
            #expect(E.result(r.lines) == #"{"kind":"success","measurementCount":2}"#)
        }
        #expect(FileManager.default.fileExists(atPath: state.path + "/corsano/state.sqlite3"))
        let history = try Corsano.run(["history", "--json"], env: env)
        #expect(history.status == 0)
        let runs = E.events(history.lines)
        #expect(runs.count == 2)
        for run in runs {
            #expect((run["bracelet"] as? [String: Any])?["serial"] as? String == "SIM-287-0001")
            // The audit log dates a run by the wall clock, not by --now's virtual clock.
            #expect((run["startedAt"] as? String ?? "") >= wallBefore, "\(run)")
            let readings = run["readings"] as? [[String: Any]] ?? []
            #expect(readings.map { ($0["reading"] as? [String: Any])?["systolic"] as? Int } == [128, 124])
            #expect(readings.map { $0["braceletAccepted"] as? Bool } == [true, true])
            #expect((run["result"] as? [String: Any])?["measurementCount"] as? Int == 2)
        }
        let text = try Corsano.run(["history", "--text"], env: env)
        #expect(text.stdout.contains("1.1  128/82 mmHg, pulse 66 bpm  accepted  measured 2026-11-29T10:00:55Z"))
        #expect(text.stdout.contains("Result: calibrated, measurements: 2"))
        let none = try Corsano.run(["history", "--json", "--bracelet", "SIM-OTHER"], env: env)
        #expect(none.status == 0 && none.stdout.isEmpty)
        let later = try Corsano.run(["history", "--json", "--since", "2099-01-01T00:00:00Z"], env: env)
        #expect(later.stdout.isEmpty)
        let since = try Corsano.run(["history", "--json", "--since", wallBefore], env: env)
        #expect(since.lines.count == 2)
    }

    @Test func cuffErrorLineEndsWithCuffError() throws {
        for (line, error) in [(#"{"error":"cuffDisconnected"}"#, #"{"kind":"cuffDisconnected"}"#),
                              (#"{"error":"noReading"}"#, #"{"kind":"noReading"}"#),
                              (#"{"error":"cuff overheated"}"#, #"{"kind":"unknown","message":"cuff overheated"}"#)] {
            let r = try Corsano.run(["bp-init", "--no-state"], stdin: line + "\n")
            #expect(r.status == 3)
            #expect(E.result(r.lines) == #"{"error":"# + error + #","kind":"cuffError"}"#)
            #expect(E.names(r.lines).suffix(2) == ["readings", "finished"])
        }
    }

    @Test func endOfInputIsNoReading() throws {
        let r = try Corsano.run(["bp-init"] + E.now + ["--no-state"],
                                stdin: #"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:01:00Z"}"# + "\n")
        #expect(r.status == 3)
        #expect(E.result(r.lines) == #"{"error":{"kind":"noReading"},"kind":"cuffError"}"#)
        #expect(E.collected(r.lines) == [[1, 1, 121]])
        #expect(r.lines.contains { $0.contains(#""event":"planRestored""#) })
    }

    /// Issue 30: typed entries stamped last year (an export's `isManualEntry: true`) are records
    /// of the past: dropped as replayed, so they never calibrate the bracelet (they did: exit 0).
    @Test func stampedManualEntriesFromLastYearAreDroppedAsReplayed() throws {
        let typed = #"{"systolic":128,"diastolic":82,"pulse":66,"measuredAt":"2025-01-01T09:00:00Z","isManualEntry":true}"# + "\n"
            + #"{"systolic":124,"diastolic":80,"pulse":64,"measuredAt":"2025-01-01T09:05:00Z","isManualEntry":true}"# + "\n"
        let r = try Corsano.run(["bp-init", "--now", "2026-11-29T10:00:00Z", "--no-state"], stdin: typed)
        #expect(r.status == 3)
        #expect(E.dropReasons(r.lines) == ["replayed", "replayed"])
        #expect(E.result(r.lines) == #"{"error":{"kind":"noReading"},"kind":"cuffError"}"#)
        #expect(E.collected(r.lines).isEmpty)
    }

    @Test func malformedLineIsReportedAndTheFlowStillSucceeds() throws {
        let r = try Corsano.run(["bp-init"] + E.now + ["--no-state"],
                                stdin: #"{"systolic":"high","diastolic":80}"# + "\n" + E.ingestedSession)
        #expect(r.status == 0)
        #expect(E.dropReasons(r.lines).first == "invalid")
        #expect(r.stderr.contains(#"<stdin>:1: field "systolic": not an integer"#))
    }

    @Test func staleFutureReadingEndsTheFlowWithItsNegativeAge() throws {
        let r = try Corsano.run(["bp-init"] + E.now + ["--no-state"],
                                stdin: #"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2029-11-28T10:00:30Z"}"# + "\n")
        #expect(r.status == 3)
        #expect(E.result(r.lines) == #"{"error":{"age":-94608000,"kind":"staleReading"},"kind":"cuffError"}"#)
        #expect(E.collected(r.lines).isEmpty)
    }

    @Test func unpairedCuffOpensOnPairingAndThePairHookCanFixIt() throws {
        let dir = try E.directory()
        let flag = dir.appendingPathComponent("paired").path
        let unpaired = try Corsano.run(["bp-init", "--no-state", "--cuff-paired-cmd", "test -e '\(flag)'"],
                                       stdin: E.ingestedSession)
        #expect(unpaired.status == 3)
        #expect(E.steps(unpaired.lines) == ["needsCuffPairing"])
        #expect(E.result(unpaired.lines) == #"{"error":{"kind":"cuffDisconnected"},"kind":"cuffError"}"#)
        let paired = try Corsano.run(["bp-init"] + E.now + ["--no-state", "--cuff-paired-cmd", "test -e '\(flag)'",
                                                             "--pair-cmd", "touch '\(flag)'"], stdin: E.ingestedSession)
        #expect(paired.status == 0)
        #expect(E.steps(paired.lines).prefix(2) == ["needsCuffPairing", "instructions"])
    }

    @Test func cuffCommandRunsOncePerMeasurement() throws {
        let dir = try E.directory()
        let readings = try E.file(dir, "readings.jsonl", E.sixReadings)
        let counter = dir.appendingPathComponent("count").path
        // Each run prints an old replayed record first, then the next live reading.
        let command = "n=$(cat '\(counter)' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '\(counter)'; "
            + #"echo '{"systolic":150,"diastolic":95,"pulse":80,"measuredAt":"2026-11-29T08:00:00Z"}'; "#
            + "sed -n \"${n}p\" '\(readings)'"
        let r = try Corsano.run(["bp-init"] + E.now + ["--no-state", "--cuff-cmd", command])
        #expect(r.status == 0)
        #expect(E.collected(r.lines) == [[1, 1, 119], [1, 2, 120]])
        #expect(E.dropReasons(r.lines) == ["replayed", "replayed"])
        #expect(try String(contentsOfFile: counter, encoding: .utf8) == "2\n")
        let failing = try Corsano.run(["bp-init", "--no-state", "--cuff-cmd", "echo nothing >&2; exit 2"])
        #expect(failing.status == 3)
        #expect(failing.stderr.contains("--cuff-cmd exited with status 2"))
        #expect(E.result(failing.lines) == #"{"error":{"kind":"noReading"},"kind":"cuffError"}"#)
    }

    @Test func cuffTimeoutEndsASilentWaitAsNoReading() throws {
        let dir = try E.directory()
        let reported = dir.appendingPathComponent("pgid").path
        // The command outlives the limit; it must be terminated with its children, not left behind.
        let slow = try Corsano.run(["bp-init", "--no-state", "--cuff-cmd", E.lingeringCuffCommand(reportingTo: reported),
                                    "--cuff-timeout", "1"])
        #expect(slow.status == 3)
        #expect(slow.stderr.contains("--cuff-cmd gave no reading within --cuff-timeout"))
        #expect(E.result(slow.lines) == #"{"error":{"kind":"noReading"},"kind":"cuffError"}"#)
        let pgid = try #require(E.reportedGroup(reported), "the cuff command never ran")
        E.expectGone(group: pgid)
        let silent = try LiveCorsano(["bp-init", "--no-state", "--cuff-timeout", "1"], env: [:])
        let (status, lines, _) = silent.finish()  // stdin stays open and silent until the exit
        #expect(status == 3)
        #expect(E.result(lines) == #"{"error":{"kind":"noReading"},"kind":"cuffError"}"#)
    }

    @Test func retriesAndExhaustedBudgetExitOne() throws {
        let dir = try E.directory()
        let scenario = try E.file(dir, "s.json", #"{"nibp":{"attempts":[{"session":false},{"session":false},{"session":false}]}}"#)
        let r = try Corsano.run(["bp-init", "--bracelet", "sim:" + scenario] + E.now + ["--no-state"], stdin: E.sixReadings)
        #expect(r.status == 1)
        #expect(E.result(r.lines) == #"{"attemptCount":3,"kind":"failedAfterRetries"}"#)
        #expect(E.steps(r.lines).filter { $0 == "retryPrompt" }.count == 2)
        #expect(E.collected(r.lines).count == 6)
        let once = try Corsano.run(["bp-init", "--bracelet", "sim:" + scenario, "--max-attempts", "1"] + E.now + ["--no-state"],
                                   stdin: E.sixReadings)
        #expect(once.status == 1)
        #expect(E.result(once.lines) == #"{"attemptCount":1,"kind":"failedAfterRetries"}"#)
        #expect(!E.steps(once.lines).contains("retryPrompt"))
    }

    @Test func wrongModelIsRefusedWithSixtyNine() throws {
        let dir = try E.directory()
        let scenario = try E.file(dir, "s.json", #"{"model":"287-1"}"#)
        let r = try Corsano.run(["bp-init", "--bracelet", "sim:" + scenario, "--no-state"], stdin: E.ingestedSession)
        #expect(r.status == 69)
        #expect(r.stderr.contains("287-1"))
        #expect(r.stdout.isEmpty)
    }

    @Test func usageAndInputErrorsComeFirst() throws {
        let both = try Corsano.run(["bp-init", "--no-state", "--cuff", "-", "--cuff-cmd", "true"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--cuff-cmd"))
        let realNow = try Corsano.run(["bp-init", "--no-state", "--clock", "real", "--now", "2026-11-29T10:00:00Z"])
        #expect(realNow.status == 64)
        let missing = try Corsano.run(["bp-init", "--no-state", "--cuff", "/nonexistent/cuff.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/cuff.jsonl"))
        let zero = try Corsano.run(["bp-init", "--no-state", "--cuff-timeout", "0"])
        #expect(zero.status == 64)
        #expect(zero.stderr.contains("--cuff-timeout"))
    }
}
