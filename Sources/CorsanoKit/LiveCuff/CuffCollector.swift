import Synchronization

/// Reads a Bluetooth blood pressure cuff live through a `BluetoothCentral`: scan until the cuff
/// appears, connect (pairing first when asked), wait for its services, read its clock as the
/// anchor, enable 0x2A35 indications and turn each into a reading line as `cuff ingest` would;
/// after a disconnect, scan and connect again. Runs until its task is cancelled or a failure
/// that no reconnect can mend (`Failure`).
///
/// Source: docs/design.md "Live cuffs"; seed tip "Resume scanning if the cuff drops" (cuffs connect,
/// dump their history and disconnect before START is pressed); Blood Pressure Profile 1.1
/// (0x1810 service, 0x2A35 indicated, 0x2A36 notified).
public final class CuffCollector: Sendable {
    /// Blood Pressure Measurement.
    public static let measurement: UInt16 = 0x2A35
    /// Intermediate Cuff Pressure.
    public static let intermediateCuffPressure: UInt16 = 0x2A36
    /// Enhanced Blood Pressure Measurement (Blood Pressure Service 1.1).
    public static let enhancedMeasurement: UInt16 = 0x2B34
    /// Blood Pressure Record (Blood Pressure Service 1.1): stored records, segmented.
    public static let bloodPressureRecord: UInt16 = 0x2B36
    /// Record Access Control Point.
    public static let recordAccessControlPoint: UInt16 = 0x2A52

    /// Which stored records `--stored` asks a Blood Pressure Service 1.1 cuff for.
    public enum StoredHistory: Equatable, Sendable {
        /// Every stored record (RACP Report Stored Records, operator All).
        case all
        /// Records whose sequence number is at least this (operator Greater than or equal, filter
        /// type Sequence Number).
        case from(UInt16)
    }

    /// What to connect to and how.
    public struct Config: Sendable {
        /// The cuff's address, `AA:BB:CC:DD:EE:FF` (any case).
        public var address: String
        /// The adapter's name (`hci0`); nil: the first powered one.
        public var adapterName: String?
        /// Pair (with a NoInputNoOutput agent) before connecting when not paired yet.
        public var pair: Bool
        /// Write the host's wall time (in `zone`) to a writable Current Time when the cuff's clock is off.
        public var setClock: Bool
        /// Where naive stamps are read when the cuff has no clock, and the zone `setClock` writes.
        public var zone: ZoneReader
        /// How long to wait before trying a known device again after a failed connect.
        public var retryDelay: Duration
        /// How long BlueZ may take to resolve the services after a connect.
        public var resolveTimeout: Duration
        /// How long indications must pause before `setClock` writes: the stored records, stamped
        /// by the old clock, arrive first.
        public var settleDelay: Duration
        /// `--stored`: fetch the cuff's stored records through the Record Access Control Point
        /// on each connect (after a reconnect only those after the last one received); nil: only
        /// what the cuff indicates by itself (today's cuffs dump at connect). Opt-in (docs/design.md
        /// "Live cuffs"); never set by `bp-init`, whose host rules would drop them as replayed.
        public var stored: StoredHistory?

        /// Creates a configuration.
        public init(address: String, adapterName: String? = nil, pair: Bool = false, setClock: Bool = false,
                    zone: ZoneReader, retryDelay: Duration = .seconds(2), resolveTimeout: Duration = .seconds(30),
                    settleDelay: Duration = .seconds(2), stored: StoredHistory? = nil) {
            self.address = address.uppercased()
            (self.adapterName, self.pair, self.setClock, self.zone) = (adapterName, pair, setClock, zone)
            (self.retryDelay, self.resolveTimeout, self.settleDelay) = (retryDelay, resolveTimeout, settleDelay)
            self.stored = stored
        }
    }

    /// What the collector saw, in order: readings and rejects for stdout and the counts, the
    /// rest for the connection messages.
    public enum Event: Equatable, Sendable {
        case scanning(adapter: String)
        case connecting(name: String?)
        case connectFailed(String)
        case connected(name: String?)
        case clock(LiveCuffClock.Reading)
        /// The cuff's clock cannot be used (with why): stamps are read in the zone.
        case noClock(String)
        case clockSet(from: NaiveDateTime?, to: NaiveDateTime)
        case clockNotSet(String)
        /// A reading as `cuff ingest` writes it, and a note when something was dropped from it.
        case reading(CuffReading, note: String?)
        /// A payload of `characteristic` (0x2A35, 0x2B34, 0x2B36) that is not a reading, with why
        /// (naming the field).
        case rejected(payload: [UInt8], reason: String, characteristic: UInt16)
        /// `--stored`: the stored records were asked for (nil: all, else from that sequence number).
        case storedRequested(from: UInt16?)
        /// `--stored`: the cuff said it sent them all (`records` readings and rejects came).
        case storedDone(records: Int)
        /// `--stored`: no stored history (the cuff has no RACP, or answered with an error), with why.
        case storedFailed(String)
        /// Intermediate Cuff Pressure (0x2A36): the cuff's pressure now, mmHg (progress, never a reading).
        case pressure(Int)
        case disconnected
    }

    /// Why the collector stopped for good.
    public enum Failure: DiagnosticError, Equatable, Sendable {
        /// No adapter, or not the named one.
        case adapterAbsent(String)
        /// The adapter is powered off.
        case adapterOff(String)
        /// The device has no Blood Pressure Measurement characteristic.
        case notACuff(String)
        /// BlueZ or the bus: not running, refused, lost.
        case bluetooth(BluetoothError)

        /// One line saying what failed.
        public var message: String {
            switch self {
            case .adapterAbsent(let m), .adapterOff(let m), .notACuff(let m): return m
            case .bluetooth(let e): return e.message
            }
        }
    }

    private let central: any BluetoothCentral
    private let config: Config
    private let now: @Sendable () -> Instant
    private let status = Mutex<(seen: Bool, connectedByUs: String?)>((false, nil))

    /// Creates a collector; `now` is the host's time for the clock anchor and `receivedAt`.
    public init(central: any BluetoothCentral, config: Config, now: @escaping @Sendable () -> Instant) {
        self.central = central
        self.config = config
        self.now = now
    }

    /// True once the cuff was on the air or connected during this run.
    public var seen: Bool { status.withLock { $0.seen } }

    /// The adapter `config` names (or the first powered one), checked powered.
    /// - Throws: `Failure` (absent, off, BlueZ refused or not running).
    public func adapter() async throws -> BluetoothAdapter {
        try await Self.adapter(of: central, named: config.adapterName)
    }

    /// The adapter of `central` called `name` (nil: the first powered one), checked powered.
    /// - Throws: `Failure` (absent, off, BlueZ refused or not running).
    public static func adapter(of central: any BluetoothCentral, named name: String?) async throws -> BluetoothAdapter {
        try choose(try await fatal { try await central.adapters() }, named: name)
    }

    /// The adapter called `name` among `all` (nil: the first powered one), checked powered.
    /// - Throws: `Failure.adapterAbsent`, `.adapterOff`.
    public static func choose(_ all: [BluetoothAdapter], named name: String?) throws -> BluetoothAdapter {
        if let name {
            guard let found = all.first(where: { $0.name == name }) else {
                let present = all.isEmpty ? "none present" : "present: " + all.map(\.name).joined(separator: ", ")
                throw Failure.adapterAbsent("Bluetooth adapter \(name) not found (\(present))")
            }
            guard found.powered else { throw Failure.adapterOff(Self.offMessage(found.name)) }
            return found
        }
        guard !all.isEmpty else { throw Failure.adapterAbsent("no Bluetooth adapter found") }
        guard let first = all.first(where: \.powered) else {
            throw Failure.adapterOff("every Bluetooth adapter is off (\(all.map(\.name).joined(separator: ", "))): bluetoothctl power on")
        }
        return first
    }

    static func offMessage(_ name: String) -> String { "Bluetooth adapter \(name) is off: bluetoothctl power on" }

    /// Runs until cancelled, handing every event to `emit` in order (on the collector's task).
    /// - Throws: `Failure`, `CancellationError`.
    public func run(_ emit: @escaping @Sendable (Event) -> Void) async throws {
        let adapter = try await adapter()
        if config.pair { try await fatal { try await central.registerPairingAgent() } }
        var clock = LiveCuffClock(zone: config.zone)
        var normalizer = IngestNormalizer(basis: NaiveTimeBasis(anchor: nil, zone: config.zone))
        var target = try await fatal { try await central.devices(on: adapter.id) }.first { $0.address == config.address }
        if let t = target, t.rssi != nil || t.connected { markSeen() }
        var tryNow = target != nil
        var scanning = false
        var stored = config.stored
        while true {
            try Task.checkCancellation()
            if !tryNow {
                if !scanning {
                    try await fatal { try await central.startDiscovery(on: adapter.id) }
                    scanning = true
                    emit(.scanning(adapter: adapter.name))
                }
                target = try await waitForDevice(on: adapter, known: target)
            }
            tryNow = false
            guard let device = target else { continue }
            if scanning {
                try? await central.stopDiscovery(on: adapter.id)
                scanning = false
            }
            emit(.connecting(name: device.name))
            do {
                if config.pair, !device.paired { try await central.pair(device.id) }
                if !device.connected { status.withLock { $0.connectedByUs = device.id } }
                try await central.connect(device.id)
            } catch let error as BluetoothError {
                try fatalOnly(error)
                emit(.connectFailed(error.message))
                continue
            }
            markSeen()
            try await session(device, adapter, &clock, &normalizer, &stored, emit)
            emit(.disconnected)
            target?.connected = false
        }
    }

    /// Disconnects the cuff when this run connected it, and closes the central. Call from a task
    /// that is not cancelled (after `run` ended).
    public func shutdown() async {
        if let device = status.withLock({ s -> String? in defer { s.connectedByUs = nil }; return s.connectedByUs }) {
            try? await central.disconnect(device)
        }
        await central.close()
    }

    // MARK: - Steps

    /// Waits until the cuff appears or advertises; for a device BlueZ already knows, at most
    /// `retryDelay` (then it is tried again).
    private func waitForDevice(on adapter: BluetoothAdapter, known: BluetoothDevice?) async throws -> BluetoothDevice? {
        var known = known
        let deadline = known.map { _ in ContinuousClock.now + config.retryDelay }
        while true {
            let left = deadline.map { max(.zero, $0 - ContinuousClock.now) }
            guard let event = try await central.nextEvent(timeout: left) else { return known }
            switch event {
            case .deviceAdded(let d) where d.adapter == adapter.id && d.address == config.address:
                markSeen()
                return d
            case .deviceChanged(let id, let change) where id == known?.id && (change.advertising || change.connected == true):
                markSeen()
                return known
            case .deviceRemoved(let id) where id == known?.id:
                known = nil
            default:
                try Self.check(event, adapter)
            }
        }
    }

    /// One connection: services, clock, indications, the stored records when asked, then readings
    /// until the cuff disconnects. `stored` moves past each stored record received.
    private func session(_ device: BluetoothDevice, _ adapter: BluetoothAdapter, _ clock: inout LiveCuffClock,
                         _ normalizer: inout IngestNormalizer, _ stored: inout StoredHistory?,
                         _ emit: @Sendable (Event) -> Void) async throws {
        guard try await servicesResolved(device, adapter) else { return }
        let characteristics: [GATTCharacteristic]
        do {
            characteristics = try await central.characteristics(of: device.id)
        } catch let error as BluetoothError {
            try fatalOnly(error)
            emit(.connectFailed(error.message))
            return
        }
        func find(_ number: UInt16) -> GATTCharacteristic? { characteristics.first { $0.assignedNumber == number } }
        guard let measurement = find(Self.measurement) else {
            try? await central.disconnect(device.id)
            throw Failure.notACuff("\(config.address) has no Blood Pressure Measurement characteristic (0x2A35): not a blood pressure cuff?")
        }
        let clockCharacteristic = find(CuffClockValue.currentTime) ?? find(CuffClockValue.dateTime)
        let read = try await readClock(clockCharacteristic, into: &clock, emit)
        var pendingWrite = config.setClock ? clockToWrite(clockCharacteristic, read: read, emit) : nil
        // BLS 1.1 with --stored: live measurements through 0x2B34 when the cuff has it (never both:
        // a cuff indicates each measurement on every characteristic enabled).
        let enhanced = stored != nil ? find(Self.enhancedMeasurement) : nil
        do {
            try await central.startNotifications((enhanced ?? measurement).id)
        } catch let error as BluetoothError {
            try fatalOnly(error)
            emit(.connectFailed(error.message))
            return
        }
        let intermediate = find(Self.intermediateCuffPressure)
        if let intermediate { try? await central.startNotifications(intermediate.id) }
        emit(.connected(name: device.name))
        let access = stored == nil ? nil : try await requestStored(stored, find, emit)
        var assembler = BloodPressureRecordAssembler()
        var storedCount = 0
        var quietFrom = ContinuousClock.now
        while true {
            let wait = pendingWrite.map { _ in max(.zero, quietFrom + config.settleDelay - ContinuousClock.now) }
            guard let event = try await central.nextEvent(timeout: wait) else {
                if let characteristic = pendingWrite { try await writeClock(characteristic, &clock, emit) }
                pendingWrite = nil
                continue
            }
            switch event {
            case .value(measurement.id, let payload) where enhanced == nil:
                quietFrom = ContinuousClock.now
                emit(reading(payload, Self.measurement, &clock, &normalizer) {
                    try BLEValueReader.reading(payload, enhanced: false, receivedAt: $0)
                })
            case .value(let id, let payload) where id == enhanced?.id:
                quietFrom = ContinuousClock.now
                emit(reading(payload, Self.enhancedMeasurement, &clock, &normalizer) {
                    try BLEValueReader.reading(payload, enhanced: true, receivedAt: $0)
                })
            case .value(let id, let payload) where id == access?.record:
                quietFrom = ContinuousClock.now
                for event in storedRecord(payload, &assembler, &clock, &normalizer) {
                    if case .reading(let reading, _) = event, let sequence = reading.sequence {
                        stored = .from(sequence == .max ? 0 : sequence + 1)
                    }
                    if case .pressure = event {} else { storedCount += 1 }
                    emit(event)
                }
            case .value(let id, let payload) where id == access?.controlPoint:
                emit(RecordAccess.outcome(of: payload, records: storedCount))
                storedCount = 0
            case .value(let id, let payload) where id == intermediate?.id:
                if let pressure = Self.pressure(payload) { emit(.pressure(pressure)) }
            case .deviceChanged(device.id, let change) where change.connected == false:
                return
            case .deviceRemoved(device.id):
                return
            default:
                try Self.check(event, adapter)
            }
        }
    }

    /// True once BlueZ resolved the services; false when the cuff dropped or took too long.
    private func servicesResolved(_ device: BluetoothDevice, _ adapter: BluetoothAdapter) async throws -> Bool {
        let current = try await fatal { try await central.devices(on: adapter.id) }.first { $0.id == device.id }
        if current?.servicesResolved == true { return true }
        let deadline = ContinuousClock.now + config.resolveTimeout
        while true {
            guard let event = try await central.nextEvent(timeout: max(.zero, deadline - ContinuousClock.now)) else {
                try? await central.disconnect(device.id)
                return false
            }
            switch event {
            case .deviceChanged(device.id, let change):
                if change.connected == false { return false }
                if change.servicesResolved == true { return true }
            case .deviceRemoved(device.id):
                return false
            default:
                try Self.check(event, adapter)
            }
        }
    }

    /// Reads the clock characteristic (if any) and takes it as this connection's anchor; returns
    /// the value read (nil: none usable).
    private func readClock(_ characteristic: GATTCharacteristic?, into clock: inout LiveCuffClock,
                           _ emit: @Sendable (Event) -> Void) async throws -> CuffClockValue? {
        var value: CuffClockValue?
        var hostNow: Instant?
        if let characteristic, let number = characteristic.assignedNumber {
            do {
                // An anchor pairs the cuff's clock with the host's time at one instant. The host
                // time is taken as the read returns; a read that took longer than the jitter (a
                // stalled link, a suspended host) could be off by that much, so it is read again
                // (up to `clockReadAttempts` times; the last read stands).
                for _ in 1...Self.clockReadAttempts {
                    let before = now()
                    let bytes = try await central.read(characteristic.id)
                    let after = now()
                    value = try CuffClockValue.decode(bytes, characteristic: number)
                    hostNow = after
                    if after.secondsSinceEpoch - before.secondsSinceEpoch <= LiveCuffClock.jitterSeconds { break }
                }
                if value == nil { emit(.noClock("the cuff says its clock is not set (0x\(String(number, radix: 16, uppercase: true)))")) }
            } catch let problem as CuffClockValue.Problem {
                value = nil  // an earlier, slow read is not kept when the next one fails
                emit(.noClock(problem.description))
            } catch let error as BluetoothError {
                try fatalOnly(error)
                value = nil
                emit(.noClock("reading the cuff clock failed: \(error.message)"))
            }
        } else {
            emit(.noClock("the cuff has no Current Time (0x2A2B) or Date Time (0x2A08) characteristic"))
        }
        emit(.clock(clock.connected(clock: value, hostNow: hostNow ?? now())))
        return value
    }

    /// How many times a clock read that took longer than `LiveCuffClock.jitterSeconds` is tried.
    static let clockReadAttempts = 3

    /// `--set-clock`: the characteristic to write when the cuff's clock is unknown or off by more
    /// than the jitter from the host's wall time in the zone; nil when there is nothing to write.
    private func clockToWrite(_ characteristic: GATTCharacteristic?, read: CuffClockValue?,
                              _ emit: @Sendable (Event) -> Void) -> GATTCharacteristic? {
        guard let characteristic, characteristic.assignedNumber == CuffClockValue.currentTime,
              characteristic.flags.contains("write") else {
            emit(.clockNotSet("the cuff has no writable Current Time (0x2A2B)"))
            return nil
        }
        guard let read, let local = config.zone.wallTime(of: now()) else { return characteristic }
        return abs(read.time.seconds(since: local)) > LiveCuffClock.jitterSeconds ? characteristic : nil
    }

    /// Writes the host's wall time (in the zone) to the cuff's Current Time.
    private func writeClock(_ characteristic: GATTCharacteristic, _ clock: inout LiveCuffClock,
                            _ emit: @Sendable (Event) -> Void) async throws {
        let hostNow = now()
        guard let local = config.zone.wallTime(of: hostNow) else { return }
        let before = clock.anchor.flatMap { $0.device.adding(seconds: hostNow.secondsSinceEpoch - $0.phone.secondsSinceEpoch) }
        do {
            try await central.write(characteristic.id, value: CuffClockValue.currentTimeValue(local))
            clock.wrote(local, hostNow: hostNow)
            emit(.clockSet(from: before, to: local))
        } catch let error as BluetoothError {
            try fatalOnly(error)
            emit(.clockNotSet("writing the cuff clock failed: \(error.message)"))
        }
    }

    /// One value of `characteristic` as `cuff ingest` would write it (the `ble` format), or why
    /// it is not one; `decode` reads it given the `receivedAt` text.
    private func reading(_ payload: [UInt8], _ characteristic: UInt16, _ clock: inout LiveCuffClock,
                         _ normalizer: inout IngestNormalizer, _ decode: (String) throws -> CuffReading) -> Event {
        let arrived = now()
        let receivedAt = RFC3339.format(Instant(secondsSinceEpoch: arrived.secondsSinceEpoch,
                                                nanoseconds: arrived.nanoseconds / 1_000_000 * 1_000_000))
        var reading: CuffReading
        do {
            reading = try decode(receivedAt)
        } catch {
            return .rejected(payload: payload, reason: BLECaptureReader.issue(error).reason, characteristic: characteristic)
        }
        reading.provenance.append(ProvenanceField(name: "source", rawJSON: JSONValue.string(config.address).serialized))
        if config.setClock { clock.remember(reading) }
        normalizer.basis = clock.basis(for: reading)
        switch normalizer.finish(reading: &reading) {
        case .keep(let note): return .reading(reading, note: note)
        case .reject(let issue): return .rejected(payload: payload, reason: issue.reason, characteristic: characteristic)
        }
    }

    /// `--stored`: enables the Blood Pressure Record and RACP indications and writes Report Stored
    /// Records; returns their ids, or nil (with `storedFailed`) when the cuff cannot.
    private func requestStored(_ stored: StoredHistory?, _ find: (UInt16) -> GATTCharacteristic?,
                               _ emit: @Sendable (Event) -> Void) async throws -> (record: String, controlPoint: String)? {
        guard let stored, let record = find(Self.bloodPressureRecord), let racp = find(Self.recordAccessControlPoint) else {
            emit(.storedFailed("the cuff has no Blood Pressure Record (0x2B36) with a Record Access Control Point (0x2A52): "
                               + "it keeps no history to fetch (Blood Pressure Service 1.1); what it sends by itself is read"))
            return nil
        }
        do {
            try await central.startNotifications(record.id)
            try await central.startNotifications(racp.id)
            try await central.write(racp.id, value: RecordAccess.reportStoredRecords(stored))
        } catch let error as BluetoothError {
            try fatalOnly(error)
            emit(.storedFailed("asking for the stored records failed: \(error.message)"))
            return nil
        }
        if case .from(let first) = stored { emit(.storedRequested(from: first)) } else { emit(.storedRequested(from: nil)) }
        return (record.id, racp.id)
    }

    /// One 0x2B36 segment: nothing yet, or the record's reading (or skip, or why not).
    private func storedRecord(_ payload: [UInt8], _ assembler: inout BloodPressureRecordAssembler,
                              _ clock: inout LiveCuffClock, _ normalizer: inout IngestNormalizer) -> [Event] {
        var out: [Event] = []
        let record: BloodPressureRecord?
        do {
            record = try assembler.add(payload)
        } catch {
            out += assembler.takeDropped().map { [.rejected(payload: payload, reason: $0, characteristic: Self.bloodPressureRecord)] } ?? []
            return out + [.rejected(payload: payload, reason: error.reason, characteristic: Self.bloodPressureRecord)]
        }
        out += assembler.takeDropped().map { [.rejected(payload: payload, reason: $0, characteristic: Self.bloodPressureRecord)] } ?? []
        guard let record else { return out }
        guard [Self.measurement, Self.enhancedMeasurement].contains(record.characteristic) else {
            return out + [.rejected(payload: payload, reason: "record: holds 0x\(BLEHex.characteristic(record.characteristic)), not a blood pressure measurement",
                                    characteristic: Self.bloodPressureRecord)]
        }
        return out + [reading(payload, Self.bloodPressureRecord, &clock, &normalizer) { receivedAt in
            guard case .reading(let reading) = try BLEValueReader.outcome(of: record, receivedAt: receivedAt) else {
                throw IngestIssue("record: not a blood pressure measurement")
            }
            return reading
        }]
    }

    /// The current cuff pressure of a 0x2A36 payload (same layout as 0x2A35, the pressure in the
    /// systolic field), mmHg; nil when it does not decode.
    static func pressure(_ payload: [UInt8]) -> Int? {
        guard let m = try? BloodPressureMeasurement.decode(payload), let value = m.systolic.value else { return nil }
        return BLEReadingConverter.rounded(value * (m.unit == .kPa ? BLEReadingConverter.mmHgPerKPa : 1))
    }

    // MARK: - Failures

    /// Ends the run on events no reconnect mends: the adapter off or gone, BlueZ or the bus gone.
    static func check(_ event: BluetoothEvent, _ adapter: BluetoothAdapter) throws {
        switch event {
        case .adapterChanged(adapter.id, powered: false):
            throw Failure.adapterOff(Self.offMessage(adapter.name))
        case .adapterRemoved(adapter.id):
            throw Failure.adapterAbsent("Bluetooth adapter \(adapter.name) was removed")
        case .lost(let why):
            throw Failure.bluetooth(.bus(why))
        default:
            return
        }
    }

    /// Rethrows `error` as a `Failure` when no reconnect mends it; returns for an operation's own failure.
    private func fatalOnly(_ error: BluetoothError) throws {
        switch error {
        case .failed: return
        case .notReady(let why): throw Failure.adapterOff(why)
        default: throw Failure.bluetooth(error)
        }
    }

    /// Runs `body`, every `BluetoothError` of it ending the run.
    private func fatal<T>(_ body: () async throws -> T) async throws -> T { try await Self.fatal(body) }

    /// Runs `body`, a `BluetoothError` of it thrown as a `Failure`.
    static func fatal<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as BluetoothError {
            if case .notReady(let why) = error { throw Failure.adapterOff(why) }
            throw Failure.bluetooth(error)
        }
    }

    private func markSeen() { status.withLock { $0.seen = true } }
}
