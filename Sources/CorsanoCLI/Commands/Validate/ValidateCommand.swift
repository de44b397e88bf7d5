import CorsanoKit
#if canImport(Glibc)
import Glibc
#endif

/// `corsano validate REFERENCE DEVICE`: pairs device values with reference readings per
/// subject and reports ISO 81060-2 criteria 1 and 2, Bland–Altman (repeated measures) and the
/// IEEE 1708 grade (the statistics: CorsanoKit/Validation). Status in this order: 64 usage,
/// 66 an input missing, 65 bad or implausible lines or unpaired device values or subjects (the
/// summary still written), 2 not assessable (too few subjects or pairs, a subject with fewer than
/// 3 pairs, criterion 2 with one subject, a population requirement unmet), 1 a criterion fails,
/// 0 pass.
enum ValidateCommand {
    /// What the options ask for, checked before any file is opened.
    struct Options {
        var pairing: ValidationPairing
        var criteria: [ValidationCriterion]
        var maxGrade: IEEE1708Grade
        var minimum: ValidationMinimum
        var pairs: Bool
        /// `--subjects FILE`: sex, age, arm circumference and cuff per subject (the population check).
        var subjects: String?
    }

    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        if args.flag(.live) {
            return try await ValidateLive.run(args, ctx, options: try parse(args), mode: try OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal))
        }
        let options = try parse(args)
        let mode = try OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal)
        let statePath = try args.given(.state).map { try StateLocation.checked($0) }
        let files = try args.operands.map { try InputFile.open($0) }
        defer { files.forEach { $0.close() } }
        InputFile.announceTerminalInput(files, command: "validate", ctx)
        var inputs = [ValidationInput(), ValidationInput()]
        for (i, file) in files.enumerated() {
            do {
                try inputs[i].read(LineReader(source: FileDescriptorSource(fd: file.fd)), name: file.name)
            } catch ByteSourceError.readFailed(let code) {
                throw InputError.cannotOpen(path: file.name, reason: String(cString: strerror(code)))
            }
        }
        let subjects = try options.subjects.map(readSubjects)
        let summary = summarize(inputs, pairing: options.pairing, options, subjects: subjects)
        let drift = try statePath.map { try calibrationDrift(summary, path: $0, ctx) }
        write(summary, options, mode, ctx)
        try writeReport(summary, options, args, ctx)
        if let drift { writeDrift(drift, mode, ctx) }
        return status(summary, inputs, subjects, options, ctx)
    }

    /// The summary of the reference (`inputs[0]`) and device (`inputs[1]`) readings, with the
    /// implausible readings the inputs refused counted.
    static func summarize(_ inputs: [ValidationInput], pairing: ValidationPairing, _ o: Options,
                          subjects: ValidationSubjects?) -> ValidationSummary {
        let paired = ValidationPairs(reference: inputs[0].readings, device: inputs[1].readings, rule: pairing)
        var summary = ValidationSummary(paired: paired, pairing: pairing, minimum: o.minimum, subjects: subjects)
        summary.excluded.implausible = inputs.reduce(0) { $0 + $1.implausible }
        return summary
    }

    /// `--subjects FILE`, read whole. - Throws: `InputError` (66) when it cannot be opened or read.
    static func readSubjects(_ path: String) throws -> ValidationSubjects {
        let file = try InputFile.open(path)
        defer { file.close() }
        var subjects = ValidationSubjects()
        do {
            try subjects.read(LineReader(source: FileDescriptorSource(fd: file.fd)), name: file.name)
        } catch ByteSourceError.readFailed(let code) {
            throw InputError.cannotOpen(path: file.name, reason: String(cString: strerror(code)))
        }
        return subjects
    }

    /// `--state`: the pairs by days since each bracelet's last successful calibration in the audit
    /// log. - Throws: `InputError` (66) when the store does not exist, `StoreError` (74).
    static func calibrationDrift(_ summary: ValidationSummary, path: String, _ ctx: CommandContext) throws -> CalibrationDrift {
        let (opened, _) = try StateLocation.openExisting(path: path, note: { ctx.note("validate: " + $0) }, diagnostics: ctx.diagnostics, bounds: ctx.storeBounds)
        guard let store = opened else { throw InputError.cannotOpen(path: path, reason: "no such state store") }
        let runs = try AuditLog(store: store).runs()
        let drift = CalibrationDrift(pairs: summary.paired.pairs, calibrations: CalibrationDrift.calibrations(in: runs))
        if drift.unmatched > 0 {
            ctx.note("validate: \(drift.unmatched) pair(s) without a bracelet serial or a calibration before them are not in the drift")
        }
        return drift
    }

    /// `--report FILE`: the validation report, in the `--lang` locale, replaced whole.
    /// - Throws: `OutputFileError` (74) when FILE cannot be written.
    static func writeReport(_ summary: ValidationSummary, _ o: Options, _ args: ParsedCommand, _ ctx: CommandContext) throws {
        guard let path = args.string(.report) else { return }
        let paper = args.string(.paper).flatMap(PaperSize.init(rawValue:)) ?? .default
        let html = ValidationReport(summary: summary, criteria: o.criteria, maxGrade: o.maxGrade, paper: paper,
                                    issued: CommandContext.wallClock(), version: HelpRenderer.version).html(EventSinks.localizer(args, ctx))
        let file = try OutputFile.createWhole(path)
        file.writer.write(html)
        try OutputFile.commit(file)
    }

    /// The drift line (JSON) or its table.
    static func writeDrift(_ drift: CalibrationDrift, _ mode: OutputMode, _ ctx: CommandContext) {
        switch mode {
        case .json: ctx.stdout.line(drift.json.serialized)
        case .text: for line in drift.tableLines { ctx.stdout.line(line) }
        }
        ctx.stdout.flush()
    }

    /// The rules between validate's options and operands, checked before any file opens (64).
    static let rules: [OptionRule] = {
        var rules: [OptionRule] = [OptionKey.sequence, .cuff, .cuffCmd, .cuffTimeout, .adapter, .tz, .subjectId, .referenceOut, .deviceOut,
                                   .bracelet, .seed, .clock, .now, .requestTimeout, .tokenFile].map { .requires($0, .live) }
        rules += [
            .requiresValue(.window, .pairing, ["nearest"]),
            .requires(.paper, .report),
            .excludesValue(.live, .pairing, ["nearest"], because: "the live sequence pairs sequentially; nearest is for files"),
            .requires(.live, .subjectId, because: "the subject measured"),
            .check { args in
                _ = try parse(args)
                if args.flag(.live) {
                    if let operand = args.operands.first { throw UsageError.unexpectedOperand(operand, command: "validate --live") }
                    if case .failure(let why) = ValidationSequence.parse(args.string(.sequence) ?? ValidationSequence.standard) {
                        throw UsageError.badValue(option: "sequence", value: args.string(.sequence) ?? "", expected: why.description)
                    }
                    return
                }
                guard args.operands.count == 2 else {
                    if args.operands.count > 2 { throw UsageError.unexpectedOperand(args.operands[2], command: "validate") }
                    throw UsageError.missing("validate: REFERENCE and DEVICE are required (files, or - for one of them)")
                }
                if (args.operands + [args.string(.subjects)].compactMap { $0 }).filter({ $0 == "-" }).count > 1 {
                    throw UsageError.conflict("validate: only one of REFERENCE, DEVICE and --subjects can be - (standard input)")
                }
            },
        ]
        return rules
    }()

    /// The options as core values. - Throws: `UsageError` (64).
    static func parse(_ args: ParsedCommand) throws -> Options {
        let pairingName = args.string(.pairing) ?? ValidationPairing.sequential.name
        let window = try args.seconds(.window)
        let pairing: ValidationPairing
        if pairingName == "nearest" {
            pairing = .nearest(window: Double((window ?? nil) ?? ValidationPairing.defaultWindowSeconds))
        } else {
            pairing = .sequential
        }
        let criteriaText = args.string(.criteria) ?? ValidationCriterion.standardList
        let criteria: [ValidationCriterion]
        switch ValidationCriterion.parseList(criteriaText) {
        case .success(let list): criteria = list
        case .failure(let bad):
            throw UsageError.badValue(option: "criteria", value: bad.word.isEmpty ? criteriaText : bad.word,
                                      expected: "a comma-separated list of 1, 2, ieee1708")
        }
        let grade = args.string(.ieee1708Grade).flatMap(IEEE1708Grade.init(rawValue:)) ?? .a
        if args.flag(.ieee1708Grade), !criteria.contains(.ieee1708) {
            throw UsageError.conflict("validate: --ieee1708-grade needs ieee1708 in --criteria")
        }
        let minimum = try args.integer(.minSubjects).map(ValidationMinimum.panel(subjects:)) ?? .standard
        return Options(pairing: pairing, criteria: criteria, maxGrade: grade, minimum: minimum, pairs: args.flag(.pairs),
                       subjects: args.string(.subjects))
    }

    /// The summary, subject and pair lines (JSON), or the table (text).
    static func write(_ summary: ValidationSummary, _ o: Options, _ mode: OutputMode, _ ctx: CommandContext) {
        switch mode {
        case .json:
            ctx.stdout.line(summary.summaryJSON(criteria: o.criteria, maxGrade: o.maxGrade).serialized)
            for line in summary.subjectLines { ctx.stdout.line(line.serialized) }
            if o.pairs { for line in summary.pairLines { ctx.stdout.line(line.serialized) } }
        case .text:
            for line in summary.tableLines(criteria: o.criteria, maxGrade: o.maxGrade) { ctx.stdout.line(line) }
            if o.pairs {
                for p in summary.paired.pairs {
                    ctx.stdout.line("\(p.subject)  \(p.device.origin)  device \(p.device.systolic)/\(p.device.diastolic)  reference "
                                    + "\(ValidationSummary.mmHg(p.referenceSystolic))/\(ValidationSummary.mmHg(p.referenceDiastolic))")
                }
            }
        }
        ctx.stdout.flush()
    }

    /// Reports what could not be used and decides the status (64 and 66 were thrown before).
    static func status(_ summary: ValidationSummary, _ inputs: [ValidationInput], _ subjects: ValidationSubjects?, _ o: Options,
                       _ ctx: CommandContext) -> ExitStatus {
        for line in inputs.flatMap(\.rejected) + (subjects?.rejected ?? []) { ctx.diagnose(line) }
        for problem in summary.paired.problems { ctx.diagnose(problem.description) }
        let failures = inputs.reduce(0) { $0 + $1.cuffFailures }
        if failures > 0 { ctx.note("validate: \(failures) cuff failure line(s) carry no reading") }
        if summary.paired.withoutSubject > 0 {
            ctx.note("validate: \(summary.paired.withoutSubject) reading(s) without a subject form the subject -")
        }
        if summary.paired.unpairedReference + summary.paired.unpairedDevice > 0 {
            ctx.note("validate: unpaired: \(summary.paired.unpairedReference) reference, \(summary.paired.unpairedDevice) device reading(s)")
        }
        if summary.excluded.implausible + summary.excluded.flaggedPairs > 0 {
            ctx.note("validate: excluded: \(summary.excluded.implausible) implausible reading(s), "
                     + "\(summary.excluded.flaggedPairs) pair(s) with a flagged reading (status)")
        }
        if !o.minimum.isStandard {
            ctx.note("validate: minimum \(o.minimum.subjects) subjects, \(o.minimum.pairs) pairs (--min-subjects), not ISO 81060-2's 85 and 255"
                     + (summary.population.checked ? "" : ": not an ISO panel, its population not checked"))
        }
        if inputs.contains(where: { !$0.rejected.isEmpty }) || !summary.paired.problems.isEmpty || !(subjects?.rejected.isEmpty ?? true) {
            return .dataError
        }
        switch summary.verdict(criteria: o.criteria, maxGrade: o.maxGrade) {
        case .notAssessable(let why):
            ctx.diagnose("validate: cannot be assessed: " + why.joined(separator: "; "))
            return .notAssessable
        case .fail(let why):
            ctx.note("validate: fails " + why.joined(separator: ", "))
            return .failedAfterRetries
        case .pass:
            return .success
        }
    }
}
