import CorsanoKit

/// `corsano fleet status`: every bracelet the state store knows, read only
/// (docs/design.md "Fleet status"): who holds it, its open calibration, its last bp-init run,
/// whether a recalibration is due, and what needs a person. Text at a terminal, JSON lines otherwise (one per bracelet, then
/// a summary); `--metrics FILE` also writes the counts as Prometheus text, atomically. Exit 0 when
/// nothing needs a person, 1 when something does, 66 without a store.
enum FleetStatusCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        let options = try FleetStatusOptions(args)
        let json = try OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal) == .json
        // Read only, whoever runs it: a writable SQLite file is opened mode=ro too.
        let (opened, path) = try StateLocation.openExisting(args, environment: ctx.environment, note: { ctx.note("fleet status: " + $0) },
                                                            diagnostics: ctx.diagnostics, readOnly: true)
        guard let store = opened else {
            // Fails closed as `history --due` does: a mistyped store is not "nothing needs a person".
            throw StateLocation.noStore(path, "fleet status cannot tell what needs a person")
        }
        let runs = try AuditLog(store: store).runs()
        let open = try store.calibrations(openOnly: true)
        let journal = try PlanJournal(store: store).openEntries()
        let readAt = CommandContext.wallClock()
        var fleet = FleetBracelet.check(runs: runs, open: open, journal: journal, days: options.days,
                                        now: options.now ?? readAt, probe: .system)
        if let serial = options.serial {
            fleet = fleet.filter { $0.bracelet.serial == serial }
            if fleet.isEmpty {
                throw InputError.cannotOpen(path: path ?? "?", reason: "no bracelet \(serial) in the state store (check --bracelet)")
            }
        }
        let counts = FleetCounts(fleet)
        if let file = options.metrics {
            let metrics = try OutputFile.createWhole(file, mode: 0o644)
            metrics.writer.write(FleetMetrics.render(fleet: fleet, runs: options.serial == nil ? runs
                                                     : runs.filter { $0.bracelet.serial == options.serial }))
            try OutputFile.commit(metrics)
        }
        if json {
            for bracelet in fleet { ctx.stdout.line(bracelet.json(readAt: readAt).serialized) }
            ctx.stdout.line(counts.json.serialized)
        } else {
            for (i, bracelet) in fleet.enumerated() {
                if i > 0 { ctx.stdout.write("\n") }
                for (n, line) in text(bracelet, readAt: readAt).enumerated() {
                    ctx.writeText(line, on: ctx.stdout, indent: n == 0 ? "    " : "      ", first: n == 0 ? "" : "  ")
                }
            }
            if !fleet.isEmpty { ctx.stdout.write("\n") }
            ctx.writeText(summary(counts), on: ctx.stdout)
        }
        return counts.needPerson == 0 ? .success : .failedAfterRetries
    }

    /// The summary line: `20 bracelets: 3 due, 1 overdue, 2 stuck, 5 held, 0 failed; 3 need a person`.
    static func summary(_ c: FleetCounts) -> String {
        "\(c.bracelets) bracelet\(c.bracelets == 1 ? "" : "s"): \(c.due) due, \(c.overdue) overdue, \(c.stuck) stuck, \(c.held) held, "
            + "\(c.failed) failed; " + (c.needPerson == 0 ? "nothing needs a person" : "\(c.needPerson) need\(c.needPerson == 1 ? "s" : "") a person")
    }

    /// One bracelet as text lines (the first names it; the rest are indented by the caller).
    static func text(_ b: FleetBracelet, readAt: Instant) -> [String] {
        let id = b.bracelet
        var lines = [id.serial + (id.model.isEmpty ? "" : "  \(id.model) \(id.firmware)") + (b.lastGateway.map { "  last gateway \($0)" } ?? "")
                     + (b.needsPerson.isEmpty ? "" : "  NEEDS A PERSON: " + b.needsPerson.map(\.rawValue).joined(separator: ", "))]
        switch b.journal {
        case .held(let e)?:
            lines.append("held by \(e.flow) on gateway \(e.owner.gateway) pid \(e.owner.pid) since \(stamp(e.openedAt))"
                         + (e.leaseRemaining.map { ", lease until \(stamp(readAt.adding(interval: $0)))" } ?? ""))
        case .stuck(let e, let why)?:
            lines.append("stuck: \(e.flow) on gateway \(e.owner.gateway) pid \(e.owner.pid) switched the plan at \(stamp(e.openedAt)) "
                         + "and \(why); plan \(e.previousPlan) to restore (a command of gateway \(e.owner.gateway) that reaches the "
                         + "bracelet does at once, another gateway once the lease ends or after corsano fleet release --gateway "
                         + "\(e.owner.gateway))")
        case nil: break
        }
        if let c = b.calibration {
            lines.append("calibration \(c.id) (\(c.protocolKind)): set \(c.set) of \(c.of)"
                         + (c.dueAt.map { ", due from \(stamp($0))" } ?? ", due now") + (c.expiresAt.map { ", expires \(stamp($0))" } ?? ""))
        }
        if let r = b.lastRun {
            let result = r.result ?? (r.planRestoredAt.map { "killed (plan restored at \(HistoryCommand.wholeSeconds($0)))" } ?? "not finished")
            lines.append("last bp-init: \(result) at \(HistoryCommand.wholeSeconds(r.at))"
                         + (r.gateway.map { " on \($0)" } ?? "") + " (run \(r.run))")
        }
        let due = b.recalibration
        let last = due.lastCalibratedAt.map { "last calibrated \(stamp($0))" + (due.days.map { " (\($0) days ago)" } ?? "") }
        lines.append((last ?? "never calibrated") + (b.due ? "; due now" : ""))
        return lines
    }

    private static func stamp(_ instant: Instant) -> String { HistoryCommand.wholeSeconds(instant) }
}

/// The options of `fleet status`, typed.
struct FleetStatusOptions {
    /// `--bracelet SERIAL`: only this bracelet.
    var serial: String?
    /// `--due DAYS`: the recalibration interval.
    var days: Int
    /// `--now TIME`: the instant judged at (a rehearsal); nil is wall time.
    var now: Instant?
    /// `--metrics FILE`: where the Prometheus text goes.
    var metrics: String?

    /// - Throws: `UsageError` naming the flag.
    init(_ args: ParsedCommand) throws {
        serial = args.string(.bracelet)
        if let serial, serial.isEmpty { throw UsageError.badValue(option: "bracelet", value: serial, expected: "a bracelet's serial") }
        days = try args.integer(.due) ?? CalibrationDue.defaultDays
        now = try args.instant(.now)
        metrics = args.string(.metrics)
    }
}
