@testable import CorsanoKit
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The bridge client against a hand-driven peer on a real socketpair: what it sends, and what it
/// makes of notifications, errors, late and malformed answers.
@Suite struct BridgeClientTests {
    /// The far end of the socket: reads the client's lines, writes what a test tells it to.
    final class Peer: @unchecked Sendable {
        let connection: LineConnection
        private var iterator: AsyncStream<String>.Iterator

        init(fd: Int32) {
            connection = LineConnection(socket: fd)
            var continuation: AsyncStream<String>.Continuation!
            let lines = AsyncStream { continuation = $0 }
            iterator = lines.makeAsyncIterator()
            let c = continuation!
            connection.start(onInbound: { if case .line(let line) = $0 { c.yield(line) } }, onClose: { c.finish() })
        }

        func next() async throws -> BridgeMessage {
            let line = try #require(await iterator.next())
            return try BridgeMessage(line: line)
        }

        func send(_ line: String) throws { try connection.send(line) }
    }

    static func pair(timeout: Double = 5) throws -> (BridgeClient, Peer, VirtualClock) {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        let client = BridgeClient(connection: LineConnection(socket: fds[0]), requestTimeout: timeout)
        let clock = VirtualClock(start: Instant(secondsSinceEpoch: 1_795_000_000))
        client.use(clock: clock)
        return (client, Peer(fd: fds[1]), clock)
    }

    @Test func everyRequestCarriesTheClientsClock() async throws {
        let (client, peer, clock) = try Self.pair()
        defer { client.shutdown() }
        async let plan = client.currentPlan()
        let request = try await peer.next()
        #expect(request.method == "getPlan")
        #expect(try request.params.string("at") == "2026-11-18T11:06:40Z")
        try peer.send(#"{"jsonrpc":"2.0","id":\#(request.id ?? 0),"result":{"plan":"sleep"}}"#)
        #expect(try await plan == BraceletPlan("sleep"))
        try await clock.sleep(seconds: 5)
        async let verdict = client.calibrationVerdict(attempt: 2)
        let second = try await peer.next()
        #expect(try second.params.string("at") == "2026-11-18T11:06:45Z")
        #expect(try second.params.int("attempt") == 2)
        try peer.send(#"{"jsonrpc":"2.0","id":\#(second.id ?? 0),"result":{"accepted":true}}"#)
        #expect(try await verdict)
    }

    /// The bridge's profile object is the one profile shape (`profile push --from` names).
    @Test func profileOnTheWireUsesTheFromFileNames() async throws {
        let (client, peer, _) = try Self.pair()
        defer { client.shutdown() }
        let profile = UserProfile(heightCm: 178, weightKg: 74, wrist: .left, gender: .male, unit: .metric,
                                  birthdate: "1980-04-12", skinTone: 3, hairDensity: .low)
        async let pushed: Void = client.pushProfile(profile, force: false)
        let push = try await peer.next()
        #expect(push.method == "pushProfile")
        // Members as read back (a parsed object keeps no order), each value as JSON text.
        guard case .object(let members) = try push.params.object("profile").value else {
            Issue.record("profile is not an object"); return
        }
        #expect(Dictionary(uniqueKeysWithValues: members.map { ($0.0, $0.1.serialized) }) == [
            "height": "178", "weight": "74", "wrist": #""left""#, "gender": #""male""#, "unit": #""metric""#,
            "birthdate": #""1980-04-12""#, "skinTone": "3", "hairDensity": #""low""#])
        try peer.send(#"{"jsonrpc":"2.0","id":\#(push.id ?? 0),"result":{}}"#)
        try await pushed
        async let read = client.readProfile()
        let request = try await peer.next()
        try peer.send(#"{"jsonrpc":"2.0","id":\#(request.id ?? 0),"result":{"profile":{"height":178,"weight":74,"wrist":"left","gender":"male","unit":"metric","birthdate":"1980-04-12","skinTone":3,"hairDensity":"low"}}}"#)
        #expect(try await read == profile)
    }

    @Test func aDisconnectedNotificationInterruptsThePendingCall() async throws {
        let (client, peer, _) = try Self.pair()
        defer { client.shutdown() }
        let pending = Task { try await client.feedCalibrationReading(CuffReading(systolic: 120, diastolic: 80, pulse: 60), attempt: 1, index: 1) }
        let request = try await peer.next()
        #expect(try request.params.object("reading").int("meanArterialPressure") == 93)
        try peer.send(#"{"jsonrpc":"2.0","method":"disconnected","params":{"reason":"BLE link lost"}}"#)
        await #expect(throws: BraceletError.disconnected) { try await pending.value }
        await #expect(throws: BraceletError.disconnected) { _ = try await client.identify() }
    }

    @Test func aMissedPollLeavesTheLinkUpAndItsLateAnswerIsIgnored() async throws {
        let (client, peer, _) = try Self.pair(timeout: 0.2)
        defer { client.shutdown() }
        let poll = Task { try await client.specialModeStatus(type: 4) }
        let request = try await peer.next()
        await #expect(throws: BraceletError.timeout) { _ = try await poll.value }
        try peer.send(#"{"jsonrpc":"2.0","id":\#(request.id ?? 0),"result":{"percent":5}}"#)
        async let plan = client.currentPlan()
        let next = try await peer.next()
        try peer.send(#"{"jsonrpc":"2.0","id":\#(next.id ?? 0),"result":{"plan":"monitoring"}}"#)
        #expect(try await plan == BraceletPlan("monitoring"))
    }

    @Test func aMalformedAnswerIsADisconnect() async throws {
        let (client, peer, _) = try Self.pair()
        defer { client.shutdown() }
        let status = Task { try await client.specialModeStatus(type: 4) }
        let request = try await peer.next()
        try peer.send(#"{"jsonrpc":"2.0","id":\#(request.id ?? 0),"result":{"percent":"lots"}}"#)
        await #expect(throws: BraceletError.disconnected) { _ = try await status.value }
        #expect(!client.isConnected)
    }

    @Test func bridgeErrorsBecomeBraceletErrors() async throws {
        let (client, peer, _) = try Self.pair()
        defer { client.shutdown() }
        for (code, expected) in [(-32003, BraceletError.refused("plan locked")), (-32002, .timeout),
                                 (-32601, .refused("bridge error -32601: plan locked"))] {
            let switched = Task { try await client.setPlan(.nibpCalibration) }
            let request = try await peer.next()
            #expect(try request.params.string("plan") == "nibpCalibration")
            try peer.send(#"{"jsonrpc":"2.0","id":\#(request.id ?? 0),"error":{"code":\#(code),"message":"plan locked"}}"#)
            await #expect(throws: expected) { try await switched.value }
        }
    }

    @Test func cancellingACallTellsTheBridge() async throws {
        let (client, peer, _) = try Self.pair()
        defer { client.shutdown() }
        let held = Task { try await client.enterStep(flow: "bp-init", step: "measuring") }
        let request = try await peer.next()
        held.cancel()
        await #expect(throws: CancellationError.self) { try await held.value }
        let cancel = try await peer.next()
        #expect(cancel.method == "cancel")
        #expect(cancel.id == nil)
        #expect(try cancel.params.int("id") == request.id)
    }

    @Test func aClosedPeerIsADisconnect() async throws {
        let (client, peer, _) = try Self.pair()
        let pending = Task { try await client.stopSpecialMode() }
        _ = try await peer.next()
        peer.connection.close()
        await #expect(throws: BraceletError.disconnected) { try await pending.value }
    }
}
