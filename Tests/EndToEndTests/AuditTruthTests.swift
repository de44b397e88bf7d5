import CorsanoKit
import Foundation
import Testing
import TestSupport

/// The audit log tells the truth: typed readings carry the wall-clock instant they were
/// typed (`enteredAt`) in the event, the audit record and FHIR; a run's readings have distinct
/// FHIR identifiers; a killed run whose plan was repaired says so, by an appended record.
@Suite struct AuditTruthTests {
    typealias E = BPInitE2E

    static func json(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    /// Seconds since the epoch of an RFC 3339 stamp, with its fraction.
    static func seconds(_ stamp: String?) -> Double? {
        guard let stamp, let instant = RFC3339.parseInstant(stamp) else { return nil }
        return Double(instant.secondsSinceEpoch) + Double(instant.nanoseconds) / 1e9
    }

    /// The issue's REPL script: two typed `cuff add 120/80 72` in one run are two readings: 4
    /// Observations (blood pressure and heart rate each), not 2.
    @Test func twoIdenticalTypedReadingsAreFourObservations() throws {
        let state = try E.directory().appendingPathComponent("s.sqlite3").path
        let script = "connect sim\ncuff add 120/80 72\ncuff add 120/80 72\nbp-init --no-preparation\n"
        let repl = try Corsano.run(["repl", "--state", state], stdin: script)
        #expect(repl.status == 0, "\(repl.stderr)")
        let fhir = try Corsano.run(["history", "--state", state, "--format", "fhir"])
        #expect(fhir.status == 0, "\(fhir.stderr)")
        let observations = fhir.lines.map(Self.json).filter { $0["resourceType"] as? String == "Observation" }
        #expect(Set(observations.compactMap { $0["id"] as? String }).count == 4, "\(fhir.stdout)")
        // Each carries the instant it was typed, and no two the same identity.
        #expect(observations.allSatisfy { $0["effectiveDateTime"] is String }, "\(fhir.stdout)")
    }

    /// Readings typed at bp-init's prompt: `enteredAt` between the wall-clock instants just before
    /// typing and just after the flow reported it, in the event, the audit record and FHIR; no
    /// `measuredAt`. The run's start and end in the audit log are wall time, not the virtual clock.
    @Test func typedReadingsCarryTheWallClockInstantTheyWereTyped() throws {
        let dir = try E.directory()
        let state = dir.appendingPathComponent("s.sqlite3").path
        let out = dir.appendingPathComponent("events.jsonl")
        let testStart = Date().timeIntervalSince1970
        let term = try Tmux(["bp-init", "--state", state, "--json", "--now", "2026-11-29T10:00:30Z"],
                            env: ["LANG": "C", "TERM": "dumb"], stdout: out)
        try term.answer(PromptTerminalTests.start, with: "")
        var windows: [(Double, Double)] = []
        for (index, typed) in ["120/80 72", "120/80 72"].enumerated() {
            try term.waitFor("prompt \(index + 1)") { $0.components(separatedBy: PromptTerminalTests.reading).count == index + 2 }
            let before = Date().timeIntervalSince1970
            try term.send(typed, "Enter")
            let reported = try Wait.until(seconds: 15) {
                ((try? String(contentsOf: out, encoding: .utf8)) ?? "").contains(#""index":\#(index + 1),"reading""#)
            }
            #expect(reported)
            windows.append((before, Date().timeIntervalSince1970))
        }
        #expect(try term.exitStatus() == 0)
        let testEnd = Date().timeIntervalSince1970
        let events = try String(contentsOf: out, encoding: .utf8).split(separator: "\n").map { Self.json(String($0)) }
        let fed = events.filter { $0["event"] as? String == "measurement" }.compactMap { $0["reading"] as? [String: Any] }
        #expect(fed.count == 2)
        let history = try Corsano.run(["history", "--state", state, "--json"])
        let run = Self.json(history.lines.first ?? "")
        let stored = (run["readings"] as? [[String: Any]] ?? []).compactMap { $0["reading"] as? [String: Any] }
        let fhir = try Corsano.run(["history", "--state", state, "--format", "fhir"])
        let effective = fhir.lines.map(Self.json)
            .filter { $0["resourceType"] as? String == "Observation" && ($0["component"] != nil) }
            .compactMap { $0["effectiveDateTime"] as? String }
        #expect(stored.count == 2 && effective.count == 2, "\(history.stdout)\n\(fhir.stdout)")
        for (i, (before, after)) in windows.enumerated() where i < fed.count && i < stored.count && i < effective.count {
            let entered = fed[i]["enteredAt"] as? String
            let at = try #require(Self.seconds(entered), "reading \(i + 1): \(fed[i])")
            #expect(before - 0.000_001 <= at && at <= after + 0.000_001, "reading \(i + 1): \(before) <= \(at) <= \(after)")
            #expect(fed[i]["measuredAt"] == nil)
            #expect(stored[i]["enteredAt"] as? String == entered)
            #expect(Self.seconds(effective[i]) == at)
        }
        // The audit log's start and end are wall time (whole seconds), not --now's virtual 2026-11-29.
        let started = try #require(Self.seconds(run["startedAt"] as? String))
        let ended = try #require(Self.seconds(run["endedAt"] as? String))
        #expect(started >= testStart.rounded(.down) && started <= ended && ended <= testEnd.rounded(.up), "\(run)")
    }

    /// A run killed with SIGKILL, then repaired by `bracelet repair`: its own rows stay as they
    /// were (no result, no end); an appended `plan-restore` record references it, and text, JSON and
    /// the FHIR Procedure's status (`stopped`, no longer `unknown`) show it.
    @Test func aRepairedRunIsShownKilledWithItsPlanRestored() throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let state = try E.directory().appendingPathComponent("state.sqlite3").path
        let live = try LiveCorsano(["bp-init", "--json", "--bracelet", server.listening, "--state", state] + E.now, env: [:])
        #expect(live.waitForLine(containing: #""step":"measuring""#))
        let killed = Self.json(live.linesSoFar.first { $0.contains(#""event":"started""#) } ?? "")["run"] as? String
        live.signal(SIGKILL)
        _ = live.finish(closingInput: true)
        let before = try Corsano.run(["history", "--text", "--state", state])
        #expect(before.stdout.contains("Result: not finished (still running, or killed)"))
        let repair = try Corsano.run(["bracelet", "repair", "--bracelet", server.listening, "--state", state, "--json"])
        #expect(repair.status == 0, "\(repair.stderr)")
        let json = try Corsano.run(["history", "--json", "--state", state])
        let runs = json.lines.map(Self.json)
        #expect(runs.count == 2, "\(json.stdout)")
        let run = runs.first { $0["run"] as? String == killed } ?? [:]
        #expect(run["result"] is NSNull && run["endedAt"] is NSNull, "the killed run's rows are unchanged: \(run)")
        let restored = run["planRestored"] as? [String: Any] ?? [:]
        #expect(restored["previousPlan"] as? String == "monitoring" && restored["why"] as? String == "journal", "\(run)")
        let record = runs.first { $0["flow"] as? String == "plan-restore" } ?? [:]
        #expect(record["run"] as? String == restored["record"] as? String)
        #expect((record["result"] as? [String: Any])?["restoredRun"] as? String == killed, "\(record)")
        let text = try Corsano.run(["history", "--text", "--state", state])
        #expect(text.stdout.contains("Result: killed; plan monitoring restored at \(restored["at"] as? String ?? "?")"), "\(text.stdout)")
        #expect(text.stdout.contains("plan monitoring restored for killed run \(killed ?? "?")"), "\(text.stdout)")
        let fhir = try Corsano.run(["history", "--format", "fhir", "--state", state])
        let procedures = fhir.lines.filter { $0.contains(#""resourceType":"Procedure""#) }
        #expect(procedures.count == 1, "the record is not a procedure of its own: \(fhir.stdout)")
        #expect(procedures.first?.contains(#""status":"stopped""#) == true, "\(procedures)")
        #expect(procedures.first?.contains("killed: its process ended without a result; plan monitoring restored at") == true)
    }
}
