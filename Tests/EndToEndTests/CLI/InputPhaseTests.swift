import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The runner's inputs phase (docs/design.md "Exit status": 64, 66, 74, 69): every input
/// the line names is checked after the rules (64) and before a store is opened (74) or a bracelet
/// reached (69), with `stat` and `access` only, so a FIFO nobody writes never holds the check.
@Suite struct InputPhaseTests {
    static let unopenableStore = ["--state", "/proc/corsano-x/y.db"]
    static let unreachableBracelet = ["--bracelet", "unix:/tmp/corsano-nobody-here.sock"]

    /// Each flow command with one missing input: (words, the input's path, stderr).
    static let missingInputs: [([String], String)] = [
        (["bp-init", "--cuff", "/nonexistent/cuff.jsonl"], "corsano: /nonexistent/cuff.jsonl: No such file or directory\n"),
        (["bp-init", "--cuff", "sim:/nonexistent/s.json"], "corsano: scenario /nonexistent/s.json: no such file\n"),
        (["wearing-opt", "--profile", "/nonexistent/p.json"], "corsano: /nonexistent/p.json: No such file or directory\n"),
        (["profile", "push", "--from", "/nonexistent/p.json"], "corsano: /nonexistent/p.json: No such file or directory\n"),
    ]

    @Test(arguments: missingInputs)
    func aMissingInputIs66BeforeAnUnopenableStore(words: [String], stderr: String) throws {
        let r = try Corsano.run(words + Self.unopenableStore, stdin: "")
        #expect(r.status == 66, "\(r.stderr)")
        #expect(r.stderr == stderr)
        #expect(r.stdout.isEmpty)
    }

    @Test(arguments: missingInputs)
    func aMissingInputIs66BeforeAnUnreachableBracelet(words: [String], stderr: String) throws {
        let r = try Corsano.run(words + Self.unreachableBracelet + ["--no-state"], stdin: "")
        #expect(r.status == 66, "\(r.stderr)")
        #expect(r.stderr == stderr)
    }

    @Test func aDirectoryOrSocketIsNoInput() throws {
        let dir = try InputRefusalTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Corsano.run(["bp-init", "--cuff", dir.path] + Self.unopenableStore)
        #expect(r.status == 66)
        #expect(r.stderr == "corsano: \(dir.path): Is a directory\n")
    }

    /// A FIFO with no writer as the first operand, a missing file after it: 66 naming the
    /// missing one, and the FIFO never opened (a poll with `O_WRONLY|O_NONBLOCK` succeeds only
    /// while a reader has it open; were it opened, the poll's open is also what lets it go on).
    @Test(arguments: [["cuff", "ingest"], ["replay-filter", "--no-state"], ["validate"]])
    func aFIFONobodyWritesDoesNotHoldTheCheck(words: [String]) throws {
        let dir = try InputRefusalTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("readings.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let watcher = FIFOWatcher(fifo)
        watcher.start()
        let r = try Corsano.run(words + [fifo, "/nonexistent/device.jsonl"])
        watcher.stop()
        #expect(r.status == 66, "\(r.stderr)")
        #expect(r.stderr == "corsano: /nonexistent/device.jsonl: No such file or directory\n")
        #expect(!watcher.opened, "corsano opened the FIFO")
    }

    @Test func theREPLChecksInputsBeforeTheStore() throws {
        let r = try Corsano.run(["repl", "--no-state"], stdin: "bp-init --cuff /nonexistent/cuff.jsonl --state /proc/corsano-x/y.db\n")
        #expect(r.stderr.contains("/nonexistent/cuff.jsonl: No such file or directory"), "\(r.stderr)")
        #expect(!r.stderr.contains("/proc/corsano-x"), "\(r.stderr)")
    }
}

/// Polls a FIFO for a reader: an `O_WRONLY|O_NONBLOCK` open succeeds only while some process has
/// it open for reading (else ENXIO); the first success is recorded and closed at once.
final class FIFOWatcher: @unchecked Sendable {
    private let path: String
    private let lock = NSLock()
    private var done = false
    private var sawReader = false
    private let finished = DispatchSemaphore(value: 0)

    init(_ path: String) { self.path = path }

    var opened: Bool { lock.withLock { sawReader } }

    func start() {
        Thread { [self] in
            while !lock.withLock({ done }) {
                let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                if fd >= 0 {
                    lock.withLock { sawReader = true }
                    close(fd)
                }
                usleep(2_000)
            }
            finished.signal()
        }.start()
    }

    func stop() {
        lock.withLock { done = true }
        finished.wait()
    }
}
