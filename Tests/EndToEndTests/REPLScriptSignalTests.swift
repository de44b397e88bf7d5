import Foundation
import Synchronization
import Testing

/// A signal during `corsano repl < script`: the running flow ends cancelledByUser with the plan
/// restored, the session stops after that line with 130 / 143, later lines never run.
@Suite struct REPLScriptSignalTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalCancelsTheFlowAndStopsTheScript(signo: Int32, status: Int32) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-sig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let scenario = dir.appendingPathComponent("hold.json")
        try Data(#"{"faults":{"holdAtStep":{"flow":"bp-init","step":"measuring"}}}"#.utf8).write(to: scenario)
        let bp = "bp-init --json --no-state --bracelet sim:\(scenario.path) --cuff /dev/null\n"

        let process = Process()
        process.executableURL = Corsano.binary
        process.arguments = ["repl", "--no-state"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Stdin stays open: the REPL is reading the script when the signal comes.
        try input.fileHandleForWriting.write(contentsOf: Data((bp + bp + "status\n").utf8))
        let seen = Mutex("")
        let held = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            while case let chunk = output.fileHandleForReading.availableData, !chunk.isEmpty {
                let text = seen.withLock { $0 += String(decoding: chunk, as: UTF8.self); return $0 }
                if text.contains(#""step":"measuring""#) { held.signal() }
            }
            done.signal()
        }.start()
        #expect(held.wait(timeout: .now() + 20) == .success)
        kill(process.processIdentifier, signo)
        #expect(done.wait(timeout: .now() + 20) == .success)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        let out = seen.withLock { $0 }
        #expect(process.terminationStatus == status)
        #expect(out.components(separatedBy: #""event":"started""#).count == 2, "one flow started:\n\(out)")
        #expect(out.contains(#""event":"planRestored""#))
        #expect(out.contains(#""result":{"kind":"cancelledByUser"}"#))
        #expect(!out.contains("plan      "))  // the status line never ran
    }
}
