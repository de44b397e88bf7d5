import CorsanoKit

/// `corsano report --kind certificate|history`: one self-contained HTML document from the audit
/// log (docs/design.md "Export"), to `--output FILE` (written whole, then renamed into
/// place) or to stdout when it is a file or a pipe (at a terminal: 64). The document is in the
/// `--lang` / LC_* locale. 66 for a run or bracelet the store does not hold, or no store. Each run
/// and signature shown is checked against the audit chain (docs/design.md "Audit chain"): one
/// that does not verify is 65 unless `--print-unverified` prints it marked NOT VERIFIED on every
/// page; without the audit key the document says "hashes only, HMAC not checked".
enum ReportCommand {
    /// What a report needs from the command line alone (64 before the store opens).
    static let rules: [OptionRule] = [
        .requiresValue(.run, .kind, [ReportKind.certificate.rawValue]),
        .requiresValue(.due, .kind, [ReportKind.history.rawValue]),
        .check { args in
            switch ReportKind(rawValue: args.valueOrDefault(.kind) ?? "") ?? .certificate {
            case .certificate where !args.flag(.run) && !args.flag(.bracelet):
                throw UsageError.missing("report --kind certificate needs --run ID or --bracelet SERIAL")
            case .history where !args.flag(.bracelet):
                throw UsageError.missing("report --kind history needs --bracelet SERIAL")
            default: break
            }
        },
    ]

    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        // A document, not terminal text: 10 KB of HTML on a screen helps nobody (docs/design.md "Export").
        if args.string(.output) == nil && ctx.stdoutIsTerminal {
            throw UsageError.missing("report writes HTML; use --output FILE or a pipe")
        }
        let kind = ReportKind(rawValue: args.string(.kind) ?? "") ?? .certificate
        let runID = args.string(.run), serial = args.string(.bracelet)
        let categories = BPCategories(rawValue: args.string(.categories) ?? "") ?? .default
        let paper = PaperSize(rawValue: args.string(.paper) ?? "") ?? .default
        let due = try args.integer(.due)
        let (opened, path) = try StateLocation.openExisting(args, environment: ctx.environment, note: { ctx.note("report: " + $0) },
                                                            diagnostics: ctx.diagnostics, bounds: ctx.storeBounds)
        guard let store = opened else {
            throw InputError.cannotOpen(path: path ?? "?", reason: "no state store there; a report needs the audit log (check --state or CORSANO_STATE)")
        }
        let log = AuditLog(store: store)
        let localizer = EventSinks.localizer(args, ctx)
        let now = CommandContext.wallClock(), version = HelpRenderer.version
        // Never creates a key; without one the hashes alone are checked, and the document says so.
        let verification = try store.auditVerify(key: try AuditKeyFile.forReading(args, ctx, store: store, command: "report"))
        let head = try store.auditChainHead().map { AuditChain.keptHead(record: Int($0.seq), hash: $0.hash) }
        let html: String
        switch kind {
        case .certificate:
            var certificate = try log.certificate(run: runID, bracelet: serial, chainHead: head, categories: categories,
                                                  paper: paper, issued: now, version: version)
            certificate.verification = ReportVerification(verification, shown: [certificate.run.run] + certificate.signatures.map(\.record))
            try refuseUnverified(certificate.verification, what: "run \(certificate.run.run)", args, ctx)
            html = certificate.html(localizer)
        case .history:
            var history = try log.history(bracelet: serial ?? "", dueDays: due, categories: categories, paper: paper, issued: now,
                                          version: version)
            history.verification = ReportVerification(verification, shown: history.runs.map(\.run))
            try refuseUnverified(history.verification, what: "a run on bracelet \(serial ?? "")", args, ctx)
            html = history.html(localizer)
        }
        if let output = args.string(.output) {
            let file = try OutputFile.createWhole(output)
            file.writer.write(html)
            try OutputFile.commit(file)
        } else {
            ctx.stdout.write(html)
        }
        return .success
    }

    /// A report of records that do not verify is not printed as if they did (65), unless
    /// `--print-unverified` asks for it marked; then stderr says so too.
    private static func refuseUnverified(_ verification: ReportVerification, what: String, _ args: ParsedCommand, _ ctx: CommandContext) throws {
        guard case .notVerified(let why) = verification else { return }
        guard args.flag(.printUnverified) else { throw ReportUnverified(what: what, why: why) }
        ctx.note("report: \(what) does not verify against the audit chain (\(why)); printed marked NOT VERIFIED on every page")
    }
}

/// A report would show records that do not verify against the audit chain (exit 65).
struct ReportUnverified: DiagnosticError {
    var what: String
    var why: String

    var message: String {
        "report: \(what) does not verify against the audit chain (\(why)); nothing written: corsano history --verify names what changed "
            + "(--print-unverified prints it marked NOT VERIFIED)"
    }
}
