import CorsanoKit
import Foundation
import Testing
import TestSupport

/// Time decisions of a multi-set calibration on a shared PostgreSQL store are the server's
/// (docs/design.md "Multi-set calibration"): a gateway whose clock is two days ahead (Debian's
/// faketime around the real binary) neither expires the open calibration nor locks the
/// correctly-clocked gateways out.
@Suite struct StoreClockEndToEndTests {
    /// `bp-init --protocol corsano` on the real clock against `uri`, under `faketime OFFSET` when given.
    static func set(_ server: ServedSimulator, uri: String, gateway: String, readingsFrom start: Instant, fake: String? = nil,
                    extra: [String] = []) throws -> Shell.Outcome {
        let args = ["bp-init", "--protocol", "corsano", "--clock", "real", "--bracelet", server.listening, "--state", uri, "--json",
                    "--gateway", gateway] + extra
        let stdin = MultiSetEndToEndTests.setReadings(RFC3339.format(start), base: 120)
        guard let fake else { return try Shell.run(Corsano.binary.path, args, stdin: stdin) }
        return try Shell.run("faketime", ["-f", fake, Corsano.binary.path] + args, stdin: stdin)
    }

    static func wallNow() -> Instant { Instant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970)) }

    @Test func aGatewayTwoDaysAheadIsRefusedAndTheOpenCalibrationStays() async throws {
        let server = try ServedSimulator(.unix)
        defer { server.stop() }
        let uri = try ThrowawayPostgres.shared().createDatabase().uri

        // Set 1 on gateway A, right clock.
        let one = try Self.set(server, uri: uri, gateway: "gateway-a", readingsFrom: Self.wallNow())
        #expect(one.status == 0, "\(one.stderr)")
        let opened = try #require(try PostgresStore(uri: uri).calibrationOpen(serial: "SIM-287-0001"))
        let dueAt = try #require(opened.nextDueAt)

        // Gateway B two days ahead: 74 naming both times, before the bracelet is reached; nothing written.
        let ahead = try Self.set(server, uri: uri, gateway: "gateway-b", readingsFrom: Self.wallNow().adding(interval: 2 * 86_400),
                                 fake: "+2d")
        #expect(ahead.status == 74, "\(ahead.stderr)")
        #expect(ahead.stdout.isEmpty, "no event: the bracelet was not reached")
        #expect(ahead.stderr.contains("this host's clock reads") && ahead.stderr.contains("the server's")
                && ahead.stderr.contains("ahead, more than --max-clock-skew 300 s"), "\(ahead.stderr)")
        let times = ahead.stderr.matches(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/).compactMap { RFC3339.parseInstant(String($0.output.0)) }
        #expect(times.count == 2, "\(ahead.stderr)")
        if times.count == 2 { #expect(abs(times[0].seconds(since: times[1]) - 2 * 86_400) < 600, "\(times)") }
        let after = try PostgresStore(uri: uri).calibrations(openOnly: false)
        #expect(after == [opened], "the open calibration is intact, no expired record")
        #expect(try PostgresStore(uri: uri).auditRuns(AuditFilter()).count == 1, "no audit run of the refused one")

        // Gateway C, right clock: set 2 due as before (75 until one hour after set 1 ended).
        let early = try Self.set(server, uri: uri, gateway: "gateway-c", readingsFrom: Self.wallNow())
        #expect(early.status == 75, "\(early.stderr)")
        #expect(early.stderr.contains("set 2 of 3") && early.stderr.contains("not due before \(RFC3339.format(dueAt))"), "\(early.stderr)")

        // Allowed its skew, the clock ahead still does not decide: the server's now() does (75, not expired).
        let allowed = try Self.set(server, uri: uri, gateway: "gateway-b", readingsFrom: Self.wallNow().adding(interval: 2 * 86_400),
                                   fake: "+2d", extra: ["--max-clock-skew", "72h"])
        #expect(allowed.status == 75, "\(allowed.stderr)")
        #expect(allowed.stderr.contains("not due before \(RFC3339.format(dueAt))"), "\(allowed.stderr)")
        #expect(try PostgresStore(uri: uri).calibrations(openOnly: false) == [opened])
    }
}
