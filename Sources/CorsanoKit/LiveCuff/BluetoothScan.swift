/// A look around (the REPL's `cuff scan`, as bluetoothctl's `scan on`): the devices on an
/// adapter that advertised during the scan, blood pressure cuffs (service 0x1810) first.
public enum BluetoothScan {
    /// The Blood Pressure service.
    public static let bloodPressureService: UInt16 = 0x1810

    /// Scans `adapter` for `duration` (real time) and returns what was on the air, cuffs first,
    /// then by address. - Throws: `CuffCollector.Failure` (adapter off or gone, BlueZ refused or
    /// not running), `CancellationError`.
    public static func run(_ central: any BluetoothCentral, adapter: BluetoothAdapter, duration: Duration) async throws -> [BluetoothDevice] {
        var known: [String: BluetoothDevice] = [:]
        for device in try await CuffCollector.fatal({ try await central.devices(on: adapter.id) }) { known[device.id] = device }
        try await CuffCollector.fatal { try await central.startDiscovery(on: adapter.id) }
        // BlueZ keeps an RSSI only for a device it heard lately.
        var seen = known.filter { $0.value.rssi != nil || $0.value.connected }
        let deadline = ContinuousClock.now + duration
        while let event = try await central.nextEvent(timeout: max(.zero, deadline - ContinuousClock.now)) {
            switch event {
            case .deviceAdded(let device) where device.adapter == adapter.id:
                known[device.id] = device
                seen[device.id] = device
            case .deviceChanged(let id, let change) where change.advertising:
                if let device = known[id] { seen[id] = device }
            default:
                try CuffCollector.check(event, adapter)
            }
        }
        try? await central.stopDiscovery(on: adapter.id)
        return seen.values.sorted { (isCuff($0) ? 0 : 1, $0.address) < (isCuff($1) ? 0 : 1, $1.address) }
    }

    /// True when `device` advertises the Blood Pressure service.
    public static func isCuff(_ device: BluetoothDevice) -> Bool {
        device.uuids.contains(GATTCharacteristic.uuid(bloodPressureService))
    }
}
