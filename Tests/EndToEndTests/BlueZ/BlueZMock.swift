import Foundation
import Testing

/// A private D-Bus daemon shaped like the system bus with a Bluetooth blood pressure cuff behind
/// python-dbusmock's bluez5 template (Tests/Fixtures/bluez/cuff_mock.py, run by /usr/bin/python3,
/// the system Python that has python3-dbusmock). Starting it throws when the daemon or the mock
/// cannot start, so a test that needs it fails rather than skips.
final class BlueZMock: @unchecked Sendable {
    static let fixtures = Corsano.fixtures.appendingPathComponent("bluez")
    /// The cuff the mock plays (its default address).
    static let cuff = "A0:9E:1A:00:00:01"

    private let daemon: StreamedProcess
    /// Holds the bus socket; removed at stop.
    private let directory: URL
    private var stopped = false
    /// The mock's event lines (`ready`, `connect 1`, `sent 120/80/60`, ...).
    let cuffMock: StreamedProcess?
    /// What DBUS_SYSTEM_BUS_ADDRESS names for corsano.
    let address: String

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the bus (`config`: a file in Tests/Fixtures/bluez) and, unless `mock` is false, the
    /// cuff with `arguments` (cuff_mock.py's options); returns once the mock said `ready`.
    init(_ arguments: [String] = [], config: String = "bus.conf", mock: Bool = true) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The socket in a directory of ours: the daemon is ended with SIGKILL (a child spawned from
        // a test's thread inherits a mask that blocks SIGTERM) and cannot remove it itself.
        daemon = try StreamedProcess(URL(fileURLWithPath: "/usr/bin/dbus-daemon"),
                                     ["--config-file=" + Self.fixtures.appendingPathComponent(config).path,
                                      "--address=unix:path=" + directory.appendingPathComponent("system_bus_socket").path,
                                      "--print-address=1", "--nofork"])
        guard daemon.stdout.waitFor(seconds: 20, { !$0.isEmpty }), let line = daemon.stdout.lines.first,
              line.hasPrefix("unix:") else {
            daemon.signal(SIGKILL)
            daemon.finish(seconds: 5)
            try? FileManager.default.removeItem(at: directory)
            throw StartFailure(description: "dbus-daemon did not start: \(daemon.stderr.text)")
        }
        address = line
        guard mock else {
            cuffMock = nil
            return
        }
        let driver = try StreamedProcess(URL(fileURLWithPath: "/usr/bin/python3"),
                                         [Self.fixtures.appendingPathComponent("cuff_mock.py").path] + arguments,
                                         env: ["DBUS_SYSTEM_BUS_ADDRESS": address])
        cuffMock = driver
        guard driver.stdout.waitFor("ready", seconds: 30) else {
            let why = driver.stderr.text
            stop()
            throw StartFailure(description: "the BlueZ mock did not start: \(why)")
        }
    }

    /// The environment that points corsano at this bus.
    var env: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }

    /// Sends a command to the cuff (`reading 120 80 60`, `disconnect`, `advertise`, ...).
    func send(_ command: String) { cuffMock?.send(command) }

    /// Waits until the mock reported `event` (a line starting with it) `count` times.
    func waitFor(_ event: String, count: Int = 1, seconds: Double = 30) -> Bool {
        cuffMock?.stdout.waitFor(seconds: seconds) { $0.filter { $0.hasPrefix(event) }.count >= count } ?? false
    }

    /// The mock's event lines so far.
    var events: [String] { cuffMock?.stdout.lines ?? [] }

    /// Ends the mock and the bus.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if let cuffMock {
            cuffMock.closeInput()
            if cuffMock.finish(seconds: 10) == nil { Issue.record("the BlueZ mock did not stop on end of input") }
        }
        daemon.signal(SIGKILL)
        daemon.finish(seconds: 10)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
