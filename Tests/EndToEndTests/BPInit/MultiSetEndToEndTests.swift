import CorsanoKit
import Foundation
import Testing
import TestSupport

/// `bp-init --protocol corsano` against a served simulator, one process per set, with
/// a SQLite state store and `--now` stepping the virtual clock across the hour between sets.
@Suite struct MultiSetEndToEndTests {
    typealias E = BPInitE2E

    /// Three readings stamped 30, 60 and 90 s after `start`, on cuff `cuff`, pressures from `base`.
    static func setReadings(_ start: String, base: Int, cuff: String = "AA:BB:CC:DD:EE:01") -> String {
        let t = RFC3339.parseInstant(start)!
        return (1...3).map { i in
            #"{"systolic":\#(base + i),"diastolic":\#(base - 40 + i),"pulse":\#(60 + i),"#
                + #""measuredAt":"\#(RFC3339.format(t.adding(interval: Double(30 * i))))","cuff":"\#(cuff)"}"#
        }.joined(separator: "\n") + "\n"
    }

    static func planSwitches(_ server: ServedSimulator) async throws -> Int {
        let client = try await server.client(clock: VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000)))
        defer { Task { await client.close() } }
        return try await client.simulatorPlanSwitches()
    }

    static func finished(_ lines: [String]) -> [String: Any]? {
        E.events(lines).last { $0["event"] as? String == "finished" }
    }

    /// Runs set `n` at `now` on `server` against `state` and returns the outcome.
    static func set(_ server: ServedSimulator, state: String, now: String, base: Int, extra: [String] = [],
                    cuff: String = "AA:BB:CC:DD:EE:01") throws -> Corsano.Outcome {
        try Corsano.run(["bp-init", "--protocol", "corsano", "--bracelet", server.listening, "--state", state, "--json",
                         "--now", now] + extra, stdin: setReadings(now, base: base, cuff: cuff))
    }

    /// The certificate of a set says which set of how many, and shows every set
    /// recorded so far with its means (all readings; readings 2 and 3), instead of "single session".
    @Test func aSetsCertificateShowsTheSetsAndTheirMeans() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        #expect(try Self.set(server, state: state, now: "2026-11-29T10:00:00Z", base: 120).status == 0)
        #expect(try Self.set(server, state: state, now: "2026-11-29T11:02:00Z", base: 130).status == 0)
        let history = try Corsano.run(["history", "--json", "--state", state])
        // The second set's run: the later of the two.
        let run = try #require(history.stdout.matches(of: /\{"run":"([0-9a-f]+)"/).last).output.1
        let path = try E.directory().appendingPathComponent("set.html").path
        let report = try Corsano.run(["report", "--state", state, "--run", String(run), "--lang", "en", "--output", path])
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: path, encoding: .utf8)
        // The values are isolates of their own (<bdi>): the words read as written without the tags.
        #expect(html.replacing(/<[^>]+>/, with: "").contains("multi-set calibration (corsano), set 2 of 3"), "\(html)")
        #expect(!html.contains("single session"))
        #expect(html.contains("Sets of the calibration"))
        // Set 1: 121/81, 122/82, 123/83; set 2: 131/91, 132/92, 133/93.
        for mean in ["122.0/82.0", "122.5/82.5", "132.0/92.0", "132.5/92.5"] { #expect(html.contains(mean), "lacks \(mean)") }
        let tidy = try Shell.run("tidy", ["-q", "-e", path])
        #expect(tidy.status == 0, "tidy: \(tidy.stderr)")
    }

    @Test func threeSetsAnHourApartOnAServedSimulator() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let state = try E.directory().appendingPathComponent("state.sqlite3").path

        // Set 1: setRecorded, exit 0, due again one hour after it ended (its last reading, 10:01:30).
        let one = try Self.set(server, state: state, now: "2026-11-29T10:00:00Z", base: 120)
        #expect(one.status == 0, "\(one.stderr)")
        let result1 = try #require(Self.finished(one.lines)?["result"] as? [String: Any])
        #expect(result1["kind"] as? String == "setRecorded")
        #expect(result1["set"] as? Int == 1 && result1["of"] as? Int == 3)
        #expect(result1["nextDueAt"] as? String == "2026-11-29T11:01:30Z")
        #expect((result1["meanAll"] as? [String: Any])?["systolic"] as? Int == 122)
        #expect((result1["meanLast2"] as? [String: Any])?["systolic"] as? Double == 122.5)
        // Every event names the set; measurement's attempt is the set number.
        #expect(E.events(one.lines).allSatisfy { $0["set"] as? Int == 1 && $0["of"] as? Int == 3 })
        #expect(E.events(one.lines).filter { $0["event"] as? String == "measurement" }.count == 3)
        #expect(!E.names(one.lines).contains("attempt"), "no verdict before the last set")
        #expect(try await BPInitServedTests.plan(of: server) == BraceletPlan("monitoring"))

        // Too early: 75, no event, no setPlan, no audit run, no journal entry.
        let switches = try await Self.planSwitches(server)
        let runsBefore = try SQLiteStore(path: state).auditRuns(AuditFilter()).count
        let early = try Self.set(server, state: state, now: "2026-11-29T10:30:00Z", base: 130)
        #expect(early.status == 75, "\(early.stderr)")
        #expect(early.lines.count == 1 && early.stdout.contains(#""error":"notDue""#)
                && early.stdout.contains(#""retryAfter":"2026-11-29T11:01:30Z""#), "\(early.stdout)")
        #expect(early.stderr.contains("set 2 of 3") && early.stderr.contains("not due before 2026-11-29T11:01:30Z"), "\(early.stderr)")
        #expect(try await Self.planSwitches(server) == switches)
        #expect(try SQLiteStore(path: state).auditRuns(AuditFilter()).count == runsBefore)
        #expect(try PlanJournal(store: SQLiteStore(path: state)).openEntries().isEmpty)

        // Set 2 an hour later, set 3 an hour after it: success with 9 measurements and the sets' means.
        let two = try Self.set(server, state: state, now: "2026-11-29T11:02:00Z", base: 130)
        #expect(two.status == 0, "\(two.stderr)")
        let result2 = try #require(Self.finished(two.lines)?["result"] as? [String: Any])
        #expect(result2["kind"] as? String == "setRecorded" && result2["set"] as? Int == 2)
        #expect(result2["nextDueAt"] as? String == "2026-11-29T12:03:30Z")
        let three = try Self.set(server, state: state, now: "2026-11-29T12:04:00Z", base: 125)
        #expect(three.status == 0, "\(three.stderr)")
        let finished = try #require(Self.finished(three.lines))
        #expect((finished["result"] as? [String: Any])?["kind"] as? String == "success")
        #expect((finished["result"] as? [String: Any])?["measurementCount"] as? Int == 9)
        let sets = try #require(finished["sets"] as? [[String: Any]])
        #expect(sets.map { $0["set"] as? Int } == [1, 2, 3])
        #expect(sets.map { ($0["meanAll"] as? [String: Any])?["systolic"] as? Int } == [122, 132, 127])
        #expect(E.names(three.lines).filter { $0 == "attempt" }.count == 1, "the verdict is asked once")
        // Closed: the next invocation starts a new calibration at once.
        #expect(try SQLiteStore(path: state).calibrationOpen(serial: "SIM-287-0001") == nil)
        #expect(try SQLiteStore(path: state).calibrations(openOnly: false).first?.status == .completed)

        // The last set's certificate shows all nine readings (not only its own three), grouped
        // under "Set N of 3" with each set's means.
        let run = try #require(try Corsano.run(["history", "--json", "--state", state]).stdout.matches(of: /\{"run":"([0-9a-f]+)"/).last).output.1
        let path = try E.directory().appendingPathComponent("three.html").path
        let report = try Corsano.run(["report", "--state", state, "--run", String(run), "--lang", "en", "--output", path])
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html.matches(of: /<h3>Set <bdi class="v nw">\d<\/bdi> of <bdi class="v nw">3<\/bdi><\/h3>/).count == 3)
        let pressures = html.matches(of: /<td data-label="SYS\/DIA \(mmHg\)" class="num"><span><bdi class="v nw">(\d+\/\d+)<\/bdi>/).map { String($0.output.1) }
        #expect(pressures == ["121/81", "122/82", "123/83", "131/91", "132/92", "133/93", "126/86", "127/87", "128/88"])
        for mean in ["127.0/87.0", "127.5/87.5"] { #expect(html.contains(mean), "lacks \(mean)") }
    }

    /// A served `--protocol corsano` calibration completed: its final verdict calibrates the
    /// simulated bracelet's NIBP model as a single session's does, so the bracelet has stored
    /// values after it (`nibp read --since`) and `validate --live` measures it (it refused
    /// both before: 0 values, then 69 "never calibrated").
    @Test func aServedCorsanoCalibrationCalibratesTheNIBPModel() async throws {
        let dir = try E.directory().path
        try #"{"subjects":[{"id":"S1","baseline":{"systolic":124,"diastolic":84,"pulse":62}}],"nibp":{"wearer":"S1"}}"#
            .write(toFile: dir + "/s1.json", atomically: true, encoding: .utf8)
        let server = try ServedSimulator(.unix, scenario: try Scenario.load(path: dir + "/s1.json"))
        defer { server.stop() }
        let state = dir + "/state.sqlite3"
        for (now, base) in [("2026-11-29T10:00:00Z", 122), ("2026-11-29T11:02:00Z", 123), ("2026-11-29T12:04:00Z", 124)] {
            let set = try Self.set(server, state: state, now: now, base: base)
            #expect(set.status == 0, "\(set.stderr)")
        }
        let read = try Corsano.run(["nibp", "read", "--bracelet", server.listening, "--since", "2026-11-29T12:00:00Z",
                                    "--now", "2026-11-29T16:00:00Z", "--json"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.lines.count >= 6, "\(read.stdout)")
        #expect(read.lines.allSatisfy { $0.contains(#""source":"bracelet""#) })
        let live = try Corsano.run(["validate", "--live", "--bracelet", server.listening, "--cuff", "sim:", "--subject-id", "S1",
                                    "--now", "2026-11-29T16:00:00Z", "--min-subjects", "1",
                                    "--reference-out", dir + "/ref.jsonl", "--device-out", dir + "/dev.jsonl"])
        #expect(live.status != 69, "\(live.stderr)")
        #expect([0, 1, 2].contains(live.status), "\(live.stderr)")
        #expect(live.lines.filter { $0.hasPrefix(#"{"event":"validationStep""#) }.count > 0, "\(live.stdout)")
    }

    /// A set killed with SIGKILL is not counted: the next invocation repairs the plan from the
    /// journal and runs that set again, whole (index 1 of set 2 starts it afresh at the bridge).
    @Test func setTwoKilledIsRepairedAndRedone() async throws {
        // measurementRecorded's 5th entry on this bracelet: reading 2 of set 2.
        let scenario = Scenario(faults: FaultScenario(holdAtStep: HoldPoint(flow: "bp-init", step: "measurementRecorded", occurrence: 5)))
        let server = try ServedSimulator(.unix, scenario: scenario)
        defer { server.stop() }
        let dir = try E.directory()
        let state = dir.appendingPathComponent("state.sqlite3").path
        #expect(try Self.set(server, state: state, now: "2026-11-29T10:00:00Z", base: 120).status == 0)
        let cuff = try E.file(dir, "set2.jsonl", Self.setReadings("2026-11-29T11:02:00Z", base: 130))
        let killed = try LiveCorsano(["bp-init", "--protocol", "corsano", "--bracelet", server.listening, "--state", state,
                                      "--json", "--now", "2026-11-29T11:02:00Z", "--cuff", cuff], env: [:])
        #expect(killed.waitForLine(containing: #""step":"measurementRecorded","attempt":2,"index":2"#))
        // Killed while the bracelet holds that call (the event is written before the request).
        let watcher = try await server.client(clock: VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000)), requestTimeout: 30)
        try await watcher.simulatorWaitUntilHeld()
        await watcher.close()
        killed.signal(SIGKILL)
        _ = killed.finish()
        #expect(try await BPInitServedTests.plan(of: server) == .nibpCalibration)
        #expect(try SQLiteStore(path: state).calibrationOpen(serial: "SIM-287-0001")?.sets.count == 1, "a killed set is not counted")

        let redo = try Self.set(server, state: state, now: "2026-11-29T11:10:00Z", base: 140)
        #expect(redo.status == 0, "\(redo.stderr)")
        #expect(redo.lines.contains { $0.contains(#""event":"planRestored""#) && $0.contains(#""why":"journal""#) })
        let result = try #require(Self.finished(redo.lines)?["result"] as? [String: Any])
        #expect(result["kind"] as? String == "setRecorded" && result["set"] as? Int == 2)
        #expect(E.events(redo.lines).filter { $0["event"] as? String == "measurement" }.map { $0["index"] as? Int } == [1, 2, 3])
        let three = try Self.set(server, state: state, now: "2026-11-29T12:12:00Z", base: 125)
        #expect(three.status == 0, "\(three.stderr)")
        #expect((Self.finished(three.lines)?["result"] as? [String: Any])?["measurementCount"] as? Int == 9)
        let sets = try #require(Self.finished(three.lines)?["sets"] as? [[String: Any]])
        #expect(sets.map { ($0["meanAll"] as? [String: Any])?["systolic"] as? Int } == [122, 142, 127], "set 2 is the redone one")
    }

    /// Set 1 on gateway A and set 2 on gateway B against one PostgreSQL store are one calibration;
    /// set 2 not yet due is 75 on B too.
    @Test func setTwoOnASecondGatewayAgainstPostgreSQL() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let uri = try ThrowawayPostgres.shared().createDatabase().uri
        let one = try Self.set(server, state: uri, now: "2026-11-29T10:00:00Z", base: 120, extra: ["--gateway", "gateway-a"])
        #expect(one.status == 0, "\(one.stderr)")
        let early = try Self.set(server, state: uri, now: "2026-11-29T10:59:00Z", base: 130, extra: ["--gateway", "gateway-b"])
        #expect(early.status == 75, "\(early.stderr)")
        let two = try Self.set(server, state: uri, now: "2026-11-29T11:02:00Z", base: 130, extra: ["--gateway", "gateway-b"])
        #expect(two.status == 0, "\(two.stderr)")
        let result = try #require(Self.finished(two.lines)?["result"] as? [String: Any])
        #expect(result["kind"] as? String == "setRecorded" && result["set"] as? Int == 2)
        let calibration = try #require(try PostgresStore(uri: uri).calibrationOpen(serial: "SIM-287-0001"))
        #expect(calibration.sets.map(\.set) == [1, 2])
        let runs = try PostgresStore(uri: uri).auditRuns(AuditFilter())
        #expect(Set(runs.compactMap(\.gateway)) == ["gateway-a", "gateway-b"])
    }

    /// `history --due 28 --json` lists the open calibration's next set with its due time (exit 0
    /// while it is later, 1 once due); a set more than `--max-set-gap` late expires the
    /// calibration: recorded, and that invocation starts a new one, saying so.
    @Test func historyDueListsThePendingSetAndALateSetExpires() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        #expect(try Self.set(server, state: state, now: "2026-11-29T10:00:00Z", base: 120, extra: ["--max-set-gap", "7200"]).status == 0)
        let pending = try Corsano.run(["history", "--state", state, "--due", "28", "--json", "--now", "2026-11-29T10:30:00Z"])
        let next = try #require(pending.lines.first { $0.contains(#""kind":"nextSet""#) }, "\(pending.stdout)")
        #expect(next.contains(#""set":2,"of":3,"dueAt":"2026-11-29T11:01:30Z","due":false,"status":"onSchedule""#), "\(next)")
        #expect(next.contains(#""bracelet":{"serial":"SIM-287-0001","model":"287-2","firmware":"7.4"}"#))
        // History's text names the set and when the next is due, and lists it under --due.
        let text = try Corsano.run(["history", "--state", state, "--text"])
        #expect(text.stdout.contains("set 1 of 3; next set from 2026-11-29T11:01:30Z"), "\(text.stdout)")
        let dueText = try Corsano.run(["history", "--state", state, "--due", "28", "--text", "--now", "2026-11-29T10:30:00Z"])
        #expect(dueText.stdout.contains("SIM-287-0001: set 2 of 3 of its calibration, due from 2026-11-29T11:01:30Z"), "\(dueText.stdout)")
        // Mid-calibration, the bracelet is on schedule: no recalibration line, exit 0.
        #expect(!pending.lines.contains { $0.contains(#""kind":"recalibration""#) }, "\(pending.stdout)")
        #expect(pending.status == 0, "\(pending.stderr)")
        let due = try Corsano.run(["history", "--state", state, "--due", "28", "--json", "--now", "2026-11-29T11:05:00Z"])
        #expect(due.lines.contains { $0.contains(#""kind":"nextSet""#) && $0.contains(#""due":true,"status":"setDue""#) }, "\(due.stdout)")
        #expect(due.status == 1)
        let dueNowText = try Corsano.run(["history", "--state", state, "--due", "28", "--text", "--now", "2026-11-29T11:05:00Z"])
        #expect(dueNowText.stdout == "SIM-287-0001: set 2 of 3 of its calibration due now (since 2026-11-29T11:01:30Z)\n", "\(dueNowText.stdout)")
        // Past --max-set-gap (2 h after due): expired, start a new calibration; still exit 1 (something to do).
        let expiredJSON = try Corsano.run(["history", "--state", state, "--due", "28", "--json", "--now", "2026-11-29T13:05:00Z"])
        #expect(expiredJSON.lines.contains { $0.contains(#""kind":"nextSet""#) && $0.contains(#""status":"expired""#) }, "\(expiredJSON.stdout)")
        #expect(expiredJSON.status == 1)
        let expiredText = try Corsano.run(["history", "--state", state, "--due", "28", "--text", "--now", "2026-11-29T13:05:00Z"])
        #expect(expiredText.stdout == "SIM-287-0001: calibration expired at 2026-11-29T13:01:30Z (set 2 of 3 was not started in time): "
                + "start a new calibration\n", "\(expiredText.stdout)")
        #expect(expiredText.stderr.contains("0 of 1 open calibrations have a set due now, 1 expired"), "\(expiredText.stderr)")

        // Due 11:01:30, expires 2 h later (13:01:30): at 13:05 set 2 is too late.
        let late = try Self.set(server, state: state, now: "2026-11-29T13:05:00Z", base: 130, extra: ["--max-set-gap", "7200"])
        #expect(late.status == 0, "\(late.stderr)")
        #expect(late.stderr.contains("expired at 2026-11-29T13:01:30Z") && late.stderr.contains("starting a new calibration"), "\(late.stderr)")
        let result = try #require(Self.finished(late.lines)?["result"] as? [String: Any])
        #expect(result["kind"] as? String == "setRecorded" && result["set"] as? Int == 1, "a new calibration's set 1")
        let all = try SQLiteStore(path: state).calibrations(openOnly: false)
        #expect(all.map(\.status) == [.expired, .open])
        #expect(all.first?.closedAt == RFC3339.parseInstant("2026-11-29T13:01:30Z"))
    }

    /// Rules between options are usage errors (64) decided before anything opens; rules decided
    /// from the store are 69, and --abandon closes an open calibration.
    @Test func optionRulesAndInteractions() async throws {
        let bp = ["bp-init", "--bracelet", "unix:/nonexistent/sock", "--cuff", "/dev/null"]
        for extra in [["--protocol", "corsano", "--sets", "3"], ["--protocol", "corsano", "--set-interval", "60"],
                      ["--protocol", "sets", "--sets", "3", "--max-attempts", "2"], ["--protocol", "corsano", "--threshold", "5"],
                      ["--protocol", "sets"], ["--sets", "3"], ["--protocol", "corsano", "--no-state"]] {
            let r = try Corsano.run(bp + extra)
            #expect(r.status == 64, "\(extra): \(r.stderr)")
        }
        let sim = try Corsano.run(["bp-init", "--protocol", "corsano", "--bracelet", "sim", "--cuff", "/dev/null"])
        #expect(sim.status == 64 && sim.stderr.contains("bracelet serve"), "\(sim.stderr)")

        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        #expect(try Self.set(server, state: state, now: "2026-11-29T10:00:00Z", base: 120).status == 0)
        let single = try Corsano.run(["bp-init", "--bracelet", server.listening, "--state", state, "--json", "--now", "2026-11-29T12:00:00Z"],
                                     stdin: Self.setReadings("2026-11-29T12:00:00Z", base: 120))
        #expect(single.status == 69 && single.stderr.contains("--abandon"), "\(single.stderr)")
        let other = try Corsano.run(["bp-init", "--protocol", "sets", "--sets", "4", "--bracelet", server.listening, "--state", state,
                                     "--now", "2026-11-29T12:00:00Z"], stdin: Self.setReadings("2026-11-29T12:00:00Z", base: 120))
        #expect(other.status == 69, "\(other.stderr)")
        // Set 2 on another cuff is refused before anything is fed.
        let cuff = try Self.set(server, state: state, now: "2026-11-29T11:05:00Z", base: 130, cuff: "AA:BB:CC:DD:EE:02")
        #expect(cuff.status == 3 && cuff.stdout.contains("two cuffs"), "\(cuff.stdout)")
        #expect(!E.names(cuff.lines).contains("measurement"))
        let abandon = try Corsano.run(["bp-init", "--protocol", "corsano", "--abandon", "--bracelet", server.listening, "--state", state])
        #expect(abandon.status == 0 && abandon.stderr.contains("abandoned after 1 of 3 sets"), "\(abandon.stderr)")
        let again = try Corsano.run(["bp-init", "--protocol", "corsano", "--abandon", "--bracelet", server.listening, "--state", state])
        #expect(again.status == 0 && again.stderr.contains("no open calibration for SIM-287-0001"), "\(again.stderr)")
        #expect(try SQLiteStore(path: state).calibrations(openOnly: false).map(\.status) == [.abandoned])
        // Recorded in the audit log.
        let abandoned = try SQLiteStore(path: state).auditRuns(AuditFilter()).filter { $0.resultKind == "abandoned" }
        #expect(abandoned.count == 1)
        #expect(abandoned.first?.resultJSON?.contains(#""setsRecorded":1,"of":3"#) == true)
    }

    /// Text mode says where the operator is, in the locale and on the operator's clock (TZ).
    @Test func textSaysWhichSetAndWhenTheNextIsDue() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let now = "2026-11-29T10:00:00Z"
        let de = try Corsano.run(["bp-init", "--protocol", "corsano", "--bracelet", server.listening, "--state", state, "--text",
                                  "--lang", "de", "--now", now], stdin: Self.setReadings(now, base: 120), env: ["TZ": "Europe/Berlin"])
        #expect(de.status == 0, "\(de.stderr)")
        #expect(de.stdout.contains("Satz 1 von 3; nächster Satz ab 12:01"), "\(de.stdout)")
    }
}

/// The served simulator's NIBP model judges a multi-set calibration: a scenario can make the
/// final verdict fail, which is `failedAfterRetries` with `attemptCount` 1 (exit 1) and closes it.
@Suite struct MultiSetVerdictTests {
    @Test func aRefusedCalibrationFailsOnceAndCloses() async throws {
        // Attempt 3's script is the verdict on all three sets.
        let scenario = Scenario(nibp: NIBPScenario(attempts: [NIBPAttemptScript(), NIBPAttemptScript(), NIBPAttemptScript(session: false)]))
        let server = try ServedSimulator(.unix, scenario: scenario)
        defer { server.stop() }
        let state = try BPInitE2E.directory().appendingPathComponent("state.sqlite3").path
        for (now, base) in [("2026-11-29T10:00:00Z", 120), ("2026-11-29T11:02:00Z", 130)] {
            #expect(try MultiSetEndToEndTests.set(server, state: state, now: now, base: base).status == 0)
        }
        let last = try MultiSetEndToEndTests.set(server, state: state, now: "2026-11-29T12:04:00Z", base: 125)
        #expect(last.status == 1, "\(last.stderr)")
        let finished = try #require(MultiSetEndToEndTests.finished(last.lines))
        #expect((finished["result"] as? [String: Any])?["kind"] as? String == "failedAfterRetries")
        #expect((finished["result"] as? [String: Any])?["attemptCount"] as? Int == 1)
        #expect(try SQLiteStore(path: state).calibrations(openOnly: false).map(\.status) == [.failed])
        // The audit log keeps the sets' means with the verdict (history shows them).
        let runs = try SQLiteStore(path: state).auditRuns(AuditFilter())
        #expect(runs.last?.resultJSON?.contains(#""sets":[{"set":1"#) == true, "\(runs.last?.resultJSON ?? "")")
    }
}

/// `cuff ingest --cuff-id ID` names the cuff on every reading, and refuses a record naming another.
@Suite struct CuffIdIngestTests {
    @Test func cuffIdIsWrittenOnEveryReadingAndAnotherCuffIsRejected() throws {
        let input = #"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:15:00Z"}"# + "\n"
            + #"{"systolic":122,"diastolic":80,"pulse":65,"measuredAt":"2026-11-29T10:16:00Z","cuff":"OTHER-1"}"# + "\n"
        let r = try Corsano.run(["cuff", "ingest", "--from", "jsonl", "--cuff-id", "AA:BB:CC:DD:EE:01", "-"], stdin: input)
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.lines.count == 1)
        #expect(r.lines.first?.contains(#""cuff":"AA:BB:CC:DD:EE:01""#) == true, "\(r.stdout)")
        #expect(r.stderr.contains("names cuff OTHER-1"), "\(r.stderr)")
    }
}
