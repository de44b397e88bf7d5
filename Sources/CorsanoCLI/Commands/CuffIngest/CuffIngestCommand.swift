import CorsanoKit
import Foundation

/// `corsano cuff ingest [FILE...]`: cuff dumps in, one normalized reading line per record out.
///
/// Exit status (docs/design.md "Exit status"): 64 usage or undetectable format, 66 when an input is
/// missing (before any output) or fails while read, 65 when any record was rejected (after
/// writing every good one; `--strict` stops at the first), 0 otherwise.
enum CuffIngestCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        // SIGINT/SIGTERM/SIGHUP: stop reading, write what was read and the counts.
        let (signals, interrupt) = SignalHandling.installInterruptingReads()
        defer { signals.uninstall() }
        let (format, layout) = try inputFormat(args)
        let options = CuffIngester.Options(
            csv: CSVOptions(headerLine: try args.integer(.headerLine),
                            dateOrder: try args.string(.dateOrder).map(dateOrder), layout: layout,
                            columns: try args.strings(.column).map(columnAssignment)),
            encoding: try args.string(.encoding).map(encoding))
        let basis = NaiveTimeBasis(anchor: try anchor(args), zone: try zone(args, ctx.environment))
        let inputs = try InputFile.openAll(args.operands, diagnostics: ctx.diagnostics)
        defer { inputs.forEach { $0.close() } }
        let fhir = try fhirOutput(args)
        let rejects = try args.string(.rejects).map(OutputFile.create)
        let output = IngestOutput(ctx: ctx, rejects: rejects, fhir: fhir)
        var normalizer = IngestNormalizer(basis: basis, deriveMAP: args.flag(.deriveMap), subject: try SubjectOption.value(args))
        normalizer.cuffID = args.string(.cuffId)  // issue 32: one cuff per calibration
        let ingester = CuffIngester(normalizer: normalizer, strict: args.flag(.strict), sink: output)
        ingester.diagnostics = ctx.diagnostics
        let spoolDirectory = PipeSpool.directory(ctx.environment)
        ingester.spool = { try PipeSpool.spool(&$0, directory: spoolDirectory) }
        var status: ExitStatus?
        InputFile.announceTerminalInput(inputs, command: "cuff ingest", ctx)
        for input in inputs where !ingester.stoppedAtReject {
            // A reading's FHIR source is the file's name, not its path: re-exporting the same dump
            // from another directory must give the same identifiers.
            output.currentSource = input.name == "-" || input.name == "<stdin>" ? "stdin"
                : String(input.name.split(separator: "/").last ?? Substring(input.name))
            do {
                // A regular file can be read again at any offset: export.zip, the pulse join.
                try ingester.ingest(FileDescriptorSource(fd: input.fd, interrupt: interrupt), name: input.name, format: format,
                                    options: options, file: FileDescriptorRandomAccess(fd: input.fd))
            } catch let error as IngestError {
                output.finish()
                status = report(error, ctx)
                if case .unknownFormat = error { break }
            } catch ByteSourceError.readFailed(let code) {
                // A read that fails while the format is still being sniffed: name the input (66).
                output.finish()
                status = report(IngestError.unreadable(source: input.name, errno: code), ctx)
            } catch is IngestOutput.StdoutFailed {
                break
            } catch ByteSourceError.interrupted {
                break  // a stop signal: the counts below say what was read
            } catch let error as OutputFileError {
                // A pipe's export that cannot be spooled (74): the counts of what was read first.
                output.finish()
                ctx.note("cuff ingest: " + ingester.counts.summary + layoutSummary(ingester.layouts))
                throw error
            }
        }
        output.finish()
        do {
            try fhir?.finish(stdout: ctx.stdout, request: "corsano cuff ingest --format fhir", now: CommandContext.wallClock())
        } catch {
            // An export that cannot be written (74) still ends with the counts of what was read.
            ctx.note("cuff ingest: " + ingester.counts.summary + layoutSummary(ingester.layouts))
            throw error
        }
        if ingester.normalizer.usedZone {
            ctx.note(basis.anchor == nil
                ? "cuff ingest: naive stamps read in zone \(basis.zone.identifier) (no --anchor-device/--anchor-phone; --tz to choose)"
                : "cuff ingest: manual entries' naive stamps read in zone \(basis.zone.identifier) (never shifted by the anchor; --tz to choose)")
        }
        // Readings handed on but lost to a failed write are not "written" (the exit is 74; see main).
        ctx.stdout.flush()
        var counts = ingester.counts
        counts.unwritten = output.unwrittenReadings(droppedLines: ctx.stdout.droppedLines)
        counts.written = max(0, counts.written - counts.unwritten)
        ctx.note("cuff ingest: " + counts.summary + layoutSummary(ingester.layouts))
        if let status { return status }
        if let signalled = signals.exitStatus { return signalled }
        return ingester.counts.rejected > 0 ? .dataError : .success
    }

    /// The `--from` word that detects the format per file (the default).
    static let autoDetect = "auto"

    /// `--format fhir`: FHIR R4 resources instead of reading lines (the table's rules refuse the
    /// FHIR options without it, and `--derive-map` with it: issue 17, MAP only when reported).
    static func fhirOutput(_ args: ParsedCommand) throws -> FHIROutput? {
        args.string(.format) == "fhir" ? try FHIROutput(args) : nil
    }

    /// The value checks of `cuff ingest` that need no file (its `.check` rule, the validate
    /// phase): every `--column`, the anchor's two stamps, `--from csv:LAYOUT`. - Throws: `UsageError`.
    static func checkValues(_ args: ParsedCommand) throws {
        _ = try inputFormat(args)
        _ = try args.strings(.column).map(columnAssignment)
        _ = try anchor(args)
    }

    /// `; layout: omron-connect` for one CSV input, `; layouts: a.csv omron-connect, ...` for several.
    static func layoutSummary(_ layouts: [(source: String, layout: String)]) -> String {
        if layouts.isEmpty { return "" }
        if layouts.count == 1 { return "; layout: \(layouts[0].layout)" }
        return "; layouts: " + layouts.map { "\($0.source) \($0.layout)" }.joined(separator: ", ")
    }

    /// `--from`: a format, or `csv:LAYOUT` (a CSV export that must have that vendor layout).
    static func inputFormat(_ args: ParsedCommand) throws -> (IngestFormat?, CSVLayout?) {
        guard let raw = args.string(.from), raw != autoDetect else { return (nil, nil) }
        if raw.hasPrefix("csv:") {
            guard let layout = CSVLayout.named(String(raw.dropFirst(4))) else {
                throw UsageError.badValue(option: "from", value: raw, expected: "csv:LAYOUT with LAYOUT one of " + CSVLayout.all.map(\.name).joined(separator: ", "))
            }
            return (.csv, layout)
        }
        guard let format = IngestFormat(rawValue: raw) else {
            throw UsageError.badValue(option: "from", value: raw, expected: "one of auto, jsonl, ble, csv, csv:LAYOUT, applehealth, googlefit")
        }
        return (format, nil)
    }

    static func dateOrder(_ raw: String) throws -> CSVDateOrder {
        guard let order = CSVDateOrder(rawValue: raw) else {
            throw UsageError.badValue(option: "date-order", value: raw, expected: "one of dmy, mdy, ymd")
        }
        return order
    }

    /// `--column ROLE=N|NAME`: a role word and a column; which column the header has is for the
    /// CSV reader to say (65), a word that is no role is a usage error (64).
    static func columnAssignment(_ raw: String) throws -> CSVColumnAssignment {
        guard let assignment = CSVColumnAssignment(raw) else {
            throw UsageError.badValue(option: "column", value: raw,
                                      expected: "ROLE=N or ROLE=NAME with ROLE one of " + CSVColumnAssignment.roles.map(\.word).joined(separator: ", "))
        }
        return assignment
    }

    static func encoding(_ raw: String) throws -> TextEncoding {
        guard let encoding = TextEncoding(rawValue: raw), TextEncoding.selectable.contains(encoding) else {
            throw UsageError.badValue(option: "encoding", value: raw, expected: "one of " + TextEncoding.selectable.map(\.rawValue).joined(separator: ", "))
        }
        return encoding
    }

    static func anchor(_ args: ParsedCommand) throws -> ClockAnchor? {
        let device = try args.naive(.anchorDevice), phone = try args.instant(.anchorPhone)
        switch (device, phone) {
        case let (device?, phone?): return ClockAnchor(device: device, phone: phone)
        case (nil, nil): return nil
        default: return nil  // one without the other: refused by the table's rules first
        }
    }

    /// `--tz ZONE`, else the TZ environment's zone, else the system zone. A TZ that is set but
    /// not readable (a typo, a POSIX rule string) is refused (64), never replaced by the system
    /// zone: naive stamps would be read hours off while `date` shows the right time.
    static func zone(_ args: ParsedCommand, _ environment: [String: String]) throws -> ZoneReader {
        if let name = args.string(.tz) {
            guard let zone = ZoneReader(identifier: name) else {
                throw UsageError.badValue(option: "tz", value: name, expected: "a tz database zone like Europe/Berlin or UTC")
            }
            return zone
        }
        if let name = environment[EnvironmentVariable.tz.rawValue], !name.isEmpty {
            guard let zone = ZoneReader(identifier: name) ?? ZoneReader(posixTZ: name) else {
                throw UsageError.badEnvironment(variable: EnvironmentVariable.tz.rawValue, value: name,
                                                expected: "a tz database zone like Europe/Berlin or UTC, or a fixed offset like UTC0 or <+03>-3 (--tz ZONE overrides it)")
            }
            return zone
        }
        return ZoneReader(zone: TimeZone.current)
    }
}
