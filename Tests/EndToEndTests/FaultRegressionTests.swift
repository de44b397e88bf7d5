import CorsanoKit
import Foundation
import Testing

/// Each reproduction of issue 18 as a regression test (the fault matrix is `FaultMatrixTests`).
@Suite struct FaultRegressionTests {
    typealias E = BPInitE2E

    // MARK: 1. SIGHUP

    /// Once the terminal is gone its write errors are ignored: 129, not 74.
    @Test func sighupWithADeadStdoutIs129NotAnOutputError() async throws {
        let server = try ServedSimulator(.unix, scenario: Scenario(faults: FaultScenario(
            holdAtStep: HoldPoint(flow: "bp-init", step: "measuring"))))
        defer { server.stop() }
        let dir = try E.directory()
        let cuff = try E.file(dir, "cuff.jsonl", E.sixReadings)
        let state = dir.appendingPathComponent("state.sqlite3").path
        let live = try LiveCorsano(["-c", #"exec "$0" "$@" > /dev/full"#, Corsano.binary.path, "bp-init",
                                    "--bracelet", server.listening, "--cuff", cuff, "--state", state] + E.now,
                                   env: [:], executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(try await server.waitUntilHeld())
        live.signal(SIGHUP)
        let (status, _, stderr) = live.finish()
        #expect(status == 129, "\(stderr)")
        #expect(!stderr.contains("No space left"), "\(stderr)")
        #expect(try await BPInitServedTests.plan(of: server) == BraceletPlan("monitoring"))
        #expect(try PlanJournal(store: SQLiteStore(path: state)).openEntries().isEmpty)
    }

    // MARK: 2. A signal in the first milliseconds

    /// Signals sent 0-9 ms after the start: each run ends at once, by the signal before `main`
    /// ran, with the signal's status before the bracelet was reached (nothing written), or as
    /// cancelledByUser with its events; never carries on to wait for a cuff (stdin stays open:
    /// a lost signal would hang the run).
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func anEarlySignalIsNeverLost(signo: Int32, status: Int32) throws {
        for i in 0..<10 {
            let live = try LiveCorsano(["bp-init", "--no-state"] + E.now, env: [:])
            Thread.sleep(forTimeInterval: Double(i) / 1000)
            live.signal(signo)
            let deadline = DispatchTime.now() + 20
            let finished = DispatchSemaphore(value: 0)
            Thread { live.process.waitUntilExit(); finished.signal() }.start()
            guard finished.wait(timeout: deadline) == .success else {
                live.process.terminate()
                Issue.record("a signal \(i) ms after the start was lost: the run carried on")
                continue
            }
            let (exit, lines, stderr) = live.finish()
            if live.process.terminationReason == .uncaughtSignal {
                #expect(exit == signo && lines.isEmpty, "killed by \(exit) after writing \(lines)")
            } else {
                // Before the bracelet is reached the run ends at once with nothing written; after
                // it, the flow is cancelled and says so.
                #expect(exit == status, "\(stderr)")
                #expect(lines.isEmpty || E.result(lines) == #"{"kind":"cancelledByUser"}"#, "\(lines)")
            }
        }
    }

    // MARK: 3. A bridge that answers with a wrong id, or half a line

    /// A raw bridge (a shell loop) that answers `enterStep` at `measuring` badly: the run ends
    /// as a disconnect once the request timeout passes, with `finished` written.
    @Test(arguments: [
        #"printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$((id + 1000))""#,
        #"printf '{"jsonrpc":"2.0","id":%s,"res' "$id""#,
        ":",
    ])
    func aBridgeThatNeverAnswersAStepIsADisconnect(badAnswer: String) throws {
        let bridge = RawBridge.script(measuring: badAnswer)
        let started = Date()
        let r = try Corsano.run(["bp-init", "--bracelet", "exec:" + bridge, "--request-timeout", "1", "--no-state"] + E.now,
                                stdin: E.sixReadings)
        #expect(r.status == 4, "\(r.stderr)")
        #expect(E.result(r.lines) == #"{"kind":"braceletDisconnected"}"#)
        #expect(Date().timeIntervalSince(started) < 15)
    }

    /// A held step over `bracelet serve` outlasts the request timeout: `working` keeps it alive.
    @Test func aHeldStepOutlastsTheRequestTimeout() async throws {
        let server = try ServedSimulator(.unix, scenario: Scenario(faults: FaultScenario(
            holdAtStep: HoldPoint(flow: "bp-init", step: "measuring"))))
        defer { server.stop() }
        let dir = try E.directory()
        let cuff = try E.file(dir, "cuff.jsonl", E.sixReadings)
        let live = try LiveCorsano(["bp-init", "--bracelet", server.listening, "--cuff", cuff, "--no-state",
                                    "--request-timeout", "1"] + E.now, env: [:])
        #expect(try await server.waitUntilHeld())
        try await Task.sleep(nanoseconds: 2_500_000_000)
        live.signal(SIGINT)
        let (status, lines, stderr) = live.finish()
        #expect(status == 130, "\(stderr)")
        #expect(E.result(lines) == #"{"kind":"cancelledByUser"}"#)
    }

    // MARK: 4. Exit codes at connect

    @Test(arguments: [-32002, -32001, -32003, -32004, -32603])
    func anIdentifyAnsweredWithAnErrorIsUnavailable(code: Int) throws {
        let bridge = RawBridge.script(identify: #"printf '{"jsonrpc":"2.0","id":%s,"error":{"code":\#(code),"message":"no"}}\n' "$id""#)
        let r = try Corsano.run(["bp-init", "--bracelet", "exec:" + bridge, "--no-state"] + E.now, stdin: E.sixReadings)
        #expect(r.status == 69, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    /// A malformed `readProfile` answer is a bracelet protocol error (4, with `started` and
    /// `finished`); `{"profile":null}` still means "no profile" (64 before `started`).
    @Test(arguments: [("null", Int32(4)), ("[]", 4), (#""x""#, 4), ("5", 4), ("{}", 4), (#"{"profile":[]}"#, 4),
                      (#"{"profile":null}"#, 64)])
    func aMalformedProfileAnswerIsADisconnect(result: String, status: Int32) throws {
        let bridge = RawBridge.script(readProfile: #"printf '{"jsonrpc":"2.0","id":%s,"result":\#(result)}\n' "$id""#)
        let r = try Corsano.run(["wearing-opt", "--bracelet", "exec:" + bridge, "--no-state", "--now", WearingE2E.now], stdin: "")
        #expect(r.status == status, "\(r.stderr)")
        let names = E.names(r.lines)
        if status == 4 {
            #expect(names.first == "started" && names.last == "finished", "\(names)")
            #expect(E.result(r.lines) == #"{"kind":"braceletDisconnected"}"#)
        } else {
            #expect(names.isEmpty, "\(names)")
            #expect(r.stderr.contains("no user profile"), "\(r.stderr)")
        }
    }

    @Test func aFirmwareBeyondInt64IsNotTooOld() throws {
        let server = try ServedSimulator(.unix, scenario: Scenario(firmware: "99999999999999999999.0",
                                                                  profile: ScenarioProfile(FaultMatrixTests.profile)))
        defer { server.stop() }
        let r = try Corsano.run(["wearing-opt", "--bracelet", server.listening, "--no-state", "--now", WearingE2E.now])
        #expect(r.status == 0, "\(r.stderr)")
    }

    // MARK: 6. Signals to cuff ingest and replay-filter

    @Test(arguments: [(["cuff", "ingest", "--from", "jsonl"], "cuff ingest: read 3, written 3"),
                      (["replay-filter", "--no-state", "--max-reading-age", "none"], "replay-filter: read 3, written 3")],
          [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func aFilterStopsReadingCountsAndExits(command: ([String], String), signal: (Int32, Int32)) throws {
        let live = try LiveCorsano(command.0, env: [:])
        let readings = (1...3).map { #"{"systolic":12\#($0),"diastolic":80,"pulse":60,"measuredAt":"2026-11-29T10:0\#($0):00Z"}"# }
        live.write(readings.joined(separator: "\n") + "\n" + #"{"systolic":130,"dia"#)  // and half a line
        #expect(live.waitForLine(containing: "2026-11-29T10:03:00Z"))
        live.signal(signal.0)
        let (status, lines, stderr) = live.finish()
        #expect(status == signal.1, "\(stderr)")
        #expect(lines.count == 3)
        #expect(stderr.contains(command.1), "\(stderr)")
    }

    // MARK: 7. The journal's owner

    /// An entry whose pid runs (this test's own runner) but that has no start time cannot be
    /// confirmed over: left alone (69) with a message naming `corsano bracelet repair`, which restores it.
    @Test func anUnconfirmedOwnerIsLeftToBraceletRepair() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let state = try await Self.heldInCalibration(server, previousPlan: "sleep", owner: PlanJournal.Owner(gateway: "", pid: getpid()))
        // Every command refuses to touch the bracelet (69), says why and names the repair command.
        let push = try Corsano.run(["profile", "push", "--bracelet", server.listening, "--state", state] + WearingE2E.profileFlags)
        #expect(push.status == 69, "\(push.stderr)")
        #expect(push.stderr.contains("cannot be confirmed over"), "\(push.stderr)")
        #expect(push.stderr.contains("`corsano bracelet repair` restores plan sleep"))
        #expect(try await BPInitServedTests.plan(of: server) == .nibpCalibration)
        let repair = try Corsano.run(["bracelet", "repair", "--bracelet", server.listening, "--state", state, "--json"])
        #expect(repair.status == 0, "\(repair.stderr)")
        #expect(repair.stdout.contains(#""event":"planRestored""#))
        #expect(try await BPInitServedTests.plan(of: server) == BraceletPlan("sleep"))
        let again = try Corsano.run(["bracelet", "repair", "--bracelet", server.listening, "--state", state])
        #expect(again.status == 0)
        #expect(again.stderr.contains("nothing to repair"))
    }

    /// A run that still holds the bracelet (this very process as the owner, as /proc says it)
    /// is left alone by `bracelet repair` (75: waiting for it to end fixes it) unless `--force`.
    @Test func braceletRepairLeavesARunningOwnerAloneUnlessForced() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let state = try await Self.heldInCalibration(server, previousPlan: "monitoring", owner: .current(gateway: ""))
        let kept = try Corsano.run(["bracelet", "repair", "--bracelet", server.listening, "--state", state])
        #expect(kept.status == 75, "\(kept.stderr)")
        #expect(kept.stderr.contains("still runs"))
        #expect(try await BPInitServedTests.plan(of: server) == .nibpCalibration)
        let forced = try Corsano.run(["bracelet", "repair", "--force", "--bracelet", server.listening, "--state", state])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try await BPInitServedTests.plan(of: server) == BraceletPlan("monitoring"))
    }

    /// A state store whose plan journal says `owner` switched `server`'s bracelet to the calibration
    /// plan from `previousPlan`, with the bracelet in that plan (what a killed or running bp-init leaves).
    static func heldInCalibration(_ server: ServedSimulator, previousPlan: String, owner: PlanJournal.Owner) async throws -> String {
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let client = try await server.client(clock: VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000)))
        try await client.setPlan(.nibpCalibration)
        await client.close()
        _ = try PlanJournal(store: SQLiteStore(path: state)).open(PlanJournal.Entry(
            serial: Scenario().serial, previousPlan: BraceletPlan(previousPlan), flow: "bp-init",
            owner: owner, openedAt: Instant(secondsSinceEpoch: 1_795_000_000)))
        return state
    }

    // MARK: 9. Time

    @Test func aNaiveStampInADSTGapIsRejectedAndARepeatedHourSaysSo() throws {
        let input = [
            #"{"systolic":120,"diastolic":80,"pulse":60,"deviceTime":"2026-03-29T02:30:00"}"#,
            #"{"systolic":121,"diastolic":80,"pulse":60,"deviceTime":"2026-10-25T02:30:00"}"#,
            #"{"systolic":122,"diastolic":80,"pulse":60,"deviceTime":"2026-10-25T03:30:00"}"#,
        ].joined(separator: "\n") + "\n"
        let r = try Corsano.run(["cuff", "ingest", "--from", "jsonl", "--tz", "Europe/Berlin"], stdin: input)
        #expect(r.status == 65, "\(r.stderr)")
        // ZoneReader.resolve (issue 13's, shared): the gap names the change, the fold the offset taken.
        #expect(r.stderr.contains("deviceTime: 2026-03-29T02:30:00 does not exist in Europe/Berlin (the clocks went from UTC+01:00 to UTC+02:00"), "\(r.stderr)")
        #expect(r.stderr.contains("deviceTime: 2026-10-25T02:30:00 happened twice in Europe/Berlin (UTC+02:00, then UTC+01:00); the earlier, UTC+02:00, was taken"), "\(r.stderr)")
        #expect(r.lines.count == 2)
        #expect(r.lines[0].contains(#""measuredAt":"2026-10-25T00:30:00Z""#))
        #expect(r.lines[1].contains(#""measuredAt":"2026-10-25T02:30:00Z""#))
    }
}

/// A bridge as a shell loop over its stdin (`exec:` transport) that answers like a served
/// simulator, except where a test gives its own answer (a printf with the request's `$id`).
enum RawBridge {
    static func script(identify: String? = nil, readProfile: String? = nil, measuring: String? = nil,
                       setPlanMonitoring: String? = nil) -> String {
        let ok = #"printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id""#
        let profile = #"{"profile":{"height":172,"weight":68,"wrist":"left","gender":"female","unit":"metric","birthdate":"1990-04-01","skinTone":3,"hairDensity":"low"}}"#
        return """
        while IFS= read -r line; do
          id=$(printf '%s\\n' "$line" | sed -n 's/^{"jsonrpc":"2.0","id":\\([0-9]*\\),.*/\\1/p')
          [ -n "$id" ] || continue
          case "$line" in
            *'"method":"identify"'*) \(identify ?? #"printf '{"jsonrpc":"2.0","id":%s,"result":{"model":"287-2","firmware":"7.4","serial":"RAW-1","simulated":true}}\n' "$id""#) ;;
            *'"method":"getPlan"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"plan":"monitoring"}}\\n' "$id" ;;
            *'"method":"readProfile"'*) \(readProfile ?? "printf '{\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":\(profile)}\\n' \"$id\"") ;;
            *'"method":"feedCalibrationReading"'*|*'"method":"calibrationVerdict"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"accepted":true}}\\n' "$id" ;;
            *'"step":"measuring"'*) \(measuring ?? ok) ;;
            *'"method":"setPlan","params":{"plan":"monitoring"'*) \(setPlanMonitoring ?? ok) ;;
            *) \(ok) ;;
          esac
        done
        """
    }
}
