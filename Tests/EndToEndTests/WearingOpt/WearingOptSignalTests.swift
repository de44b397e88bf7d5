import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGINT / SIGTERM during wearing-opt: the flow ends as cancelledByUser with its closing events
/// and exits 130 / 143 (docs/design.md "Exit status"; the same SignalHandling as bp-init).
@Suite struct WearingOptSignalTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalWhileHeldAtRunningIsCancelledByUser(_ signo: Int32, _ status: Int32) throws {
        let e2e = try WearingE2E()
        let scenario = try e2e.file("hold.json", #"{"profile":\#(WearingE2E.scenarioProfile),"faults":{"holdAtStep":{"flow":"wearing-opt","step":"running"}}}"#)
        let process = Process()
        process.executableURL = Corsano.binary
        process.arguments = ["wearing-opt", "--bracelet", "sim:" + scenario, "--now", WearingE2E.now,
                             "--state", e2e.state, "--json"]
        let output = Pipe(), errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read lines until the flow reports the running step (the simulator holds the call there).
        var text = ""
        let reader = output.fileHandleForReading
        while !text.contains(#""step":"running""#) {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        #expect(text.contains(#""step":"running""#))
        kill(process.processIdentifier, signo)
        // A lost signal must fail the test, not hang it.
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 30) { if process.isRunning { kill(pid, SIGKILL) } }
        text += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        let last = try #require(text.split(separator: "\n").last)
        #expect(last.contains(#""event":"finished""#))
        #expect(last.contains(#""result":{"kind":"cancelledByUser"}"#))
    }
}
