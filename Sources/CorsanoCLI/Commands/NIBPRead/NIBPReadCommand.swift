import CorsanoKit
import Foundation

/// `corsano nibp read`: the bracelet's own NIBP values as reading lines (docs/design.md
/// "Subcommands"); the work is `NIBPRead` in the core. JSON lines when stdout is not a terminal
/// (or `--json`), a table on one (or `--text`).
///
/// Exit: 0, 64 usage, 65/66 scenario, 69 bracelet unavailable (a bridge without readNIBP or
/// measureNIBP included, naming the method), 4 disconnected, 74 output.
enum NIBPReadCommand {
    static let flow = FlowName.nibpRead

    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        let mode = try OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal)
        let zone = { try CuffIngestCommand.zone(args, ctx.environment) }
        let request: NIBPRead.Request = args.flag(.spot) ? .spot
            : .stored(since: try args.bound(.since, zone: zone), until: try args.bound(.until, endOfDay: true, zone: zone))
        try NIBPRead.check(request)
        let subject = try SubjectOption.value(args)
        var bracelet = try BraceletConnector.prepare(args, ctx)
        try bracelet.readScenario()
        let session = try await BraceletSession.connect(bracelet.target, flow: flow)
        let readings: [CuffReading]
        do {
            readings = try await NIBPRead.run(request, session: session, subject: subject) {
                ctx.note("nibp read: bracelet \(session.identity.serial) is measuring (a spot measurement takes about 2 minutes)")
            }
        } catch {
            await session.bracelet.close()
            throw error
        }
        await session.bracelet.close()
        switch mode {
        case .json:
            for reading in readings { ctx.stdout.line(reading.jsonLine()) }
        case .text:
            for line in table(readings) { ctx.stdout.line(line) }
        }
        ctx.note("nibp read: \(readings.count) \(readings.count == 1 ? "value" : "values") from bracelet \(session.identity.serial)")
        return .success
    }

    /// The readings as a table: measured at, systolic/diastolic, pulse, quality, subject.
    static func table(_ readings: [CuffReading]) -> [String] {
        let rows = readings.map { r -> [String] in
            [r.measuredAt.map(RFC3339.format) ?? "-", "\(r.systolic)/\(r.diastolic)", r.pulse.map(String.init) ?? "-",
             r.provenance.first { $0.name == "quality" }?.rawJSON ?? "-", r.subject ?? "-"]
        }
        let header = ["measured at", "mmHg", "pulse", "quality", "subject"]
        let widths = header.indices.map { i in ([header] + rows).map { $0[i].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { i, cell in cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingTrailingSpaces
        }
    }
}

private extension String {
    var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
