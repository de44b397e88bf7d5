import CorsanoKit
import Foundation
import TestSupport
import Testing

/// The bracelet port end to end: the real binary against `corsano bracelet serve` — plan safety
/// after SIGKILL, the `exec:` transport, and the connector's choices and refusals.
@Suite struct BraceletEndToEndTests {
    static let now = "2026-11-29T10:00:00Z"
    static let readings = """
        {"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:00:40Z"}
        {"systolic":119,"diastolic":78,"pulse":66,"measuredAt":"2026-11-29T10:01:40Z"}

        """

    /// Runs `body`, failing instead of hanging when it takes longer than `seconds`.
    static func within<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                throw BraceletError.unavailable("gave up after \(seconds) s")
            }
            defer { group.cancelAll() }
            return try #require(try await group.next())
        }
    }

    @Test func aRunKilledInCalibrationIsRepairedByTheNextCommand() async throws {
        let server = try ServedSimulator(.unix, scenario: Scenario(
            serial: "JRNL-1", faults: FaultScenario(holdAtStep: HoldPoint(flow: "bp-init", step: "measuring"))))
        defer { server.stop() }
        let state = server.directory.appendingPathComponent("state.sqlite3").path
        let args = ["bp-init", "--bracelet", server.listening, "--state", state, "--now", Self.now, "--no-preparation", "--cuff", "-"]
        let observer = try await server.client(clock: VirtualClock(start: Instant(secondsSinceEpoch: 0)))
        defer { observer.shutdown() }

        let doomed = try LiveCorsano(args, env: [:])
        // Never hang the suite: off the cooperative pool, end both processes after 60 s.
        let (doomedRun, serverRun) = (doomed.process, server.process)
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
            for p in [doomedRun, serverRun] where p.isRunning { kill(p.processIdentifier, SIGKILL) }
        }
        try await Self.within(30) { try await observer.simulatorWaitUntilHeld() }
        #expect(try await observer.currentPlan() == .nibpCalibration)
        doomed.signal(SIGKILL)
        let killed = doomed.finish(closingInput: true)
        #expect(doomed.process.terminationReason == .uncaughtSignal)
        #expect(killed.status == SIGKILL)
        #expect(!killed.lines.contains { $0.contains(#""event":"finished""#) })
        // The bracelet IS still in calibration, and the journal says who left it there.
        #expect(try await observer.currentPlan() == .nibpCalibration)
        let entries = try PlanJournal(store: try SQLiteStore(path: state)).openEntries()
        #expect(entries.map(\.serial) == ["JRNL-1"])
        #expect(entries.first?.previousPlan == BraceletPlan("monitoring"))
        #expect(entries.first?.flow == "bp-init")
        #expect(entries.first?.pid == doomed.process.processIdentifier)

        let next = try Corsano.run(args, stdin: Self.readings)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(next.lines.first?.hasPrefix(#"{"event":"planRestored","flow":"bp-init","#) == true)
        #expect(next.lines.first?.hasSuffix(#""previousPlan":"monitoring","why":"journal"}"#) == true)
        #expect(next.stderr.contains("bracelet JRNL-1 was left in plan nibpCalibration by bp-init (pid \(doomed.process.processIdentifier)"))
        #expect(next.stderr.contains("restored plan monitoring"))
        #expect(next.lines.last?.hasSuffix(#""result":{"kind":"success","measurementCount":2}}"#) == true)
        #expect(try await observer.currentPlan() == BraceletPlan("monitoring"))
        #expect(try PlanJournal(store: try SQLiteStore(path: state)).openEntries() == [])
    }

    static let profile = #"{"height":172,"weight":68,"wrist":"left","gender":"female","unit":"metric","birthdate":"1990-04-01","skinTone":3,"hairDensity":"low"}"#

    /// docs/design.md "The bracelet port": both flows need 287-2; wearing optimization needs firmware 7.0
    /// or later compared as numbers. Over the served simulator, so the bridge path is gated too.
    @Test(arguments: [
        ("287-1", "7.4", "bp-init", Int32(69), "bp-init needs a 287-2 bracelet; this bracelet is model 287-1"),
        ("287-1", "7.4", "wearing-opt", 69, "wearing-opt needs a 287-2 bracelet; this bracelet is model 287-1"),
        ("287-2", "6.9", "bp-init", 0, ""),
        ("287-2", "6.9", "wearing-opt", 69, "wearing-opt needs firmware 7.0 or later; this bracelet has firmware 6.9"),
        ("287-2", "10.0", "bp-init", 0, ""),
        ("287-2", "10.0", "wearing-opt", 0, ""),
    ])
    func gating(model: String, firmware: String, flow: String, status: Int32, message: String) throws {
        let scenario = try Scenario.decode(Data(#"{"model":"\#(model)","firmware":"\#(firmware)","profile":\#(Self.profile)}"#.utf8), source: "-")
        let server = try ServedSimulator(.unix, scenario: scenario)
        defer { server.stop() }
        let r = try Corsano.run([flow, "--bracelet", server.listening, "--now", Self.now, "--no-state", "--json"]
                                + (flow == "bp-init" ? ["--no-preparation"] : []), stdin: flow == "bp-init" ? Self.readings : "")
        #expect(r.status == status, "\(r.stderr)")
        if status == 69 {
            #expect(r.stderr.contains(message), "\(r.stderr)")
            #expect(r.stdout.isEmpty)
        } else {
            #expect(r.lines.last?.contains(#""result":{"kind":"success""#) == true, "\(r.stdout)")
        }
    }

    @Test func bpInitThroughAnExecBridgeSucceedsOnTheVirtualClock() throws {
        let command = "exec '\(Corsano.binary.path)' bracelet serve --stdio --seed 3"
        let r = try Corsano.run(["bp-init", "--bracelet", "exec:" + command, "--now", Self.now, "--no-state", "--no-preparation"],
                                stdin: Self.readings)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.lines.last == #"{"event":"finished","flow":"bp-init","run":"\#(Self.run(of: r))","at":"2026-11-29T10:01:40Z","bracelet":"SIM-287-0001","result":{"kind":"success","measurementCount":2}}"#)
        #expect(r.lines.filter { $0.contains(#""braceletAccepted":true"#) && $0.contains(#""event":"measurement""#) }.count == 2)
    }

    @Test func ctrlCAtTheTerminalLeavesTheExecBridgeAliveToRestoreThePlan() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-ctrlc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = directory.appendingPathComponent("s.json")
        try Data(#"{"faults":{"holdAtStep":{"flow":"bp-init","step":"measuring"}}}"#.utf8).write(to: scenario)
        let state = directory.appendingPathComponent("state.sqlite3").path
        let bridge = "exec:exec '\(Corsano.binary.path)' bracelet serve --stdio --scenario '\(scenario.path)'"
        let process = Process()
        process.executableURL = Corsano.binary
        process.arguments = ["bp-init", "--bracelet", bridge, "--state", state, "--now", Self.now, "--no-preparation", "--cuff", "-"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Never hang the suite: whatever happens, the run is gone after 60 s (its bridge ends with it).
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
            if process.isRunning { kill(-process.processIdentifier, SIGKILL) }
        }
        var seen = ""
        while !seen.contains(#""step":"measuring""#) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += String(decoding: chunk, as: UTF8.self)
        }
        #expect(seen.contains(#""step":"measuring""#))
        // Foundation starts the run as the leader of its own process group, as a shell starts a
        // foreground job: signalling the group is what Ctrl-C does.
        let pid = process.processIdentifier
        try #require(getpgid(pid) == pid && getpgid(pid) != getpgrp())
        // Sent before its handler is installed, SIGINT would be ignored and the test would hang.
        try #require(Wait.until(seconds: 10) { ProcessProbe.catches(SIGINT, pid: pid) }, "never caught SIGINT")
        kill(-pid, SIGINT)
        seen += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationStatus == 130)
        #expect(seen.contains(#""event":"planRestored""#), "\(seen)")
        #expect(seen.contains(#""result":{"kind":"cancelledByUser"}"#))
        #expect(try PlanJournal(store: try SQLiteStore(path: state)).openEntries() == [])
    }

    @Test func bpInitThroughTCPUsesTheServedBracelet() throws {
        let server = try ServedSimulator(.tcp, scenario: Scenario(nibp: NIBPScenario(attempts: [NIBPAttemptScript(session: false)])))
        defer { server.stop() }
        let r = try Corsano.run(["bp-init", "--bracelet", server.listening, "--now", Self.now, "--no-state", "--no-preparation",
                                 "--max-attempts", "1"], stdin: Self.readings, env: server.clientEnvironment)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.lines.last?.hasSuffix(#""result":{"kind":"failedAfterRetries","attemptCount":1}}"#) == true)
    }

    @Test func aRealBridgeRunsOnTheRealClockSoNowIsAUsageError() throws {
        let hello = #"{"jsonrpc":"2.0","id":1,"result":{"model":"287-2","firmware":"7.4","serial":"REAL-1","simulated":false}}"#
        let r = try Corsano.run(["bp-init", "--bracelet", "exec:read -r request; printf '%s\\n' '\(hello)'; cat >/dev/null", "--now", Self.now,
                                 "--no-state"], stdin: Self.readings)
        #expect(r.status == 64)
        #expect(r.stderr.contains("--now needs the virtual clock"))
    }

    @Test(arguments: [
        (["--bracelet", "bogus:x"], [String: String](), 64, "--bracelet"),
        (["--bracelet", "tcp:localhost"], [:], 64, "tcp:HOST:PORT"),
        ([], ["CORSANO_BRACELET": "nonsense"], 64, "CORSANO_BRACELET"),
        (["--clock", "real", "--now", "2026-11-29T10:00:00Z"], [:], 64, "--now"),
        (["--bracelet", "sim:/nonexistent/scenario.json"], [:], 66, "/nonexistent/scenario.json"),
        (["--bracelet", "unix:/tmp/corsano-nobody-here.sock"], [:], 69, "unix:/tmp/corsano-nobody-here.sock"),
        (["--request-timeout", "0"], [:], 64, "--request-timeout"),
    ])
    func connectorRefusals(args: [String], env: [String: String], status: Int32, mention: String) throws {
        let r = try Corsano.run(["bp-init", "--no-state", "--no-preparation"] + args, stdin: Self.readings, env: env)
        #expect(r.status == status, "\(r.stderr)")
        #expect(r.stderr.contains(mention), "\(r.stderr)")
    }

    @Test func aBadScenarioNamesFileAndField() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-bad-\(UUID().uuidString).json")
        try Data(#"{"faults":{"holdAtStep":{"step":"measuring","occurence":2}}}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try Corsano.run(["bp-init", "--bracelet", "sim:" + file.path, "--no-state"], stdin: Self.readings)
        #expect(r.status == 65)
        #expect(r.stderr.contains("scenario \(file.path): field faults.holdAtStep.occurence: unknown field"), "\(r.stderr)")
    }

    static func run(of r: Corsano.Outcome) -> String {
        guard let line = r.lines.first, let range = line.range(of: #""run":""#) else { return "" }
        return String(line[range.upperBound...].prefix { $0 != "\"" })
    }
}
