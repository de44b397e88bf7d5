import CorsanoKit
import Foundation
import Testing
import TestSupport

/// `replay-filter` on live and shared input: a pipe held open, two processes on one store.
@Suite struct ReplayFilterLiveTests {
    /// Reads a pipe on a thread; `waitFor` returns once the collected text satisfies a condition.
    final class PipeCollector: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        private let changed = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread { [self] in
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    lock.lock(); data.append(chunk); lock.unlock()
                    changed.signal()
                }
                changed.signal()
            }.start()
        }

        var text: String { lock.lock(); defer { lock.unlock() }; return String(decoding: data, as: UTF8.self) }

        func waitFor(seconds: Double, _ condition: (String) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !condition(text) {
                let left = deadline.timeIntervalSinceNow
                if left <= 0 || changed.wait(timeout: .now() + left) == .timedOut { return condition(text) }
            }
            return true
        }
    }

    static func line(_ minute: Int, _ sys: Int, _ dia: Int, _ pulse: Int) -> String {
        let stamp = RFC3339.format(Instant(secondsSinceEpoch: 1_795_996_800 + Int64(minute) * 60))
        return #"{"systolic":\#(sys),"diastolic":\#(dia),"pulse":\#(pulse),"measuredAt":"\#(stamp)","isManualEntry":false}"#
    }

    @Test func lineAppearsBeforeInputCloses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-live-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = Corsano.binary
        process.arguments = ["replay-filter", "--state", dir.appendingPathComponent("state.sqlite3").path,
                             "--max-reading-age", "none"]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = PipeCollector(output.fileHandleForReading)
        let err = PipeCollector(errors.fileHandleForReading)
        let first = Self.line(0, 120, 80, 60), second = Self.line(1, 121, 81, 61)
        try input.fileHandleForWriting.write(contentsOf: Data((first + "\n").utf8))
        #expect(out.waitFor(seconds: 20) { $0 == first + "\n" })
        try input.fileHandleForWriting.write(contentsOf: Data((first + "\n" + second + "\n").utf8))
        #expect(out.waitFor(seconds: 20) { $0 == first + "\n" + second + "\n" })
        #expect(err.waitFor(seconds: 20) { $0.contains("<stdin>:2: duplicate") })
        #expect(process.isRunning)
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(err.waitFor(seconds: 20) { $0.contains("read 3, written 2, skipped 0, dropped 1 (duplicate: 1)") })
    }

    /// 100,000 lines, every tenth a replay of a recent record: 90,000 distinct records.
    static let sharedInput: (text: String, distinct: Set<String>) = {
        var lines: [String] = []
        lines.reserveCapacity(100_000)
        var distinct = Set<String>()
        for i in 0..<100_000 {
            if i % 10 == 9 {
                lines.append(lines[i - 5])
            } else {
                let l = line(i, 100 + i % 70, 60 + i % 30, 50 + i % 50)
                lines.append(l)
                distinct.insert(l)
            }
        }
        return (lines.joined(separator: "\n") + "\n", distinct)
    }()

    @Test func twoProcessesOnOneStoreEmitEachRecordOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let store = dir.appendingPathComponent("state.sqlite3").path
        let (text, distinct) = Self.sharedInput
        var processes: [Process] = [], fifos: [String] = [], outputs: [URL] = []
        for n in 0..<2 {
            let fifo = dir.appendingPathComponent("in\(n)").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let out = dir.appendingPathComponent("out\(n)"), err = dir.appendingPathComponent("err\(n)")
            FileManager.default.createFile(atPath: out.path, contents: nil)
            FileManager.default.createFile(atPath: err.path, contents: nil)
            let p = Process()
            p.executableURL = Corsano.binary
            p.arguments = ["replay-filter", "--state", store, "--max-reading-age", "none", fifo]
            p.standardOutput = try FileHandle(forWritingTo: out)
            p.standardError = try FileHandle(forWritingTo: err)
            try p.run()
            processes.append(p); fifos.append(fifo); outputs.append(out)
        }
        // Each process blocks opening its FIFO; both writers start together, then write at once.
        let start = DispatchSemaphore(value: 0), done = DispatchGroup()
        let payload = Data(text.utf8)
        // A process that exits early must fail the test, not hang it: open each FIFO without
        // blocking (retrying while its reader lives) and take a closed pipe as an error, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        for (fifo, process) in zip(fifos, processes) {
            done.enter()
            Thread {
                start.wait()
                var fd: Int32 = -1
                _ = Wait.until(seconds: 60, poll: 0.001) {
                    fd = open(fifo, O_WRONLY | O_NONBLOCK)
                    return fd >= 0 || !process.isRunning
                }
                if fd < 0, process.isRunning { process.terminate() }  // never opened its FIFO: fail, do not hang
                if fd >= 0 {
                    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
                    let h = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
                    try? h.write(contentsOf: payload)
                    try? h.close()
                }
                done.leave()
            }.start()
        }
        start.signal(); start.signal()
        #expect(done.wait(timeout: .now() + 300) == .success)
        for p in processes { p.waitUntilExit(); #expect(p.terminationStatus == 0) }
        let emitted = try outputs.flatMap { try String(contentsOf: $0, encoding: .utf8).split(separator: "\n").map(String.init) }
        #expect(emitted.count == distinct.count)
        #expect(Set(emitted) == distinct)
        // Each read everything; every line one did not emit it reported (its claim lost).
        for n in 0..<2 {
            let emittedHere = try String(contentsOf: outputs[n], encoding: .utf8).split(separator: "\n").count
            let summary = try String(contentsOf: dir.appendingPathComponent("err\(n)"), encoding: .utf8)
            #expect(summary.contains("corsano: replay-filter: read 100000, written \(emittedHere), skipped 0, dropped \(100_000 - emittedHere) (duplicate: \(100_000 - emittedHere)), rejected 0"))
        }
    }
}
