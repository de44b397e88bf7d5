/// The Bluetooth LE central port a live cuff is read through: adapters, devices, GATT.
///
/// Implementations: `BlueZCentral` (BlueZ on the system D-Bus) and scripted fakes in tests. Ids
/// are opaque (BlueZ object paths). Events arrive in order through `nextEvent`, one consumer.
/// Source: docs/design.md "Live cuffs"; BlueZ D-Bus API (org.bluez.Adapter1, Device1, GattCharacteristic1).
public protocol BluetoothCentral: Sendable {
    /// The adapters now present. - Throws: `BluetoothError`.
    func adapters() async throws -> [BluetoothAdapter]
    /// The devices the adapter `adapter` knows now. - Throws: `BluetoothError`.
    func devices(on adapter: String) async throws -> [BluetoothDevice]
    /// The next event, or nil when `timeout` (real time) passes first; nil timeout waits for ever.
    /// - Throws: `CancellationError`.
    func nextEvent(timeout: Duration?) async throws -> BluetoothEvent?
    /// Starts scanning on `adapter`. - Throws: `BluetoothError`.
    func startDiscovery(on adapter: String) async throws
    /// Stops the scan this client started (idempotent). - Throws: `BluetoothError`.
    func stopDiscovery(on adapter: String) async throws
    /// Connects `device` (BlueZ resolves its GATT services after). - Throws: `BluetoothError`.
    func connect(_ device: String) async throws
    /// Pairs with `device` through the registered agent. - Throws: `BluetoothError`.
    func pair(_ device: String) async throws
    /// Disconnects `device`. - Throws: `BluetoothError`.
    func disconnect(_ device: String) async throws
    /// The GATT characteristics of `device` (after its services are resolved). - Throws: `BluetoothError`.
    func characteristics(of device: String) async throws -> [GATTCharacteristic]
    /// Reads a characteristic's value. - Throws: `BluetoothError`.
    func read(_ characteristic: String) async throws -> [UInt8]
    /// Writes a characteristic's value with response. - Throws: `BluetoothError`.
    func write(_ characteristic: String, value: [UInt8]) async throws
    /// Enables notifications or indications; each then arrives as a `.value` event. - Throws: `BluetoothError`.
    func startNotifications(_ characteristic: String) async throws
    /// Registers a NoInputNoOutput pairing agent for this client. - Throws: `BluetoothError`.
    func registerPairingAgent() async throws
    /// Releases discovery, the agent and the bus link (idempotent).
    func close() async
}

/// A Bluetooth controller as the host sees it.
public struct BluetoothAdapter: Equatable, Sendable {
    /// Opaque id (BlueZ: `/org/bluez/hci0`).
    public var id: String
    /// Its name, e.g. `hci0`.
    public var name: String
    /// Its own address.
    public var address: String
    public var powered: Bool
}

/// A remote device an adapter knows.
public struct BluetoothDevice: Equatable, Sendable {
    /// Opaque id (BlueZ: `/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF`).
    public var id: String
    /// The adapter's id.
    public var adapter: String
    /// `AA:BB:CC:DD:EE:FF`, uppercase.
    public var address: String
    public var name: String?
    public var connected: Bool
    public var paired: Bool
    public var servicesResolved: Bool
    /// Advertised or resolved service UUIDs (128-bit, lowercase).
    public var uuids: [String]
    /// Signal strength of the last advertisement seen, when known.
    public var rssi: Int?

    /// Creates a device description.
    public init(id: String, adapter: String, address: String, name: String? = nil, connected: Bool = false,
                paired: Bool = false, servicesResolved: Bool = false, uuids: [String] = [], rssi: Int? = nil) {
        (self.id, self.adapter, self.address, self.name) = (id, adapter, address, name)
        (self.connected, self.paired, self.servicesResolved, self.uuids, self.rssi) = (connected, paired, servicesResolved, uuids, rssi)
    }
}

/// What changed on a device; nil members did not change.
public struct BluetoothDeviceChange: Equatable, Sendable {
    public var connected: Bool?
    public var servicesResolved: Bool?
    public var paired: Bool?
    /// True when the change carries an advertisement sign (RSSI, advertised data): the device is
    /// on the air now.
    public var advertising: Bool

    /// Creates a change.
    public init(connected: Bool? = nil, servicesResolved: Bool? = nil, paired: Bool? = nil, advertising: Bool = false) {
        (self.connected, self.servicesResolved, self.paired, self.advertising) = (connected, servicesResolved, paired, advertising)
    }
}

/// One GATT characteristic of a remote device.
public struct GATTCharacteristic: Equatable, Sendable {
    /// Opaque id (BlueZ: `.../dev_.../service000a/char000b`).
    public var id: String
    /// 128-bit UUID, lowercase.
    public var uuid: String
    /// The UUID of the service holding it, 128-bit lowercase.
    public var serviceUUID: String
    /// BlueZ's flag words: `read`, `write`, `notify`, `indicate`, ...
    public var flags: [String]

    /// Creates a characteristic description.
    public init(id: String, uuid: String, serviceUUID: String, flags: [String]) {
        (self.id, self.uuid, self.serviceUUID, self.flags) = (id, uuid, serviceUUID, flags)
    }

    /// The assigned 16-bit number when the UUID is on the Bluetooth base (e.g. 0x2A35).
    public var assignedNumber: UInt16? { GATTCharacteristic.assignedNumber(of: uuid) }
    public var serviceAssignedNumber: UInt16? { GATTCharacteristic.assignedNumber(of: serviceUUID) }

    /// The 16-bit number of a UUID `0000XXXX-0000-1000-8000-00805f9b34fb`.
    public static func assignedNumber(of uuid: String) -> UInt16? {
        let u = uuid.lowercased()
        guard u.count == 36, u.hasPrefix("0000"), u.hasSuffix("-0000-1000-8000-00805f9b34fb") else { return nil }
        return UInt16(u.dropFirst(4).prefix(4), radix: 16)
    }

    /// The 128-bit form of an assigned 16-bit number.
    public static func uuid(_ number: UInt16) -> String {
        let hex = String(number, radix: 16)
        return "0000" + String(repeating: "0", count: 4 - hex.count) + hex + "-0000-1000-8000-00805f9b34fb"
    }
}

/// Something that happened on the central's side, in arrival order.
public enum BluetoothEvent: Equatable, Sendable {
    case deviceAdded(BluetoothDevice)
    case deviceChanged(id: String, BluetoothDeviceChange)
    case deviceRemoved(id: String)
    case adapterAdded(BluetoothAdapter)
    case adapterChanged(id: String, powered: Bool)
    case adapterRemoved(id: String)
    /// A notification or indication (or a read) changed the value of characteristic `id`.
    case value(characteristic: String, [UInt8])
    /// The link to the Bluetooth service is gone, with why.
    case lost(String)
}

/// Why the Bluetooth side failed.
public enum BluetoothError: DiagnosticError, Equatable, Sendable {
    /// The Bluetooth service (bluetoothd) is not on the bus.
    case serviceAbsent(String)
    /// The bus refused this user (D-Bus policy), with the call it refused.
    case accessDenied(String)
    /// The bus itself failed (no bus, connection lost), with why.
    case bus(String)
    /// The adapter is not powered (BlueZ `NotReady`).
    case notReady(String)
    /// One operation failed; `name` is the error's name (e.g. `org.bluez.Error.Failed`).
    case failed(operation: String, name: String, message: String)

    /// One line saying what failed.
    public var message: String {
        switch self {
        case .serviceAbsent(let why): return why
        case .accessDenied(let call):
            return "BlueZ's D-Bus policy refuses this user (\(call): AccessDenied): add the user to the 'bluetooth' group "
                + "(sudo usermod -aG bluetooth $USER, then log in again) or allow it in /etc/dbus-1/system.d/bluetooth.conf"
        case .bus(let why): return why
        case .notReady(let why): return why
        case .failed(let operation, let name, let message):
            return message.isEmpty ? "\(operation) failed: \(name)" : "\(operation) failed: \(name): \(message)"
        }
    }
}

/// Bluetooth device addresses as written by people and BlueZ.
public enum BluetoothAddress {
    /// `AA:BB:CC:DD:EE:FF` (six hex pairs, `:` or `-` between them, any case), uppercase with
    /// colons as BlueZ writes it; nil when `text` is not one.
    public static func normalized(_ text: String) -> String? {
        let parts = text.split(separator: text.contains("-") ? "-" : ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }) else { return nil }
        return parts.map { $0.uppercased() }.joined(separator: ":")
    }
}
