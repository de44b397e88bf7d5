import CorsanoKit

#if canImport(Glibc)
import Glibc
#endif

/// Where `cuff ingest` puts results: readings on stdout, `FILE:LINE: reason` on stderr, and
/// rejects as JSON lines in the `--rejects` file.
final class IngestOutput: IngestSink {
    private let ctx: CommandContext
    private let rejects: OutputWriter?
    /// Set with `--format fhir`: readings become FHIR resources instead of reading lines.
    private let fhir: FHIROutput?
    /// The input being read (a reading's FHIR source when the cuff's address is unknown).
    var currentSource = "-"
    /// With `--format fhir` on stdout: after each reading, how many lines had been handed on
    /// (a failed write loses a suffix of them, so the readings it lost can be counted).
    private var fhirEnds: [Int] = []
    /// Reading lines not yet handed to stdout (one writer call per ~64 KiB, not per line).
    private var pending: [UInt8] = []

    init(ctx: CommandContext, rejects: OutputWriter?, fhir: FHIROutput? = nil) {
        self.ctx = ctx
        self.rejects = rejects
        self.fhir = fhir
        pending.reserveCapacity(Self.batch + 4096)
    }

    private static let batch = 60 * 1024

    func write(_ reading: CuffReading) {
        if let fhir {
            let address = FHIRReadingInput.bluetoothAddress(in: reading)
            push()
            fhir.add(fhir.exporter.resources(for: FHIRReadingInput(reading: reading, source: address ?? currentSource,
                                                                   cuffAddress: address)), to: ctx.stdout)
            fhirEnds.append(fhir.stdoutLines)
            return
        }
        reading.appendJSONLine(to: &pending)
        pending.append(10)
        if pending.count >= Self.batch { push() }
    }

    func write(cuffFailure: CuffError) {
        let text: String
        switch cuffFailure {
        case .noReading: text = "noReading"
        case .cuffDisconnected: text = "cuffDisconnected"
        case .unknown(let message): text = message
        case .staleReading: text = "staleReading"
        }
        pending.append(contentsOf: JSONValue.object([("error", .string(text))]).serialized.utf8)
        pending.append(10)
    }

    private func push() {
        guard !pending.isEmpty else { return }
        pending.withUnsafeBufferPointer { ctx.stdout.write(bytes: $0) }
        pending.removeAll(keepingCapacity: true)
    }

    private func flushStdout() {
        push()
        ctx.stdout.flush()
    }

    func reject(_ reject: RejectRecord) {
        flushStdout()  // keep stdout and stderr in input order on a terminal
        ctx.writeText(TerminalText.escaped(reject.message))
        rejects?.line(reject.jsonLine)
    }

    func note(source: String, line: Int, message: String) {
        flushStdout()
        if !ctx.quiet { ctx.writeText(TerminalText.escaped("\(source):\(line): note: \(message)")) }
    }

    func skipped(source: String, lines: ClosedRange<Int>, message: String) {
        flushStdout()
        let where_ = lines.count == 1 ? "\(lines.lowerBound)" : "\(lines.lowerBound)-\(lines.upperBound)"
        ctx.writeText(TerminalText.escaped("\(source):\(where_): skipped: \(message)"))
    }

    /// - Throws: `IngestOutput.StdoutFailed` once a write to stdout failed: reading on would
    /// only drop more lines (the exit status and message say so; see `OutputWriter`).
    func willRead() throws {
        flushStdout()
        rejects?.flush()
        if ctx.stdout.hasFailed { throw StdoutFailed() }
    }

    /// Readings handed on whose output never reached stdout, given the lines stdout dropped:
    /// reading lines one for one; FHIR resources as the readings they came from (a Bundle is
    /// all of them or none); bulk files are not stdout (their failure is an error of its own).
    func unwrittenReadings(droppedLines dropped: Int) -> Int {
        guard let fhir else { return dropped }
        guard dropped > 0 else { return 0 }
        switch fhir.destination {
        case .bundle: return fhirEnds.count
        case .bulk: return 0
        case .ndjson:
            let reached = fhir.stdoutLines - dropped
            return fhirEnds.reversed().prefix { $0 > reached }.count
        }
    }

    /// Ends the run early: stdout cannot take lines any more.
    struct StdoutFailed: Error {}

    /// Flushes everything and closes the rejects file.
    func finish() {
        flushStdout()
        if let rejects {
            rejects.flush()
            Glibc.close(rejects.fd)
        }
    }
}
