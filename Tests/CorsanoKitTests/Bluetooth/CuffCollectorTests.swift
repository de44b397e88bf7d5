import Synchronization
import Testing
@testable import CorsanoKit

/// A Bluetooth central played by the test: adapters, devices and GATT objects it says exist,
/// events it pushes, and a log of the calls the collector made.
final class FakeCentral: BluetoothCentral, @unchecked Sendable {
    static let adapter = BluetoothAdapter(id: "/hci0", name: "hci0", address: "00:01:02:03:04:05", powered: true)
    static let device = BluetoothDevice(id: "/hci0/dev", adapter: "/hci0", address: "A0:9E:1A:00:00:01", name: "UA-651BLE", rssi: -70)
    static let measurement = GATTCharacteristic(id: "/hci0/dev/s1/c1", uuid: GATTCharacteristic.uuid(0x2A35),
                                                serviceUUID: GATTCharacteristic.uuid(0x1810), flags: ["indicate"])
    static let intermediate = GATTCharacteristic(id: "/hci0/dev/s1/c2", uuid: GATTCharacteristic.uuid(0x2A36),
                                                 serviceUUID: GATTCharacteristic.uuid(0x1810), flags: ["notify"])
    static let currentTime = GATTCharacteristic(id: "/hci0/dev/s2/c1", uuid: GATTCharacteristic.uuid(0x2A2B),
                                                serviceUUID: GATTCharacteristic.uuid(0x1805), flags: ["read", "write"])

    struct State {
        var adapters = [FakeCentral.adapter]
        var devices = [FakeCentral.device]
        var characteristics = [FakeCentral.measurement, FakeCentral.intermediate, FakeCentral.currentTime]
        var clock: [UInt8]? = CuffClockValue.currentTimeValue(RFC3339.parseNaive("2025-01-01T00:03:10")!)
        /// When set, the clock's value at each read (a cuff clock that runs with the test's clock).
        var clockNow: (@Sendable () -> [UInt8])?
        var calls: [String] = []
        var refuseConnects = 0
        var adaptersFailure: BluetoothError?
        /// Values the cuff sends once notifications are on.
        var dump: [[UInt8]] = []
        /// The dumps of later connects, in turn (then `dump` again).
        var laterDumps: [[[UInt8]]] = []
        /// Drop the link (and advertise) after this many dumps.
        var dropAfterDumps: Int?
        var dumps = 0
    }

    let state: Mutex<State>
    let events = Channel<BluetoothEvent>(capacity: nil)

    init(_ configure: (inout State) -> Void = { _ in }) {
        var initial = State()
        configure(&initial)
        state = Mutex(initial)
    }

    var calls: [String] { state.withLock { $0.calls } }
    func push(_ event: BluetoothEvent) { events.send(event) }
    private func log(_ call: String) { state.withLock { $0.calls.append(call) } }

    func adapters() async throws -> [BluetoothAdapter] {
        if let failure = state.withLock({ $0.adaptersFailure }) { throw failure }
        return state.withLock { $0.adapters }
    }
    func devices(on adapter: String) async throws -> [BluetoothDevice] { state.withLock { $0.devices } }
    func nextEvent(timeout: Duration?) async throws -> BluetoothEvent? {
        switch await events.receive(timeout: timeout) {
        case .item(let event): return event
        case .timedOut, .ended: return nil
        case .cancelled: throw CancellationError()
        }
    }
    func startDiscovery(on adapter: String) async throws { log("StartDiscovery") }
    func stopDiscovery(on adapter: String) async throws { log("StopDiscovery") }
    func connect(_ device: String) async throws {
        log("Connect")
        let refused = state.withLock { s -> Bool in
            guard s.refuseConnects > 0 else { return false }
            s.refuseConnects -= 1
            return true
        }
        if refused { throw BluetoothError.failed(operation: "Connect", name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local") }
        state.withLock { s in s.devices = s.devices.map { var d = $0; d.connected = true; d.servicesResolved = true; return d } }
    }
    func pair(_ device: String) async throws { log("Pair") }
    func disconnect(_ device: String) async throws { log("Disconnect") }
    func characteristics(of device: String) async throws -> [GATTCharacteristic] { state.withLock { $0.characteristics } }
    func read(_ characteristic: String) async throws -> [UInt8] {
        log("ReadValue")
        if let clockNow = state.withLock({ $0.clockNow }) { return clockNow() }
        guard let clock = state.withLock({ $0.clock }) else {
            throw BluetoothError.failed(operation: "ReadValue", name: "org.bluez.Error.NotPermitted", message: "")
        }
        return clock
    }
    func write(_ characteristic: String, value: [UInt8]) async throws { log("WriteValue") }
    func startNotifications(_ characteristic: String) async throws {
        log("StartNotify \(characteristic)")
        guard characteristic == Self.measurement.id else { return }
        let (dump, drop) = state.withLock { s -> ([[UInt8]], Bool) in
            s.dumps += 1
            let dump = s.laterDumps.isEmpty || s.dumps == 1 ? s.dump : s.laterDumps.removeFirst()
            return (dump, s.dumps == s.dropAfterDumps)
        }
        for payload in dump { push(.value(characteristic: characteristic, payload)) }
        if drop {
            dropLink()
            push(.deviceChanged(id: Self.device.id, BluetoothDeviceChange(advertising: true)))
        }
    }
    func registerPairingAgent() async throws { log("RegisterAgent") }
    func close() async { log("close") }

    /// The cuff drops the link.
    func dropLink() {
        state.withLock { s in s.devices = s.devices.map { var d = $0; d.connected = false; d.servicesResolved = false; return d } }
        push(.deviceChanged(id: Self.device.id, BluetoothDeviceChange(connected: false)))
    }
}

/// The collector over a fake central: what it does at each turn of a cuff's life.
@Suite struct CuffCollectorTests {
    /// 0x2A35 in mmHg with a timestamp, pulse, user 1 and status 0.
    static func payload(_ sys: Int, _ dia: Int, _ pulse: Int, _ stamp: String) -> [UInt8] {
        let t = RFC3339.parseNaive(stamp)!
        return [0x1E, UInt8(sys), 0, UInt8(dia), 0, UInt8(dia + (sys - dia) / 3), 0, UInt8(t.year & 0xFF), UInt8(t.year >> 8),
                UInt8(t.month), UInt8(t.day), UInt8(t.hour), UInt8(t.minute), UInt8(t.second), UInt8(pulse), 0, 1, 0, 0]
    }

    static let host = RFC3339.parseInstant("2026-11-29T10:00:05Z")!

    /// Runs a collector until `until` holds over its events (or 10 s), then cancels it; returns
    /// the events and how the run ended.
    static func collect(_ central: FakeCentral, config: CuffCollector.Config = .init(address: "a0:9e:1a:00:00:01", zone: ZoneReader(identifier: "UTC")!),
                        during script: @escaping @Sendable (FakeCentral, Channel<CuffCollector.Event>) async -> Void = { _, _ in },
                        until: @escaping @Sendable ([CuffCollector.Event]) -> Bool) async -> (events: [CuffCollector.Event], error: (any Error)?) {
        let collector = CuffCollector(central: central, config: config, now: { host })
        let seen = Mutex<[CuffCollector.Event]>([])
        // One copy of the events for the script, one for the wait below.
        let tap = Channel<CuffCollector.Event>(capacity: nil), arrivals = Channel<CuffCollector.Event>(capacity: nil)
        let run = Task { () -> (any Error)? in
            defer { arrivals.finish() }
            do {
                try await collector.run { event in
                    seen.withLock { $0.append(event) }
                    tap.send(event)
                    arrivals.send(event)
                }
                return nil
            } catch {
                return error
            }
        }
        let watcher = Task {
            await script(central, tap)
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while !until(seen.withLock { $0 }) {
            guard case .item = await arrivals.receive(timeout: max(.zero, deadline - ContinuousClock.now)) else { break }
        }
        run.cancel()
        watcher.cancel()
        let error = await run.value
        await collector.shutdown()
        return (seen.withLock { $0 }, error)
    }

    static func readings(_ events: [CuffCollector.Event]) -> [CuffReading] {
        events.compactMap { if case .reading(let r, _) = $0 { r } else { nil } }
    }

    @Test func storedRecordsThenLiveOneAreAnchoredToTheCuffClock() async throws {
        let central = FakeCentral { $0.dump = [Self.payload(133, 86, 71, "2024-12-30T08:15:00")] }
        let (events, error) = await Self.collect(central, during: { central, tap in
            // The live reading comes after the stored one (pushed at once it could overtake the
            // dump the fake sends at StartNotify, and the order below would be the test's race).
            while case .item(let event) = await tap.receive(timeout: .seconds(10)) { if case .reading = event { break } }
            central.push(.value(characteristic: FakeCentral.measurement.id, Self.payload(128, 82, 66, "2025-01-01T00:04:00")))
        }, until: { Self.readings($0).count == 2 })
        #expect(error is CancellationError)
        let readings = Self.readings(events)
        // Anchor: cuff 2025-01-01T00:03:10 = host 10:00:05Z.
        #expect(readings.map { $0.measuredAt.map(RFC3339.format) } == ["2026-11-27T18:11:55Z", "2026-11-29T10:00:55Z"])
        #expect(readings.map(\.deviceTime?.description) == ["2024-12-30T08:15:00", "2025-01-01T00:04:00"])
        // The cuff's address, then the anchor pair the times were converted through.
        #expect(readings.allSatisfy { $0.provenance.suffix(2) == [ProvenanceField(name: "source", rawJSON: #""A0:9E:1A:00:00:01""#),
                                                                 ProvenanceField(name: "anchor", rawJSON: #"{"device":"2025-01-01T00:03:10","phone":"2026-11-29T10:00:05Z"}"#)] })
        #expect(readings.allSatisfy { $0.receivedAt == "2026-11-29T10:00:05Z" })
        #expect(events.first == .connecting(name: "UA-651BLE"))
        #expect(events.contains(.connected(name: "UA-651BLE")))
        // Known device, tried at once: no scan; the cuff it connected is let go at shutdown.
        #expect(central.calls.prefix(4) == ["Connect", "ReadValue", "StartNotify /hci0/dev/s1/c1", "StartNotify /hci0/dev/s1/c2"])
        #expect(central.calls.suffix(2) == ["Disconnect", "close"])
    }

    @Test func afterADisconnectItScansAndConnectsAgain() async throws {
        let central = FakeCentral { $0.dump = [Self.payload(133, 86, 71, "2024-12-30T08:15:00")] }
        let (events, _) = await Self.collect(central, during: { central, tap in
            // Once the dump is in, the cuff drops and advertises, refuses one connect, advertises again.
            while case .item(let event) = await tap.receive(timeout: .seconds(10)) { if case .reading = event { break } }
            central.state.withLock { $0.refuseConnects = 1 }
            central.dropLink()
            central.push(.deviceChanged(id: FakeCentral.device.id, BluetoothDeviceChange(advertising: true)))
            while case .item(let event) = await tap.receive(timeout: .seconds(10)) { if case .connectFailed = event { break } }
            central.push(.deviceChanged(id: FakeCentral.device.id, BluetoothDeviceChange(advertising: true)))
        }, until: { Self.readings($0).count == 2 })
        #expect(Self.readings(events).map(\.systolic) == [133, 133])
        #expect(events.contains(.disconnected))
        #expect(events.contains(.scanning(adapter: "hci0")))
        #expect(events.contains(.connectFailed("Connect failed: org.bluez.Error.Failed: le-connection-abort-by-local")))
        #expect(central.calls.filter { $0 == "Connect" }.count == 3)
        // The replay maps to the same instant: the second clock read agrees with the first.
        #expect(Set(Self.readings(events).map(\.measuredAt)).count == 1)
    }

    @Test func absentCuffIsWaitedForUntilItAppears() async throws {
        let central = FakeCentral { $0.devices = [] }
        let (events, _) = await Self.collect(central, during: { central, tap in
            while case .item(let event) = await tap.receive(timeout: .seconds(10)) { if case .scanning = event { break } }
            // Another device first, then the cuff.
            var other = FakeCentral.device
            other.address = "11:22:33:44:55:66"
            central.push(.deviceAdded(other))
            central.state.withLock { $0.devices = [FakeCentral.device] }
            central.push(.deviceAdded(FakeCentral.device))
        }, until: { $0.contains(.connected(name: "UA-651BLE")) })
        #expect(events.prefix(2) == [.scanning(adapter: "hci0"), .connecting(name: "UA-651BLE")])
        #expect(central.calls.prefix(3) == ["StartDiscovery", "StopDiscovery", "Connect"])
    }

    @Test func noClockCharacteristicReadsTheZone() async throws {
        let central = FakeCentral {
            $0.characteristics = [FakeCentral.measurement]
            $0.dump = [Self.payload(133, 86, 71, "2026-11-29T09:00:00")]
        }
        let zone = ZoneReader(identifier: "Asia/Tokyo")!
        let (events, _) = await Self.collect(central, config: .init(address: "A0:9E:1A:00:00:01", zone: zone),
                                             until: { Self.readings($0).count == 1 })
        #expect(events.contains(.noClock("the cuff has no Current Time (0x2A2B) or Date Time (0x2A08) characteristic")))
        #expect(events.contains(.clock(.none)))
        #expect(Self.readings(events).first?.measuredAt.map(RFC3339.format) == "2026-11-29T00:00:00Z")
    }

    @Test func undecodablePayloadsAreRejectedNamingTheField() async throws {
        let central = FakeCentral { $0.dump = [[0x1E, 0x78, 0x00], [0x00, 0xFF, 0x07, 0xFF, 0x07, 0xFF, 0x07], Self.payload(40, 30, 60, "2025-01-01T00:04:00")] }
        let (events, _) = await Self.collect(central, until: { $0.filter { if case .rejected = $0 { true } else { false } }.count == 3 })
        let rejected = events.compactMap { if case .rejected(let p, let r, _) = $0 { "\(BLEHex.string(p)): \(r)" } else { nil } }
        let implausible = Self.payload(40, 30, 60, "2025-01-01T00:04:00")
        #expect(rejected == ["1E7800: payload: 3 bytes, shorter than flags + systolic, diastolic, MAP (7 bytes)",
                             "00FF07FF07FF07: systolic: not a number (SFLOAT NaN)",
                             BLEHex.string(implausible) + ": systolic: 40 mmHg outside 50-300"])
    }

    @Test func intermediateCuffPressureIsProgress() async throws {
        let central = FakeCentral()
        let (events, _) = await Self.collect(central, during: { central, tap in
            while case .item(let event) = await tap.receive(timeout: .seconds(10)) { if case .connected = event { break } }
            central.push(.value(characteristic: FakeCentral.intermediate.id, [0x00, 150, 0, 0xFF, 0x07, 0xFF, 0x07]))
        }, until: { $0.contains(.pressure(150)) })
        #expect(Self.readings(events).isEmpty)
    }

    @Test func notABloodPressureCuffEndsTheRun() async throws {
        let central = FakeCentral { $0.characteristics = [FakeCentral.currentTime] }
        let (_, error) = await Self.collect(central, until: { _ in false })
        #expect(error as? CuffCollector.Failure == .notACuff("A0:9E:1A:00:00:01 has no Blood Pressure Measurement characteristic (0x2A35): not a blood pressure cuff?"))
    }

    @Test func adapterSwitchedOffEndsTheRun() async throws {
        let central = FakeCentral()
        let (_, error) = await Self.collect(central, during: { central, tap in
            while case .item(let event) = await tap.receive(timeout: .seconds(10)) { if case .connected = event { break } }
            central.push(.adapterChanged(id: FakeCentral.adapter.id, powered: false))
        }, until: { _ in false })
        #expect(error as? CuffCollector.Failure == .adapterOff("Bluetooth adapter hci0 is off: bluetoothctl power on"))
    }

    @Test(arguments: [(BluetoothError.accessDenied("GetManagedObjects on org.bluez"), CuffCollector.Failure.bluetooth(.accessDenied("GetManagedObjects on org.bluez"))),
                      (.serviceAbsent("gone"), .bluetooth(.serviceAbsent("gone")))])
    func bluezRefusingEndsTheRunAtOnce(failure: BluetoothError, expected: CuffCollector.Failure) async throws {
        let central = FakeCentral { $0.adaptersFailure = failure }
        let (events, error) = await Self.collect(central, until: { _ in false })
        #expect(error as? CuffCollector.Failure == expected)
        #expect(events.isEmpty)
    }

    @Test func adapters() async throws {
        let off = BluetoothAdapter(id: "/hci1", name: "hci1", address: "", powered: false)
        func choose(_ adapters: [BluetoothAdapter], _ name: String?) async -> Result<String, CuffCollector.Failure> {
            let central = FakeCentral { $0.adapters = adapters }
            let collector = CuffCollector(central: central, config: .init(address: "A0:9E:1A:00:00:01", adapterName: name,
                                                                          zone: ZoneReader(identifier: "UTC")!), now: { Self.host })
            do { return .success(try await collector.adapter().name) } catch { return .failure(error as! CuffCollector.Failure) }
        }
        #expect(await choose([off, FakeCentral.adapter], nil) == .success("hci0"))
        #expect(await choose([off, FakeCentral.adapter], "hci1") == .failure(.adapterOff("Bluetooth adapter hci1 is off: bluetoothctl power on")))
        #expect(await choose([off], nil) == .failure(.adapterOff("every Bluetooth adapter is off (hci1): bluetoothctl power on")))
        #expect(await choose([], nil) == .failure(.adapterAbsent("no Bluetooth adapter found")))
        #expect(await choose([off], "hci2") == .failure(.adapterAbsent("Bluetooth adapter hci2 not found (present: hci1)")))
    }

    @Test func pairFirstRegistersTheAgent() async throws {
        let central = FakeCentral()
        _ = await Self.collect(central, config: .init(address: "A0:9E:1A:00:00:01", pair: true, zone: ZoneReader(identifier: "UTC")!),
                               until: { $0.contains(.connected(name: "UA-651BLE")) })
        #expect(central.calls.prefix(3) == ["RegisterAgent", "Pair", "Connect"])
    }
}
