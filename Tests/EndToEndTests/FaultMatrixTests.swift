import CorsanoKit
import Foundation
import Synchronization
import Testing

/// The fault matrix of issue 18: each fault at every step of both flows, over a real
/// `corsano bracelet serve`, asserting the exit status, the `finished` event and the bracelet's
/// plan afterwards (and, where a run could not restore it, that the journal repairs it).
@Suite(.serialized) struct FaultMatrixTests {
    enum Fault: String, CaseIterable, Sendable {
        case sigint, sigterm, sighup, disconnect, silence, stdoutClosed, sigkill

        var signal: Int32? {
            switch self {
            case .sigint: return SIGINT
            case .sigterm: return SIGTERM
            case .sighup: return SIGHUP
            case .sigkill: return SIGKILL
            default: return nil
            }
        }
    }

    /// One step of a flow and how to get a run there.
    struct Step: Sendable, CustomStringConvertible {
        var flow: String
        var name: String
        /// The attempt the step concludes, when it is a terminal step (the result is decided).
        var decided: String?
        /// Whether the bracelet is in the calibration plan while the step is shown.
        var switched: Bool
        var description: String { "\(flow) \(name)" }
    }

    static let bpInitSteps: [Step] = [
        Step(flow: "bp-init", name: "needsCuffPairing", switched: false),
        Step(flow: "bp-init", name: "instructions", switched: false),
        Step(flow: "bp-init", name: "measuring", switched: true),
        Step(flow: "bp-init", name: "measurementRecorded", switched: true),
        Step(flow: "bp-init", name: "retryPrompt", switched: true),
        Step(flow: "bp-init", name: "finalSuccess", decided: #"{"kind":"success","measurementCount":2}"#, switched: false),
        Step(flow: "bp-init", name: "finalFailure", decided: #"{"kind":"failedAfterRetries","attemptCount":1}"#, switched: false),
    ]
    static let wearingSteps: [Step] = [
        Step(flow: "wearing-opt", name: "preparation", switched: false),
        Step(flow: "wearing-opt", name: "armedPreparing", switched: false),
        Step(flow: "wearing-opt", name: "running", switched: false),
        Step(flow: "wearing-opt", name: "retryPrompt", switched: false),
        Step(flow: "wearing-opt", name: "finalSuccess", decided: "success", switched: false),
        Step(flow: "wearing-opt", name: "finalFailure", decided: "failedAfterRetries", switched: false),
    ]

    static let cases: [(Step, Fault)] = (bpInitSteps + wearingSteps).flatMap { step in Fault.allCases.map { (step, $0) } }

    static let profile = UserProfile(heightCm: 172, weightKg: 68, wrist: .left, gender: .female, unit: .metric,
                                     birthdate: "1990-04-01", skinTone: 3, hairDensity: .low)

    /// The scenario that reaches `step` and puts `fault` there (hold, silence or disconnect).
    static func scenario(_ step: Step, _ fault: Fault) -> Scenario {
        let point = StepPoint(flow: step.flow, step: step.name)
        var faults = FaultScenario()
        switch fault {
        case .disconnect: faults.disconnectAtStep = point
        case .silence: faults.silentAtStep = point
        default: faults.holdAtStep = HoldPoint(flow: step.flow, step: step.name)
        }
        let failing = ["retryPrompt", "finalFailure"].contains(step.name)
        if step.flow == "bp-init" {
            // A rejected first attempt reaches the retry prompt (and, with one attempt, the final failure).
            let nibp = failing || ["measuring", "measurementRecorded"].contains(step.name)
                ? NIBPScenario(attempts: [NIBPAttemptScript(session: false)]) : NIBPScenario()
            return Scenario(nibp: nibp, faults: faults)
        }
        let wearing = failing ? WearingScenario(attempts: [
            WearingAttemptScript(polls: [WearingPoll(percent: 100, quality: 45, finished: true)]),
        ]) : WearingScenario()
        return Scenario(profile: ScenarioProfile(profile), wearing: wearing, faults: faults)
    }

    /// The command line of `step`'s flow against `server`.
    static func arguments(_ step: Step, _ fault: Fault, server: ServedSimulator, dir: URL, state: String) throws -> [String] {
        var args = [step.flow, "--bracelet", server.listening, "--state", state, "--json"]
        if fault == .silence { args += ["--request-timeout", "1"] }
        if step.flow == "bp-init" {
            let cuff = try BPInitE2E.file(dir, "cuff.jsonl", BPInitE2E.sixReadings)
            args += ["--cuff", cuff] + BPInitE2E.now
            if step.name == "finalFailure" { args += ["--max-attempts", "1"] }
            if step.name == "needsCuffPairing" {
                // Not paired at first; paired once the pairing command ran.
                let mark = dir.appendingPathComponent("paired").path
                args += ["--cuff-paired-cmd", "test -e '\(mark)'", "--pair-cmd", "touch '\(mark)'"]
            }
        } else {
            args += ["--now", WearingE2E.now]
            if step.name == "finalFailure" { args += ["--max-attempts", "1"] }
        }
        return args
    }

    /// What the run must come to: exit status and `finished` result kind (nil when stdout is gone).
    static func expected(_ step: Step, _ fault: Fault) -> (status: Int32?, result: String?) {
        if let decided = step.decided {
            let status: Int32 = decided.contains("success") ? 0 : 1
            switch fault {
            case .sigkill: return (nil, nil)
            case .stdoutClosed: return (141, nil)
            default: return (status, decided)
            }
        }
        switch fault {
        case .sigint: return (130, "cancelledByUser")
        case .sigterm: return (143, "cancelledByUser")
        case .sighup: return (129, "cancelledByUser")
        case .disconnect, .silence: return (4, "braceletDisconnected")
        case .stdoutClosed: return (141, nil)
        case .sigkill: return (nil, nil)
        }
    }

    @Test(arguments: cases)
    func eachFaultAtEveryStepEndsCleanly(step: Step, fault: Fault) async throws {
        let server = try ServedSimulator(.unix, scenario: Self.scenario(step, fault))
        defer { server.stop() }
        let dir = try BPInitE2E.directory()
        let state = dir.appendingPathComponent("state.sqlite3").path
        if step.flow == "wearing-opt" {
            // The profile is stored as pushed, as a lab's earlier `profile push` would leave it.
            _ = try Corsano.run(["profile", "push", "--bracelet", server.listening, "--state", state, "--now", WearingE2E.now]
                                + WearingE2E.profileFlags)
        }
        let run = try FaultRun(Self.arguments(step, fault, server: server, dir: dir, state: state),
                               closeStdoutAt: fault == .stdoutClosed ? step.name : nil)
        // The run reaches the step (the scenario holds, silences or drops the link there).
        #expect(run.waitForStep(step.name), "\(step) never reached: \(run.lines())")
        if let signo = fault.signal {
            #expect(try await server.waitUntilHeld())
            run.signal(signo)
        }
        let outcome = run.finish(deadline: 30)
        let (status, result) = Self.expected(step, fault)
        #expect(!outcome.hung, "\(step) \(fault): still running after 30 s")
        if fault == .sigkill {
            #expect(outcome.killedBy == SIGKILL)
        } else {
            #expect(outcome.status == status, "\(step) \(fault): \(outcome.stderr)")
        }
        if let result {
            let last = outcome.lines.last.flatMap { BPInitE2E.events([$0]).first }
            #expect(last?["event"] as? String == "finished", "\(step) \(fault): last line \(outcome.lines.last ?? "none")")
            let kind = (last?["result"] as? [String: Any])?["kind"] as? String
            #expect(kind == (result.hasPrefix("{") ? Self.kind(result) : result), "\(step) \(fault): \(outcome.lines.last ?? "")")
        }
        // The bracelet's plan afterwards: restored, or (a link that dropped or went silent, a
        // killed run) still switched with the journal open, which the next command repairs.
        let leftSwitched = step.switched && [.disconnect, .silence, .sigkill].contains(fault)
        let plan = try await BPInitServedTests.plan(of: server)
        #expect(plan == (leftSwitched ? .nibpCalibration : BraceletPlan("monitoring")), "\(step) \(fault): plan \(plan)")
        // A killed run's entry stays open even before the switch: it claimed the bracelet at
        // the start, and a wearing optimization's entry records special mode 4; the
        // next command clears it. bp-init's terminal screens come after its restore, which
        // cleared the entry.
        let restoredBefore = step.flow == "bp-init" && ["finalSuccess", "finalFailure"].contains(step.name)
        let claimLeft = fault == .sigkill && !restoredBefore
        let open = try PlanJournal(store: SQLiteStore(path: state)).openEntries()
        #expect(open.count == (leftSwitched || claimLeft ? 1 : 0), "\(step) \(fault): journal \(open)")
        if claimLeft, !leftSwitched {
            let repair = try Corsano.run(["bracelet", "repair", "--bracelet", server.listening, "--state", state])
            #expect(repair.status == 0, "\(repair.stderr)")
            #expect(try PlanJournal(store: SQLiteStore(path: state)).openEntries().isEmpty)
        }
        if leftSwitched {
            let repair = try Corsano.run(["bracelet", "repair", "--bracelet", server.listening, "--state", state, "--json"])
            #expect(repair.status == 0, "\(repair.stderr)")
            #expect(repair.stdout.contains(#""event":"planRestored""#) && repair.stdout.contains(#""why":"journal""#))
            #expect(try await BPInitServedTests.plan(of: server) == BraceletPlan("monitoring"))
        }
    }

    static func kind(_ json: String) -> String {
        json.firstMatch(of: /"kind":"([a-zA-Z]+)"/).map { String($0.1) } ?? json
    }
}

extension ServedSimulator {
    /// Returns true once a call is held at a step (any connection), false after 30 s.
    func waitUntilHeld() async throws -> Bool {
        let client = try await client(clock: VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000)), requestTimeout: 30)
        defer { client.shutdown() }
        do {
            try await client.simulatorWaitUntilHeld()
            return true
        } catch {
            return false
        }
    }
}

/// A `corsano` run whose stdout is read line by line on close-on-exec pipes (a process another
/// test spawns must not hold our read end open), which can close its stdout at a step.
final class FaultRun: @unchecked Sendable {
    let process = Process()
    private let state = Mutex<(lines: [String], stderr: String, outDone: Bool)>(([], "", false))
    private let arrived = DispatchSemaphore(value: 0)
    private let done = DispatchGroup()

    struct Outcome {
        var status: Int32
        var killedBy: Int32?
        var lines: [String]
        var stderr: String
        var hung: Bool
    }

    /// Starts `corsano ARGS`; with `closeStdoutAt`, stdout's read end is closed once that
    /// step's event was read (the reader goes while the flow is held there).
    init(_ args: [String], closeStdoutAt: String? = nil) throws {
        process.executableURL = Corsano.binary
        process.arguments = args
        // The test run's environment (its one audit key), as the `bracelet repair` it is checked with.
        process.environment = Corsano.inherited
        let (input, output, errors) = try OutputFailureTests.runOnPipes(process)
        try input.close()
        done.enter()
        Thread { [self] in
            forEachLine(of: output) { line in
                state.withLock { $0.lines.append(line) }
                arrived.signal()
                if let step = closeStdoutAt, line.contains(#""step":"\#(step)""#) { return false }
                return true
            }
            try? output.close()
            state.withLock { $0.outDone = true }
            arrived.signal()
            done.leave()
        }.start()
        done.enter()
        Thread { [self] in
            let data = errors.readDataToEndOfFile()
            try? errors.close()
            state.withLock { $0.stderr = String(decoding: data, as: UTF8.self) }
            done.leave()
        }.start()
    }

    func lines() -> [String] { state.withLock { $0.lines } }

    /// Waits (at most 30 s) until the `step` event of `name` was read.
    func waitForStep(_ name: String) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let ended = state.withLock { $0.outDone }  // read before the lines: the last one counts
            if lines().contains(where: { $0.contains(#""step":"\#(name)""#) }) { return true }
            if ended { return false }
            _ = arrived.wait(timeout: .now() + 0.2)
        }
        return false
    }

    func signal(_ signo: Int32) { kill(process.processIdentifier, signo) }

    /// Waits for the exit, at most `deadline` seconds (then kills it and says it hung).
    func finish(deadline: Double) -> Outcome {
        var hung = false
        if done.wait(timeout: .now() + deadline) == .timedOut {
            hung = true
            kill(process.processIdentifier, SIGKILL)
            done.wait()
        }
        process.waitUntilExit()
        let killed = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
        return state.withLock { s in
            Outcome(status: process.terminationStatus, killedBy: killed, lines: s.lines, stderr: s.stderr, hung: hung)
        }
    }
}
