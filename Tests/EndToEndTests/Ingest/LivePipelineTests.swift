import Foundation
import Testing

/// A live pipeline sees each reading as its line arrives, not when the input ends.
@Suite struct CuffIngestLivePipelineTests {
    @Test func eachReadingIsWrittenBeforeTheNextReadBlocks() throws {
        let process = Process()
        process.executableURL = Corsano.binary
        process.arguments = ["cuff", "ingest", "--from", "jsonl"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate() }
        try input.fileHandleForWriting.write(contentsOf: Data("{\"systolic\":120,\"diastolic\":80}\n".utf8))
        let got = DataBox()
        let arrived = DispatchSemaphore(value: 0)
        Thread {
            got.data = output.fileHandleForReading.availableData
            arrived.signal()
        }.start()
        // stdin stays open: the line must come out while the reader blocks on the next read.
        #expect(arrived.wait(timeout: .now() + 20) == .success)
        #expect(String(decoding: got.data, as: UTF8.self) == #"{"systolic":120,"diastolic":80,"isManualEntry":false}"# + "\n")
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
