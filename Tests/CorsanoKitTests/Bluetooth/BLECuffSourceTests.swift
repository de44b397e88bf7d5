import Synchronization
import Testing
@testable import CorsanoKit

/// A whole calibration over a live cuff (BLECuffSource over a fake central): the host rules drop
/// the stored history as replayed and measurement 1's replay after the reconnect as duplicate.
@Suite struct BLECuffSourceTests {
    typealias F = BPInitFixture

    @Test func calibrationOverACuffThatDumpsAtEveryConnect() async throws {
        let clock = VirtualClock(start: F.start)
        let payload = CuffCollectorTests.payload
        // The cuff's clock runs 697 days behind (2025-01-01T00:03:40 at the start, 10:00:30Z).
        let offset = RFC3339.parseNaive("2025-01-01T00:03:40")!.secondsSinceEpoch - F.start.secondsSinceEpoch
        let stored = [payload(133, 86, 71, "2024-12-30T08:15:00"), payload(126, 84, 69, "2024-12-31T19:40:00")]
        let first = payload(128, 82, 66, "2025-01-01T00:04:00"), second = payload(124, 80, 64, "2025-01-01T00:06:00")
        let central = FakeCentral {
            $0.clockNow = { CuffClockValue.currentTimeValue(NaiveDateTime(secondsSinceEpoch: clock.now().secondsSinceEpoch + offset)!) }
            $0.dump = stored + [first]
            $0.laterDumps = [stored + [first, second]]
            $0.dropAfterDumps = 1
        }
        let collector = CuffCollector(central: central, config: .init(address: FakeCentral.device.address, zone: ZoneReader(identifier: "UTC")!),
                                      now: { clock.now() })
        let reported = Mutex<[CuffCollector.Event]>([])
        let source = BLECuffSource(collector: collector, timeout: .seconds(10)) { event in reported.withLock { $0.append(event) } }
        let recorder = EventRecorder()
        let flow = BPInitializationFlow(config: .default, bracelet: SimulatedBracelet(scenario: Scenario(), clock: clock), clock: clock,
                                        cuff: source, sink: recorder, interaction: NonInteractive(), pairing: AssumedPairing(), runID: "ble")
        let result = try await flow.run()
        await source.close()
        #expect(result == .success(measurementCount: 2))
        let drops = recorder.events.filter { $0.event == "cuffReadingDropped" }.map {
            "\($0["reason"]?.stringValue ?? "") \($0["reading"]?["systolic"]?.intValue ?? 0)"
        }
        #expect(drops == ["replayed 133", "replayed 126", "replayed 133", "replayed 126", "duplicate 128"])
        let fed = recorder.events.filter { $0.event == "measurement" }.compactMap { $0["reading"]?["measuredAt"]?.stringValue }
        #expect(fed == ["2026-11-29T10:00:50Z", "2026-11-29T10:02:50Z"])
        #expect(reported.withLock { $0 }.filter { $0 == .disconnected }.count == 1)
        #expect(central.calls.filter { $0 == "Connect" }.count == 2)
        #expect(central.calls.suffix(2) == ["Disconnect", "close"])
    }

    @Test func collectorFailureEndsTheFlowAsCuffError() async throws {
        let central = FakeCentral { $0.characteristics = [FakeCentral.currentTime] }
        let collector = CuffCollector(central: central, config: .init(address: FakeCentral.device.address, zone: ZoneReader(identifier: "UTC")!),
                                      now: { F.start })
        let source = BLECuffSource(collector: collector, timeout: .seconds(10)) { _ in }
        let item = try await source.next(for: CuffRequest(attempt: 1, index: 1, requestedAt: F.start))
        await source.close()
        #expect(item == .failed(.unknown("cuff: A0:9E:1A:00:00:01 has no Blood Pressure Measurement characteristic (0x2A35): not a blood pressure cuff?")))
    }

    @Test func nothingWithinTheTimeoutIsNoReading() async throws {
        let central = FakeCentral { $0.devices = [] }
        let collector = CuffCollector(central: central, config: .init(address: FakeCentral.device.address, zone: ZoneReader(identifier: "UTC")!),
                                      now: { F.start })
        let source = BLECuffSource(collector: collector, timeout: .milliseconds(50)) { _ in }
        let item = try await source.next(for: CuffRequest(attempt: 1, index: 1, requestedAt: F.start))
        await source.close()
        #expect(item == .failed(.noReading))
    }
}
