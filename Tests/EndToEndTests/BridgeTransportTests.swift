import CorsanoKit
import Foundation
import Testing

/// The bridge over real sockets against the real `corsano bracelet serve`: dropped servers,
/// silent servers, kept bracelet state, and the serve command's own errors.
@Suite struct BridgeTransportTests {
    static let clock = VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000))

    @Test(arguments: [ServedSimulator.Listen.unix, .tcp])
    func killingTheServerMidRequestIsADisconnectWithinTheTimeout(listen: ServedSimulator.Listen) async throws {
        let server = try ServedSimulator(listen, scenario: Scenario(faults: FaultScenario(holdAtStep: HoldPoint(step: "measuring"))))
        defer { server.stop() }
        let client = try await server.client(clock: Self.clock, requestTimeout: 5)
        let pending = Task { try await client.enterStep(flow: "bp-init", step: "measuring") }
        try await client.simulatorWaitUntilHeld()
        let killedAt = ContinuousClock.now
        server.kill()
        await #expect(throws: BraceletError.disconnected) { try await pending.value }
        #expect(ContinuousClock.now - killedAt < .seconds(5))
        await #expect(throws: BraceletError.disconnected) { _ = try await client.currentPlan() }
    }

    @Test func anotherConnectionSeesAHoldAndCancellingTheHolderReleasesIt() async throws {
        let server = try ServedSimulator(.unix, scenario: Scenario(faults: FaultScenario(holdAtStep: HoldPoint(flow: "bp-init", step: "instructions"))))
        defer { server.stop() }
        let holder = try await server.client(clock: Self.clock)
        let observer = try await server.client(clock: Self.clock)
        defer { holder.shutdown(); observer.shutdown() }
        try await holder.setPlan(.nibpCalibration)
        let held = Task { try await holder.enterStep(flow: "bp-init", step: "instructions") }
        try await observer.simulatorWaitUntilHeld()
        #expect(try await observer.currentPlan() == .nibpCalibration)
        held.cancel()
        await #expect(throws: CancellationError.self) { try await held.value }
        // The holder's link lives on: its restore goes through.
        try await holder.setPlan(BraceletPlan("monitoring"))
        #expect(try await observer.currentPlan() == BraceletPlan("monitoring"))
    }

    @Test func aSilentServerTimesOutPollsAsMissedAndOtherRequestsAsDisconnects() async throws {
        let server = try ServedSimulator(.unix)
        defer { kill(server.process.processIdentifier, SIGCONT); server.stop() }
        let client = try await server.client(clock: Self.clock, requestTimeout: 1)
        try await client.startSpecialMode(value: 4)
        try await server.suspend()
        await #expect(throws: BraceletError.timeout) { _ = try await client.specialModeStatus(type: 4) }
        #expect(client.isConnected, "a missed poll leaves the link up")
        kill(server.process.processIdentifier, SIGCONT)
        #expect(try await client.specialModeStatus(type: 4).percent >= 0)
        try await server.suspend()
        let started = ContinuousClock.now
        await #expect(throws: BraceletError.disconnected) { _ = try await client.currentPlan() }
        #expect(ContinuousClock.now - started < .seconds(3))
        #expect(!client.isConnected)
    }

    @Test func serveKeepsEachBraceletsPlanAndProfileAcrossConnections() async throws {
        let profile = UserProfile(heightCm: 181, weightKg: 80, wrist: .left, gender: .male, unit: .metric,
                                  birthdate: "1975-06-30", skinTone: 2, hairDensity: .medium)
        let server = try ServedSimulator(.tcp, scenario: Scenario(serial: "KEEP-1"))
        defer { server.stop() }
        let first = try await server.client(clock: Self.clock)
        try await first.setPlan(.nibpCalibration)
        try await first.pushProfile(profile, force: false)
        await first.close()
        let second = try await server.client(clock: Self.clock)
        defer { second.shutdown() }
        #expect(try await second.identify().serial == "KEEP-1")
        #expect(try await second.currentPlan() == .nibpCalibration)
        #expect(try await second.readProfile() == profile)
    }

    @Test func helloSaysTheServedBraceletIsSimulated() async throws {
        let server = try ServedSimulator(.unix, scenario: Scenario(model: "287-1", firmware: "6.9"))
        defer { server.stop() }
        let client = try BridgeClient.connect(server.address, requestTimeout: 5)
        defer { client.shutdown() }
        let hello = try await client.hello()
        #expect(hello.identity == BraceletIdentity(model: "287-1", firmware: "6.9", serial: "SIM-287-0001"))
        #expect(hello.simulated)
    }

    @Test func nothingListeningIsUnavailable() async throws {
        #expect(throws: BraceletError.self) {
            _ = try BridgeClient.connect(.unix(path: "/tmp/corsano-nobody-\(UUID().uuidString).sock"), requestTimeout: 1)
        }
    }

    @Test(arguments: [
        (["bracelet", "serve"], 64, "--listen"),
        (["bracelet", "serve", "--listen", "sim"], 64, "--listen"),
        (["bracelet", "serve", "--listen", "tcp:127.0.0.1:0", "--stdio"], 64, "--stdio"),
        (["bracelet", "serve", "--stdio", "--scenario", "/nonexistent/s.json"], 66, "/nonexistent/s.json"),
    ])
    func serveUsageErrors(args: [String], status: Int32, mention: String) throws {
        let r = try Corsano.run(args)
        #expect(r.status == status)
        #expect(r.stderr.contains(mention), "\(r.stderr)")
    }

    @Test func serveStdioAnswersLineByLine() throws {
        let r = try Corsano.run(["bracelet", "serve", "--stdio"], stdin: """
            {"jsonrpc":"2.0","id":1,"method":"getPlan","params":{"at":"2026-11-29T10:00:00Z"}}
            {"jsonrpc":"2.0","id":2,"method":"frobnicate","params":{}}
            not json
            {"jsonrpc":"2.0","id":3,"method":"setPlan","params":{}}

            """)
        #expect(r.status == 0)
        #expect(Set(r.lines) == [
            #"{"jsonrpc":"2.0","id":1,"result":{"plan":"monitoring"}}"#,
            #"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"method not found: frobnicate"}}"#,
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"not a JSON-RPC 2.0 request"}}"#,
            #"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"invalid params: plan"}}"#,
        ])
    }
}

extension ServedSimulator.Listen: CustomTestStringConvertible {
    var testDescription: String {
        switch self {
        case .unix: return "unix"
        case .tcp: return "tcp"
        case .custom(let uri): return uri
        }
    }
}
