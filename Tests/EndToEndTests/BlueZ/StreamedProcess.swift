import Foundation
import Synchronization

/// A running process whose stdout and stderr are read line by line as they come, so a test can
/// wait on a condition over them (with a deadline), write commands to its stdin, and signal it.
final class StreamedProcess: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let exited = DispatchSemaphore(value: 0)
    let stdout: LineCollector
    let stderr: LineCollector

    /// Starts `executable ARGS` with `env` added to this process's environment, in `cwd` when given.
    init(_ executable: URL, _ args: [String], env: [String: String] = [:], cwd: URL? = nil) throws {
        process.executableURL = executable
        process.arguments = args
        if let cwd { process.currentDirectoryURL = cwd }
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in env { environment[k] = v }
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        stdout = LineCollector(output.fileHandleForReading)
        stderr = LineCollector(errors.fileHandleForReading)
    }

    /// Starts the built `corsano ARGS` with a temporary state directory.
    static func corsano(_ args: [String], env: [String: String]) throws -> StreamedProcess {
        var env = env
        env["XDG_STATE_HOME"] = env["XDG_STATE_HOME"] ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("corsano-e2e-\(UUID().uuidString)").path
        return try StreamedProcess(Corsano.binary, args, env: env)
    }

    /// Writes `line` and a newline to the process's stdin.
    func send(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    func closeInput() { try? input.fileHandleForWriting.close() }

    func signal(_ signo: Int32) { kill(process.processIdentifier, signo) }

    /// Waits for exit (at most `seconds`; then SIGKILL, so a hung process fails the test rather
    /// than the suite) and for both streams to end; nil when it had to be killed.
    @discardableResult
    func finish(seconds: Double = 60) -> Int32? {
        var killed = false
        if exited.wait(timeout: .now() + seconds) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            killed = true
        }
        exited.signal()  // a second finish() returns at once
        process.waitUntilExit()
        closeInput()
        stdout.waitForEnd()
        stderr.waitForEnd()
        return killed ? nil : process.terminationStatus
    }
}

/// The lines of one stream, read on a thread until it ends.
final class LineCollector: @unchecked Sendable {
    private let state = Mutex<(lines: [String], ended: Bool)>(([], false))
    private let changed = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                // read(2), not availableData: Foundation traps on EINTR (SIGCHLD of another test's child).
                let n = read(handle.fileDescriptor, &buffer, buffer.count)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                pending.append(contentsOf: buffer[0..<n])
                var complete: [String] = []
                while let newline = pending.firstIndex(of: 0x0A) {
                    complete.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
                if !complete.isEmpty {
                    state.withLock { $0.lines += complete }
                    changed.signal()
                }
            }
            state.withLock {
                if !pending.isEmpty { $0.lines.append(String(decoding: pending, as: UTF8.self)) }
                $0.ended = true
            }
            changed.signal()
            done.signal()
        }.start()
    }

    var lines: [String] { state.withLock { $0.lines } }
    var text: String { lines.joined(separator: "\n") }

    /// Waits until `condition` holds over the lines so far (true), or `seconds` pass or the stream
    /// ends without it holding (false).
    func waitFor(seconds: Double = 30, _ condition: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let (lines, ended) = state.withLock { ($0.lines, $0.ended) }
            if condition(lines) { return true }
            let left = deadline.timeIntervalSinceNow
            if ended || left <= 0 { return false }
            _ = changed.wait(timeout: .now() + min(left, 1))
        }
    }

    /// Waits until a line contains `fragment` (`count` such lines).
    func waitFor(_ fragment: String, count: Int = 1, seconds: Double = 30) -> Bool {
        waitFor(seconds: seconds) { $0.filter { $0.contains(fragment) }.count >= count }
    }

    func waitForEnd() {
        done.wait()
        done.signal()
    }
}
