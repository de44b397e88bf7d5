import CorsanoKit
import Foundation
import Testing
import TestSupport

/// Issue 25: a failed compensation is a failure, every wait has a bound, and the journal is
/// never lost by reading it. The real binary against the in-process simulator, raw bridges
/// (shell scripts behind `exec:`) and a real SQLite file.
@Suite struct PlanRestoreFailureTests {
    typealias E = BPInitE2E

    /// A bridge whose restoring `setPlan` (to `monitoring`) is answered by `answer` (shell).
    static func bridge(restore answer: String) -> String {
        RawBridge.script(setPlanMonitoring: answer)
    }

    /// Runs `corsano ARGS`, killing it after `seconds`; the outcome and whether it had to be killed.
    static func run(_ args: [String], stdin: String, seconds: Double) -> (status: Int32, lines: [String], stderr: String, hung: Bool)? {
        guard let live = try? LiveCorsano(args, env: [:]) else { return nil }
        live.write(stdin)
        live.closeInput()
        let hung = !Wait.until(seconds: seconds, poll: 0.05) { !live.process.isRunning }
        if hung { live.signal(SIGKILL) }
        let (status, lines, stderr) = live.finish()
        return (status, lines, stderr, hung)
    }

    /// The restore the simulator refuses (`failPlanSwitch` to monitoring): exit 4, a
    /// `planRestoreFailed` event, a stderr line naming the bracelet, the plan and the repair
    /// command; the text claims no restore; the verdict is still recorded.
    @Test(arguments: [false, true])
    func aRefusedRestoreIsAFailure(text: Bool) throws {
        let dir = try E.directory()
        let scenario = try E.file(dir, "f.json", #"{"faults":{"failPlanSwitch":{"to":"monitoring"}}}"#)
        let cuff = try E.file(dir, "cuff.jsonl", E.sixReadings)
        let r = try Corsano.run(["bp-init", "--bracelet", "sim:" + scenario, "--no-state", "--no-preparation", "--cuff", cuff]
                                + E.now + (text ? ["--text"] : []))
        #expect(r.status == 4, "\(r.stderr)")
        #expect(r.stderr.contains("bracelet SIM-287-0001 was left in plan nibpCalibration"), "\(r.stderr)")
        #expect(r.stderr.contains("corsano bracelet repair --plan monitoring"), "\(r.stderr)")
        if text {
            #expect(!r.stdout.contains("restored"), "\(r.stdout)")
        } else {
            #expect(E.names(r.lines).contains("planRestoreFailed"), "\(r.lines)")
            #expect(!E.names(r.lines).contains("planRestored"), "\(r.lines)")
            #expect(E.result(r.lines) == #"{"kind":"success","measurementCount":2}"#)
        }
    }

    /// A bridge that dies at the restore: exit 4, the event and the stderr line.
    @Test func aBridgeThatDiesAtTheRestoreIsAFailure() throws {
        let r = try #require(Self.run(["bp-init", "--bracelet", "exec:" + Self.bridge(restore: "exit 0"), "--no-state",
                                       "--request-timeout", "2"] + E.now, stdin: E.sixReadings, seconds: 30))
        #expect(!r.hung)
        #expect(r.status == 4, "\(r.stderr)")
        #expect(E.names(r.lines).contains("planRestoreFailed"), "\(r.lines)")
        #expect(r.stderr.contains("bracelet RAW-1 was left in plan nibpCalibration"), "\(r.stderr)")
    }

    /// A bridge that answers the restore with `working` forever: `working` extends only the
    /// long methods, so the run ends within its request timeout (here 1 s; before, never).
    @Test func aBridgeWorkingForeverOnTheRestoreEndsWithinTheBound() throws {
        let forever = #"while :; do printf '{"jsonrpc":"2.0","method":"working","params":{"id":%s}}\n' "$id" || exit 0; sleep 0.2; done"#
        let started = Date()
        let r = try #require(Self.run(["bp-init", "--bracelet", "exec:" + Self.bridge(restore: forever), "--no-state",
                                       "--request-timeout", "1"] + E.now, stdin: E.sixReadings, seconds: 30))
        #expect(!r.hung, "still running after 30 s")
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(r.status == 4, "\(r.stderr)")
        #expect(E.names(r.lines).contains("planRestoreFailed"), "\(r.lines)")
    }

    /// A journal row that cannot be read is corruption (74, naming it), never skipped: the row
    /// is still there afterwards, and the bracelet untouched.
    @Test func anUnreadableJournalRowIs74AndKept() throws {
        let dir = try E.directory()
        let state = dir.appendingPathComponent("state.sqlite3").path
        let first = try Corsano.run(["bp-init", "--state", state] + E.now, stdin: E.sixReadings)
        #expect(first.status == 0, "\(first.stderr)")
        let insert = Process()
        insert.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        insert.arguments = [state, "INSERT INTO plan_journal (serial, previous_plan, flow, pid, opened_at, gateway) "
                            + "VALUES ('SIM-287-0001', 'sleep', 'bp-init', 1, 'not a time', '')"]
        try insert.run()
        insert.waitUntilExit()
        #expect(insert.terminationStatus == 0)
        for args in [["bp-init", "--state", state] + E.now, ["bracelet", "repair", "--state", state]] {
            let r = try Corsano.run(args, stdin: E.sixReadings)
            #expect(r.status == 74, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("plan_journal"), "\(r.stderr)")
        }
        let count = Process()
        count.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        count.arguments = [state, "SELECT count(*) FROM plan_journal"]
        let out = Pipe()
        count.standardOutput = out
        try count.run()
        count.waitUntilExit()
        #expect(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }

    /// A bracelet failure names its cause on stderr, never a bare exit 4: a refused switch to
    /// the calibration plan (in-process simulator), a malformed answer (raw bridge).
    @Test func aBraceletFailureNamesItsCause() throws {
        let dir = try E.directory()
        let scenario = try E.file(dir, "f.json", #"{"faults":{"failPlanSwitch":{"to":"nibpCalibration"}}}"#)
        let refused = try Corsano.run(["bp-init", "--bracelet", "sim:" + scenario, "--no-state"] + E.now, stdin: E.sixReadings)
        #expect(refused.status == 4, "\(refused.stderr)")
        #expect(refused.stderr.contains("bracelet SIM-287-0001: bracelet refused: switch to plan nibpCalibration failed"),
                "\(refused.stderr)")
        let bridge = RawBridge.script(measuring: #"printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id""#)
            .replacingOccurrences(of: #"{"accepted":true}"#, with: #"{"accepted":"yes"}"#)
        let malformed = try Corsano.run(["bp-init", "--bracelet", "exec:" + bridge, "--no-state"] + E.now, stdin: E.sixReadings)
        #expect(malformed.status == 4, "\(malformed.stderr)")
        #expect(malformed.stderr.contains("bridge reply to feedCalibrationReading malformed: accepted"), "\(malformed.stderr)")
        let profile = RawBridge.script(readProfile: #"printf '{"jsonrpc":"2.0","id":%s,"result":{"profile":[]}}\n' "$id""#)
        let wearing = try Corsano.run(["wearing-opt", "--bracelet", "exec:" + profile, "--no-state", "--now", WearingE2E.now])
        #expect(wearing.status == 4, "\(wearing.stderr)")
        #expect(wearing.stderr.contains("bracelet RAW-1: bridge reply to readProfile malformed: profile"), "\(wearing.stderr)")
    }

    /// History says a run left the bracelet switched: its result carries `planRestoreFailed`
    /// beside the verdict, which stays recorded.
    @Test func historyRecordsAFailedRestore() throws {
        let dir = try E.directory()
        let scenario = try E.file(dir, "f.json", #"{"faults":{"failPlanSwitch":{"to":"monitoring"}}}"#)
        let state = dir.appendingPathComponent("state.sqlite3").path
        let r = try Corsano.run(["bp-init", "--bracelet", "sim:" + scenario, "--state", state] + E.now, stdin: E.sixReadings)
        #expect(r.status == 4, "\(r.stderr)")
        let history = try Corsano.run(["history", "--state", state, "--json"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains(#""kind":"success""#), "\(history.stdout)")
        #expect(history.stdout.contains(#""planRestoreFailed":{"plan":"nibpCalibration","previousPlan":"monitoring""#),
                "\(history.stdout)")
    }
}
