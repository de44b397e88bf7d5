import Foundation
import Synchronization
import Testing
import TestSupport

/// A running `corsano` whose stdout is read line by line while it runs, so a test can wait for
/// an event (e.g. the step a scenario holds at) and then signal the process.
final class LiveCorsano: @unchecked Sendable {
    let process = Process()
    private let input = Pipe(), output = Pipe(), errors = Pipe()
    private let lines = Mutex<[String]>([])
    private let errText = Mutex("")
    private let arrived = DispatchSemaphore(value: 0)
    private let outDone = DispatchSemaphore(value: 0)
    private let errDone = DispatchSemaphore(value: 0)

    /// Starts `corsano ARGS` with `env` added; stdin stays open until `closeInput()`.
    init(_ args: [String], env: [String: String], executable: URL = Corsano.binary) throws {
        process.executableURL = executable
        process.arguments = args
        var environment = Corsano.inherited
        for (k, v) in env { environment[k] = v }
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        Thread { [self] in
            forEachLine(of: output.fileHandleForReading) { line in
                lines.withLock { $0.append(line) }
                arrived.signal()
                return true
            }
            arrived.signal()
            outDone.signal()
        }.start()
        Thread { [self] in
            var data = Data()
            while true {
                let chunk = errors.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                data.append(chunk)
                errText.withLock { $0 = String(decoding: data, as: UTF8.self) }
                arrived.signal()
            }
            errDone.signal()
        }.start()
    }

    /// Waits (at most `seconds`) until stderr so far contains `fragment`; true when it did.
    func waitForStderr(containing fragment: String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if errText.withLock({ $0.contains(fragment) }) { return true }
            _ = arrived.wait(timeout: .now() + 0.2)
        }
        return false
    }

    /// Waits (at most `seconds`) until a stdout line contains `fragment`; true when one did.
    func waitForLine(containing fragment: String, seconds: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if lines.withLock({ $0.contains { $0.contains(fragment) } }) { return true }
            _ = arrived.wait(timeout: .now() + 0.2)
        }
        return false
    }

    func signal(_ signo: Int32) { kill(process.processIdentifier, signo) }

    var pid: pid_t { process.processIdentifier }

    /// Waits until no `signo` is pending for the process (/proc/PID/status SigPnd, ShdPnd), so
    /// another one sent now is a second delivery, not merged by the kernel into the first.
    /// - Returns: false when one was still pending after `seconds`.
    func waitUntilDelivered(_ signo: Int32, seconds: Double = 20) -> Bool {
        Wait.until(seconds: seconds) { ProcessProbe.hasNoPending(signo, pid: pid) }
    }

    /// Waits until the process is blocked reading its standard input (a flow waiting for cuff
    /// readings on `-`). - Returns: false when it was not after `seconds`.
    func waitUntilReadingInput(seconds: Double = 20) -> Bool {
        Wait.until(seconds: seconds) { ProcessProbe.isReading(fd: 0, pid: pid) }
    }

    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Writes `text` to the run's stdin (which stays open).
    func write(_ text: String) { try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8)) }

    /// Every stdout line read so far.
    var linesSoFar: [String] { lines.withLock { $0 } }

    /// Waits for exit (closing stdin first when `closingInput`); the status, every stdout line, and stderr.
    func finish(closingInput: Bool = false) -> (status: Int32, lines: [String], stderr: String) {
        if closingInput { closeInput() }
        outDone.wait()
        errDone.wait()
        process.waitUntilExit()
        closeInput()
        return (process.terminationStatus, lines.withLock { $0 }, errText.withLock { $0 })
    }
}

/// Reads `handle` to its end, handing on each complete line (without its newline) as it arrives,
/// until `line` returns false; a last line without a newline is not handed on.
func forEachLine(of handle: FileHandle, _ line: (String) -> Bool) {
    var pending = Data()
    while true {
        let chunk = handle.availableData
        if chunk.isEmpty { return }
        pending.append(chunk)
        while let newline = pending.firstIndex(of: 0x0A) {
            let text = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
            pending.removeSubrange(pending.startIndex...newline)
            if !line(text) { return }
        }
    }
}
