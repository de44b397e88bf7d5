import CorsanoKit
import Foundation
import Testing

/// A bracelet under contract test, reached one of three ways, with the simulator's test controls.
struct BraceletSubject: Sendable {
    /// How the contract suite reaches the simulator.
    enum Transport: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case inProcess, unixSocket, tcpLoopback, execStdio
        var testDescription: String { rawValue }
    }

    let bracelet: any Bracelet
    let clock: VirtualClock
    /// Returns once a call is held at a step.
    let waitUntilHeld: @Sendable () async throws -> Void
    /// Drops the bracelet's link from the simulator's side.
    let dropLink: @Sendable () async throws -> Void
    /// Ends the connection and any server behind it (synchronous, so a `defer` can call it).
    let teardown: @Sendable () -> Void

    static let start = Instant(secondsSinceEpoch: 1_795_000_000)

    /// Starts the simulator for `scenario` and `seed` behind `transport` and connects to it.
    static func make(_ transport: Transport, _ scenario: Scenario = Scenario(), seed: UInt64 = 1) async throws -> BraceletSubject {
        let clock = VirtualClock(start: start)
        switch transport {
        case .inProcess:
            let sim = SimulatedBracelet(scenario: scenario, seed: seed, clock: clock)
            return BraceletSubject(bracelet: sim, clock: clock, waitUntilHeld: { await sim.waitUntilHeld() },
                                   dropLink: { sim.disconnect() }, teardown: { sim.disconnect() })
        case .unixSocket, .tcpLoopback:
            let server = try ServedSimulator(transport == .unixSocket ? .unix : .tcp, scenario: scenario, seed: seed)
            do {
                let client = try await server.client(clock: clock)
                return BraceletSubject(bracelet: client, clock: clock, waitUntilHeld: { try await client.simulatorWaitUntilHeld() },
                                       dropLink: { try await client.simulatorDisconnect() },
                                       teardown: { client.shutdown(); server.stop() })
            } catch {
                server.stop()
                throw error
            }
        case .execStdio:
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-exec-\(UUID().uuidString).json")
            try JSONEncoder().encode(scenario).write(to: file)
            let command = "exec '\(Corsano.binary.path)' bracelet serve --stdio --scenario '\(file.path)' --seed \(seed)"
            let client = try BridgeClient.connect(.exec(command: command), requestTimeout: 5)
            client.use(clock: clock)
            return BraceletSubject(bracelet: client, clock: clock, waitUntilHeld: { try await client.simulatorWaitUntilHeld() },
                                   dropLink: { try await client.simulatorDisconnect() },
                                   teardown: { client.shutdown(); try? FileManager.default.removeItem(at: file) })
        }
    }

    /// Starts special mode 4 and polls every 5 s of the virtual clock until finished (at most `limit` polls).
    func runOptimization(limit: Int = 80) async throws -> [(elapsed: Double, status: SpecialModeStatus)] {
        let started = clock.now()
        try await bracelet.startSpecialMode(value: 4)
        var polls: [(Double, SpecialModeStatus)] = []
        for _ in 0..<limit {
            try await clock.sleep(seconds: 5)
            let status = try await bracelet.specialModeStatus(type: 4)
            polls.append((clock.now().seconds(since: started), status))
            if status.finished { break }
        }
        try await bracelet.stopSpecialMode()
        return polls
    }
}

extension CuffReading {
    static func cuff(_ sys: Int, _ dia: Int, _ pulse: Int?) -> CuffReading {
        CuffReading(systolic: sys, diastolic: dia, pulse: pulse)
    }
}
