import CorsanoKit
import Foundation
import Testing

/// Issue 33's end-to-end test: a served simulator with two scenario subjects, calibrations from
/// `--cuff sim:` readings, `nibp read` over the bridge (stored values and `--spot` with its
/// `working` notices), and a bridge without the NIBP methods (-32601 → 69).
@Suite(.serialized) struct NIBPReadEndToEndTests {
    static let start = "2026-11-29T08:00:00Z"
    static let twelveHoursLater = "2026-11-29T20:00:00Z"
    static let dayLater = "2026-11-30T08:00:00Z"

    /// S1 wears the bracelet; S2 is another participant whose blood pressure is far higher, so a
    /// calibration against S2's readings is a calibration against bad readings for S1's bracelet.
    static let scenario = Scenario(
        serial: "SIM-NIBP-33", nibp: NIBPScenario(wearer: "S1", spotSeconds: 1.5),
        subjects: [ScenarioSubject(id: "S1", baseline: SubjectLevel(systolic: 118, diastolic: 76, pulse: 66),
                                   rhythm: SubjectRhythm(systolic: 8, diastolic: 5, pulse: 4, peakHour: 14),
                                   changes: [SubjectChange(label: "exercise", from: "2026-11-29T17:00:00Z", until: "2026-11-29T17:45:00Z",
                                                           systolic: 25, diastolic: 8, pulse: 40)]),
                   ScenarioSubject(id: "S2", baseline: SubjectLevel(systolic: 152, diastolic: 96, pulse: 78))])

    /// Mean |bracelet − S1's truth| of `lines` (reading lines from `nibp read`), systolic and diastolic.
    static func meanError(_ lines: [String]) throws -> (systolic: Double, diastolic: Double, count: Int) {
        let wearer = try #require(scenario.subjects.first { $0.id == "S1" })
        var sys = 0.0, dia = 0.0
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["source"] as? String == "bracelet")
            #expect(object["bracelet"] as? String == "SIM-NIBP-33")
            #expect(object["subject"] as? String == "S1")
            let stamp = try #require(object["measuredAt"] as? String)
            let at = try #require(RFC3339.parseInstant(stamp))
            let truth = wearer.truth(at: at)
            sys += abs(Double(try #require(object["systolic"] as? Int)) - truth.systolic)
            dia += abs(Double(try #require(object["diastolic"] as? Int)) - truth.diastolic)
        }
        let n = Double(max(lines.count, 1))
        return (sys / n, dia / n, lines.count)
    }

    @Test func aWellAndABadlyCalibratedBraceletReadBackOverTheBridge() throws {
        let server = try ServedSimulator(.unix, scenario: Self.scenario)
        defer { server.stop() }
        let bracelet = ["--bracelet", server.listening]

        // Several subjects and none named: a usage error before the flow.
        let unnamed = try Corsano.run(["bp-init", "--cuff", "sim:", "--no-state", "--no-preparation", "--now", Self.start] + bracelet)
        #expect(unnamed.status == 64, "\(unnamed.stderr)")
        #expect(unnamed.stderr.contains("name one with --subject-id"))

        // Calibrated against the wearer's own readings.
        let good = try Corsano.run(["bp-init", "--cuff", "sim:", "--subject-id", "S1", "--no-state", "--no-preparation",
                                    "--now", Self.start, "--json"] + bracelet)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.lines.contains { $0.contains(#""subject":"S1""#) && $0.contains(#""event":"measurement""#) })
        let afterGood = try Corsano.run(["nibp", "read", "--since", Self.start, "--now", Self.twelveHoursLater, "--subject-id", "S1"] + bracelet)
        #expect(afterGood.status == 0, "\(afterGood.stderr)")
        let wellCalibrated = try Self.meanError(afterGood.lines)
        #expect(wellCalibrated.count >= 20)
        #expect(wellCalibrated.systolic <= 5)
        #expect(wellCalibrated.diastolic <= 5)

        // Calibrated against another participant's readings: far from the wearer's truth.
        let bad = try Corsano.run(["bp-init", "--cuff", "sim:", "--subject-id", "S2", "--no-state", "--no-preparation",
                                   "--now", Self.twelveHoursLater, "--json"] + bracelet)
        #expect(bad.status == 0, "\(bad.stderr)")
        let afterBad = try Corsano.run(["nibp", "read", "--since", Self.twelveHoursLater, "--now", Self.dayLater,
                                        "--subject-id", "S1", "--json"] + bracelet)
        #expect(afterBad.status == 0, "\(afterBad.stderr)")
        let badlyCalibrated = try Self.meanError(afterBad.lines)
        #expect(badlyCalibrated.count >= 20)
        #expect(badlyCalibrated.systolic >= 10)
        #expect(badlyCalibrated.diastolic >= 10)
        print("nibp read: mean |bracelet - truth| well calibrated \(wellCalibrated), against S2's readings \(badlyCalibrated)")

        // Stored values are the run clock's: the same range reads the same twice.
        let again = try Corsano.run(["nibp", "read", "--since", Self.twelveHoursLater, "--now", Self.dayLater,
                                     "--subject-id", "S1"] + bracelet)
        #expect(again.lines == afterBad.lines)

        // A spot measurement over the bridge: the bridge sends `working` while the bracelet measures
        // (1.5 s here), which the client takes as progress and says once on stderr.
        let spot = try Corsano.run(["nibp", "read", "--spot", "--now", Self.dayLater, "--json"] + bracelet)
        #expect(spot.status == 0, "\(spot.stderr)")
        #expect(spot.lines.count == 1)
        #expect(spot.lines.first?.contains(#""source":"bracelet","bracelet":"SIM-NIBP-33""#) == true)
        #expect(spot.lines.first?.contains(#""measuredAt":"2026-11-30T08:00:"#) == true)
        #expect(spot.stderr.contains("nibp read: bracelet SIM-NIBP-33 is measuring"), "\(spot.stderr)")
    }

    @Test func theSpotRequestIsKeptAliveByWorkingOnTheWire() async throws {
        let server = try ServedSimulator(.unix, scenario: Self.scenario)
        defer { server.stop() }
        let calibrate = try Corsano.run(["bp-init", "--cuff", "sim:", "--subject-id", "S1", "--no-state", "--no-preparation",
                                         "--now", Self.start, "--bracelet", server.listening])
        #expect(calibrate.status == 0, "\(calibrate.stderr)")
        // A request timeout of 1 s under a 1.5 s measurement: only `working` keeps it alive.
        let client = try await server.client(clock: VirtualClock(start: try #require(RFC3339.parseInstant(Self.start))), requestTimeout: 1)
        defer { client.shutdown() }
        let notices = Counter()
        client.onFirstWorking { notices.add() }
        let value = try await client.measureNIBP()
        #expect(notices.value == 1)
        #expect(value.quality != nil && value.pulse != nil)
    }

    @Test func aBridgeWithoutTheNIBPMethodsIsUnavailableNamingTheMethod() throws {
        // A bridge that knows identify only: every other method is -32601 (method not found).
        let bridge = """
            exec:python3 -c 'import sys, json
            for line in sys.stdin:
                m = json.loads(line)
                if "id" not in m: continue
                if m["method"] == "identify": r = {"result": {"model": "287-2", "firmware": "7.4", "serial": "REAL-9", "simulated": False}}
                else: r = {"error": {"code": -32601, "message": "method not found: " + m["method"]}}
                r.update({"jsonrpc": "2.0", "id": m["id"]}); print(json.dumps(r), flush=True)'
            """
        let stored = try Corsano.run(["nibp", "read", "--bracelet", bridge])
        #expect(stored.status == 69, "\(stored.stderr)")
        #expect(stored.stderr.contains("does not implement readNIBP"), "\(stored.stderr)")
        let spot = try Corsano.run(["nibp", "read", "--spot", "--bracelet", bridge])
        #expect(spot.status == 69, "\(spot.stderr)")
        #expect(spot.stderr.contains("does not implement measureNIBP"), "\(spot.stderr)")
        let cuff = try Corsano.run(["bp-init", "--cuff", "sim:", "--no-state", "--no-preparation", "--bracelet", bridge])
        #expect(cuff.status == 69, "\(cuff.stderr)")
        #expect(cuff.stderr.contains("does not implement simCuffReading"), "\(cuff.stderr)")
    }

    @Test func subjectPassesThroughIngestAndReplayFilterByteForByte() throws {
        let line = #"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:15:00Z","isManualEntry":false,"userId":7}"#
        let ingested = try Corsano.run(["cuff", "ingest", "--subject-id", "P-07"], stdin: line + "\n")
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(ingested.lines == [#"{"systolic":121,"diastolic":79,"pulse":64,"measuredAt":"2026-11-29T10:15:00Z","isManualEntry":false,"userId":7,"subject":"P-07"}"#])
        let filtered = try Corsano.run(["replay-filter", "--no-state", "--max-reading-age", "none"], stdin: ingested.stdout)
        #expect(filtered.stdout == ingested.stdout)
        let empty = try Corsano.run(["cuff", "ingest", "--subject-id", ""], stdin: line + "\n")
        #expect(empty.status == 64)
    }
}

/// A thread-safe count.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}
