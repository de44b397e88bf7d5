import CorsanoKit

/// `corsano report --kind certificate|history`: one self-contained HTML document from the audit
/// log (issue 36; docs/design.md "Export"), to `--output FILE` (written whole, then renamed into
/// place) or to stdout when it is a file or a pipe (at a terminal: 64). The document is in the `--lang` / LC_* locale. 66 for a run or bracelet
/// the store does not hold, or no store.
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
                                                            diagnostics: ctx.diagnostics)
        guard let store = opened else {
            throw InputError.cannotOpen(path: path ?? "?", reason: "no state store there; a report needs the audit log (check --state or CORSANO_STATE)")
        }
        let log = AuditLog(store: store)
        let localizer = EventSinks.localizer(args, ctx)
        let now = CommandContext.wallClock(), version = HelpRenderer.version
        let html: String
        switch kind {
        case .certificate:
            html = try log.certificate(run: runID, bracelet: serial, chainHead: try store.auditChainHead()?.hash, categories: categories,
                                       paper: paper, issued: now, version: version).html(localizer)
        case .history:
            html = try log.history(bracelet: serial ?? "", dueDays: due, categories: categories, paper: paper, issued: now,
                                   version: version).html(localizer)
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
}
