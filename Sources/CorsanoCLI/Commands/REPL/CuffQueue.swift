import CorsanoKit
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Cuff readings queued in the REPL (`cuff add 120/80 72 [at TIME]`) for the next flow, handed to
/// `bp-init` as reading lines on a pipe (`--cuff /dev/fd/N`), so the flow reads them through the
/// same cuff source as a file; while the flow runs, readings typed at its prompt follow them.
final class CuffQueue: @unchecked Sendable {
    private let lock = Mutex(())
    private var readings: [CuffReading] = []

    /// The readings waiting, oldest first.
    var queued: [CuffReading] { lock.locked { readings } }

    func add(_ reading: CuffReading) { lock.locked { readings.append(reading) } }

    /// Parses the operands of `cuff add`: `SYS/DIA PULSE [at TIME]`, the core's typed-reading
    /// grammar and plausibility ranges (`ManualCuffEntry.parse(_:enteredAt:allowingTime:)`).
    /// Without `at` the reading is a manual entry typed at `enteredAt` (the wall clock; never
    /// deduplicated or age-checked, docs/design.md "Host-side cuff rules", rules 3 and 4); with it,
    /// a cuff reading measured at TIME.
    /// - Throws: `UsageError` naming what is wrong (`cuff add: ` and the core's reason).
    static func reading(_ operands: [String], enteredAt: Instant) throws -> CuffReading {
        do {
            return try ManualCuffEntry.parse(operands.joined(separator: " "), enteredAt: enteredAt, allowingTime: true)
        } catch {
            throw UsageError.missing("cuff add: \(error)")
        }
    }

    /// A pipe carrying the queued readings (the queue is emptied: the next flow takes them all).
    /// The caller passes `/dev/fd/\(readEnd)` to the flow and closes both ends when it is done.
    func handOff() throws -> CuffPipe {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw UsageError.missing("cannot create a pipe for the cuff queue") }
        let pipe = CuffPipe(readEnd: fds[0], writeEnd: fds[1])
        let taken = lock.locked { () -> [CuffReading] in defer { readings = [] }; return readings }
        for reading in taken { pipe.send(reading) }
        return pipe
    }
}

/// The pipe a flow reads queued and typed readings from.
final class CuffPipe: @unchecked Sendable {
    let readEnd: Int32
    private var writeEnd: Int32
    private let lock = Mutex(())

    init(readEnd: Int32, writeEnd: Int32) {
        self.readEnd = readEnd
        self.writeEnd = writeEnd
    }

    /// `/dev/fd/N`: the path `--cuff` opens.
    var path: String { "/dev/fd/\(readEnd)" }

    /// Writes `reading` as one reading line (a no-op once the input is ended).
    func send(_ reading: CuffReading) {
        let line = reading.jsonLine() + "\n"
        lock.locked {
            guard writeEnd >= 0 else { return }
            _ = line.utf8CString.withUnsafeBufferPointer { write(writeEnd, $0.baseAddress, $0.count - 1) }
        }
    }

    /// Ends the input: the flow sees end of file after what was sent.
    func endInput() {
        lock.locked {
            if writeEnd >= 0 { Glibc.close(writeEnd) }
            writeEnd = -1
        }
    }

    /// Ends the input and closes the read end too.
    func close() {
        endInput()
        Glibc.close(readEnd)
    }
}
