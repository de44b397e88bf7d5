import CorsanoKit
import Foundation
import TestSupport

/// A real `corsano bracelet serve` process, started from the built binary, and where it listens.
final class ServedSimulator: @unchecked Sendable {
    let process = Process()
    let address: BraceletAddress
    let listening: String
    let directory: URL
    /// The token file a `tcp:` listener named in its first line (made in `directory`), else nil.
    let tokenFile: String?
    /// What a `corsano` client process of this server needs in its environment (the token file).
    var clientEnvironment: [String: String] { tokenFile.map { ["CORSANO_BRIDGE_TOKEN_FILE": $0] } ?? [:] }

    enum Listen { case unix, tcp, custom(String) }

    /// Starts `corsano bracelet serve` on `listen` with `scenario` and `seed`; returns once it listens.
    init(_ listen: Listen, scenario: Scenario = Scenario(), seed: UInt64 = 1, extra: [String] = []) throws {
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("corsano-serve-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scenarioFile = directory.appendingPathComponent("scenario.json")
        try JSONEncoder().encode(scenario).write(to: scenarioFile)
        let uri: String
        switch listen {
        case .unix: uri = "unix:" + directory.appendingPathComponent("bracelet.sock").path
        case .tcp: uri = "tcp:127.0.0.1:0"
        case .custom(let u): uri = u
        }
        process.executableURL = Corsano.binary
        process.arguments = ["bracelet", "serve", "--listen", uri, "--scenario", scenarioFile.path, "--seed", String(seed)] + extra
        // A TCP listener makes its token file in its state directory: this server's own one.
        process.environment = Corsano.inherited.merging(["XDG_STATE_HOME": directory.path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(10) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let bound = object["listening"] as? String else {
            process.terminate()
            throw BraceletError.unavailable("serve printed \(text)")
        }
        listening = bound
        tokenFile = object["tokenFile"] as? String
        address = try BraceletAddress(bound)
    }

    /// A client connected to this server, on `clock`.
    func client(clock: any FlowClock, requestTimeout: Double = 5) async throws -> BridgeClient {
        let client = try BridgeClient.connect(address, requestTimeout: requestTimeout, token: try tokenFile.map { try BridgeToken.load(path: $0) })
        client.use(clock: clock)
        return client
    }

    /// Stops the server (SIGTERM) and waits for it.
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Stops the server with SIGSTOP and returns once the kernel says it is stopped (`T` in
    /// /proc/PID/stat): it keeps its sockets open but answers nothing.
    func suspend() async throws {
        let pid = process.processIdentifier
        Foundation.kill(pid, SIGSTOP)
        guard try await Wait.until(seconds: 10, { ProcessProbe.isStopped(pid) }) else {
            throw BraceletError.unavailable("server \(pid) did not stop")
        }
    }

    /// Kills the server outright (SIGKILL), as a crash would.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
