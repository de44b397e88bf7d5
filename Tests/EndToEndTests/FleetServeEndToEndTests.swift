import CorsanoKit
import Foundation
import Synchronization
import Testing
import TestSupport

/// A real `corsano bracelet serve --fleet N` (or `--fleet-scenarios DIR`) process: one process,
/// one socket per bracelet in its directory, and the `listening` line of each.
final class ServedFleet: @unchecked Sendable {
    let process = Process()
    /// The directory of the sockets (made by the server).
    let directory: URL
    /// Each bracelet's serial and the URI it listens on, in the server's order.
    let listening: [(serial: String, uri: String)]

    /// Starts the fleet; `options` are `--fleet N` or `--fleet-scenarios DIR` (and more);
    /// returns once every bracelet listens (`count` lines).
    init(_ options: [String], count: Int, seed: UInt64 = 1) throws {
        let parent = URL(fileURLWithPath: "/tmp").appendingPathComponent("corsano-fleet-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        directory = parent.appendingPathComponent("bracelets")
        process.executableURL = Corsano.binary
        process.arguments = ["bracelet", "serve", "--listen", "unix:" + directory.path, "--seed", String(seed)] + options
        process.environment = Corsano.inherited
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var text = Data()
        while text.filter({ $0 == 10 }).count < count {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text.append(chunk)
        }
        listening = String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let uri = object["listening"] as? String, let serial = object["serial"] as? String else { return nil }
            return (serial, uri)
        }
    }

    /// Stops the server (SIGTERM) and waits for it.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }
}

/// One simulator process for a fleet, and a lab's stations on one PostgreSQL server without a
/// connection held while they wait (docs/design.md "State store", "The bracelet port").
@Suite struct FleetServeEndToEndTests {
    typealias E = BPInitE2E

    static func mode(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & 0o777 : 0
    }

    @Test func aFleetServesEachBraceletOnItsOwnSocket() throws {
        let fleet = try ServedFleet(["--fleet", "3"], count: 3)
        defer { fleet.stop() }
        #expect(fleet.listening.map(\.serial) == ["SIM-287-0001", "SIM-287-0002", "SIM-287-0003"])
        #expect(fleet.listening.map(\.uri) == fleet.listening.map { "unix:" + fleet.directory.path + "/" + $0.serial + ".sock" })
        #expect(Self.mode(fleet.directory.path) == 0o700)
        for (_, uri) in fleet.listening { #expect(Self.mode(String(uri.dropFirst(5))) == 0o600, "\(uri)") }
        // Each socket is its own bracelet: the run on the second names the second serial.
        let run = try Corsano.run(["bp-init", "--bracelet", fleet.listening[1].uri, "--no-state"] + E.now, stdin: E.sixReadings)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""bracelet":"SIM-287-0002""#), "\(run.stdout)")
        #expect(!run.stdout.contains("SIM-287-0001"))
    }

    @Test func aFleetListensOnUnixSocketsOnly() throws {
        let tcp = try Corsano.run(["bracelet", "serve", "--fleet", "2", "--listen", "tcp:127.0.0.1:0"])
        #expect(tcp.status == 64, "\(tcp.stderr)")
        #expect(tcp.stderr.contains("--listen") && tcp.stderr.contains("unix:DIR"), "\(tcp.stderr)")
        let both = try Corsano.run(["bracelet", "serve", "--fleet", "2", "--fleet-scenarios", "/tmp", "--listen", "unix:/tmp/x"])
        #expect(both.status == 64, "\(both.stderr)")
    }

    @Test func fleetScenariosServeOneBraceletPerFile() throws {
        let dir = try E.directory()
        for serial in ["LAB-B", "LAB-A"] {
            try JSONEncoder().encode(Scenario(serial: serial)).write(to: dir.appendingPathComponent(serial.lowercased() + ".json"))
        }
        let fleet = try ServedFleet(["--fleet-scenarios", dir.path], count: 2)
        defer { fleet.stop() }
        #expect(fleet.listening.map(\.serial) == ["LAB-A", "LAB-B"])
        let run = try Corsano.run(["bp-init", "--bracelet", fleet.listening[1].uri, "--no-state"] + E.now, stdin: E.sixReadings)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""bracelet":"LAB-B""#), "\(run.stdout)")
        // Two files with one serial: refused naming the second (65), nothing served.
        try JSONEncoder().encode(Scenario(serial: "LAB-A")).write(to: dir.appendingPathComponent("lab-c.json"))
        let twice = try Corsano.run(["bracelet", "serve", "--fleet-scenarios", dir.path, "--listen", "unix:" + dir.path + "/socks"])
        #expect(twice.status == 65, "\(twice.stderr)")
        #expect(twice.stderr.contains("lab-c.json") && twice.stderr.contains("LAB-A"), "\(twice.stderr)")
    }

    /// Runs `count` commands at once, each on a thread of its own; their outcomes in order.
    static func together(_ count: Int, _ command: @escaping @Sendable (Int) throws -> Corsano.Outcome) -> [Corsano.Outcome?] {
        let outcomes = Mutex<[Int: Corsano.Outcome]>([:])
        let group = DispatchGroup()
        for i in 0..<count {
            group.enter()
            Thread {
                if let outcome = try? command(i) { outcomes.withLock { $0[i] = outcome } }
                group.leave()
            }.start()
        }
        group.wait()
        return (0..<count).map { i in outcomes.withLock { $0[i] } }
    }

    /// Every station's run exited 0, each bracelet has one run in the audit log, and the chain verifies.
    static func expectEveryRunSucceededOnce(_ outcomes: [Corsano.Outcome?], server: ThrowawayPostgres,
                                            database: (name: String, uri: String)) throws {
        for (i, outcome) in outcomes.enumerated() {
            #expect(outcome?.status == 0, "station \(i): \(outcome?.stderr ?? "did not run")")
        }
        let runs = try server.execute("SELECT bracelet_serial, count(*) FROM audit_run GROUP BY bracelet_serial", database: database.name)
        #expect(runs.count == outcomes.count && runs.allSatisfy { $0[1] == "1" }, "\(runs)")
        let verify = try Corsano.run(["history", "--verify", "--state", database.uri])
        #expect(verify.status == 0, "\(verify.stderr)")
    }

    /// A server of `max_connections` 12 (9 for ordinary roles, 12 for this superuser), 3 gateways
    /// of 8 stations each, 24 calibrations at once on 24 served bracelets: every one succeeds,
    /// once. A station held its connection for its whole run before, so 24 runs needed 24
    /// connections and the twelfth-odd failed with "too many clients" (74).
    @Test func twentyFourStationsShareTwelveConnections() throws {
        let server = try ThrowawayPostgres.ownServer(maxConnections: 12)
        defer { try? server.stopImmediately() }
        let database = try server.createDatabase()
        let fleet = try ServedFleet(["--fleet", "24"], count: 24)
        defer { fleet.stop() }
        #expect(fleet.listening.count == 24)
        let uris = fleet.listening.map(\.uri)
        let outcomes = Self.together(24) { i in
            try Corsano.run(["bp-init", "--bracelet", uris[i], "--state", database.uri, "--gateway", "gw\(i / 8 + 1)",
                             "--no-preparation"] + E.now, stdin: E.sixReadings)
        }
        try Self.expectEveryRunSucceededOnce(outcomes, server: server, database: database)
    }

    /// The plan each bracelet of `fleet` runs, asked over a fresh connection.
    static func plans(_ fleet: ServedFleet) async throws -> [BraceletPlan] {
        var plans: [BraceletPlan] = []
        for (_, uri) in fleet.listening {
            let client = try BridgeClient.connect(try BraceletAddress(uri), requestTimeout: 5, token: nil)
            client.use(clock: VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000)))
            plans.append(try await client.planStatus().plan)
            client.shutdown()
        }
        return plans
    }

    /// max_connections 20 and 64 stations at once: with the default `--store-wait` every run
    /// succeeds; with `--store-wait 1s` a run that cannot get a connection in time ends 75
    /// (`state store busy`), never 74, and every bracelet is back in `monitoring`.
    @Test func sixtyFourStationsOnTwentyConnections() async throws {
        let server = try ThrowawayPostgres.ownServer(maxConnections: 20)
        defer { try? server.stopImmediately() }
        let fleet = try ServedFleet(["--fleet", "64"], count: 64)
        defer { fleet.stop() }
        let uris = fleet.listening.map(\.uri)
        for wait in [nil, "1s"] {
            let database = try server.createDatabase()
            let outcomes = Self.together(64) { i in
                try Corsano.run(["bp-init", "--bracelet", uris[i], "--state", database.uri, "--gateway", "gw\(i / 8 + 1)",
                                 "--no-preparation"] + (wait.map { ["--store-wait", $0] } ?? []) + E.now, stdin: E.sixReadings)
            }
            for (i, outcome) in outcomes.enumerated() {
                if wait == nil {
                    #expect(outcome?.status == 0, "station \(i): \(outcome?.stderr ?? "did not run")")
                } else {
                    #expect(outcome?.status == 0 || outcome?.status == 75, "station \(i): \(outcome?.stderr ?? "did not run")")
                    if outcome?.status == 75 { #expect(outcome?.stderr.contains("state store busy") == true, "\(outcome?.stderr ?? "")") }
                }
            }
            #expect(try await Self.plans(fleet).allSatisfy { $0 == BraceletPlan("monitoring") })
        }
    }

    /// `pg_ctl restart -m fast` while 16 stations calibrate (each held 3 s at measuring, on the
    /// simulator's real time): every run succeeds, each set is recorded once, the chain verifies.
    @Test func aServerRestartMidRunLosesNoRun() throws {
        let server = try ThrowawayPostgres.ownServer()
        defer { try? server.stopImmediately() }
        let database = try server.createDatabase()
        let dir = try E.directory()
        let scenario = dir.appendingPathComponent("hold.json")
        try JSONEncoder().encode(Scenario(faults: FaultScenario(holdAtStep: HoldPoint(flow: "bp-init", step: "measuring", seconds: 3))))
            .write(to: scenario)
        let fleet = try ServedFleet(["--fleet", "16", "--scenario", scenario.path], count: 16)
        defer { fleet.stop() }
        let uris = fleet.listening.map(\.uri)
        let restarted = Mutex<String?>(nil)
        Thread {
            Thread.sleep(forTimeInterval: 1.5)
            do { try server.restartFast() } catch { restarted.withLock { $0 = "\(error)" } }
        }.start()
        let outcomes = Self.together(16) { i in
            try Corsano.run(["bp-init", "--bracelet", uris[i], "--state", database.uri, "--gateway", "gw\(i / 4 + 1)",
                             "--no-preparation", "-v"] + E.now, stdin: E.sixReadings)
        }
        #expect(restarted.withLock { $0 } == nil)
        try Self.expectEveryRunSucceededOnce(outcomes, server: server, database: database)
    }
}
