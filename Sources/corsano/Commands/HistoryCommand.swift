import CorsanoKit
import Foundation

/// `corsano history [--json] [--since TIME] [--bracelet SERIAL]`: the audit log — each run's
/// bracelet, start and end, config, every reading fed with its attempt, index, verdict and
/// whether it was typed in, and the result (DESIGN "State store").
enum HistoryCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        let since = try args.instant("since")
        let (opened, path) = try StateLocation.openExisting(args, environment: ctx.environment)
        guard let store = opened else {
            // Reading history never creates a store; say why nothing follows (man: EXIT STATUS).
            ctx.diagnose("history: no runs recorded (no state store at \(path ?? "?"))")
            return .success
        }
        let runs = try AuditLog(store: store).runs(since: since, serial: args.string("bracelet"))
        if runs.isEmpty {
            ctx.diagnose("history: no runs recorded" + (since != nil || args.string("bracelet") != nil ? " that match" : "")
                         + " in \(path ?? "the in-memory store")")
        }
        let format = args.string("format") ?? (args.flag("json") ? "json" : "text")
        if format != "fhir" {
            for option in ["output-dir", "bundle", "subject", "subject-identifier"] where args.flag(option) {
                throw UsageError.conflict("--\(option) needs --format fhir")
            }
        }
        if format == "fhir" {
            let fhir = try FHIROutput(args)
            for run in runs {
                do {
                    fhir.add(fhir.exporter.resources(for: try FHIRRunInput(audit: run)), to: ctx.stdout)
                } catch let error as FHIRExportError {
                    ctx.diagnose("history: \(error)")
                    return .dataError
                }
            }
            try fhir.finish(stdout: ctx.stdout, request: "corsano history --format fhir", now: CommandContext.wallClock())
        } else if format == "json" {
            for run in runs { ctx.stdout.line(json(run).serialized) }
        } else {
            let localizer = Localizer(locale: LocaleResolver.resolve(lang: nil, environment: ctx.environment))
            for (i, run) in runs.enumerated() { ctx.stdout.write((i > 0 ? "\n" : "") + text(run, localizer)) }
        }
        return .success
    }

    /// One run as a JSON line; stored JSON (config, result, readings) is written as stored.
    static func json(_ run: AuditRun) -> JSONValue {
        .object([
            ("run", .string(run.run)), ("flow", .string(run.flow)),
            ("bracelet", .object([("serial", .string(run.bracelet.serial)), ("model", .string(run.bracelet.model)),
                                  ("firmware", .string(run.bracelet.firmware))])),
            ("startedAt", .string(run.startedAt)), ("endedAt", run.endedAt.map(JSONValue.string) ?? .null),
            ("config", .raw(run.configJSON)),
            ("readings", .array(run.readings.map { r in
                .object([("attempt", .int(r.attempt)), ("index", .int(r.index)), ("braceletAccepted", .bool(r.accepted)),
                         ("isManualEntry", .bool(r.manual)), ("reading", .raw(r.readingJSON))])
            })),
            ("result", run.resultJSON.map(JSONValue.raw) ?? .null),
        ])
    }

    /// One run as a few lines of text: header, result, then one line per reading fed.
    static func text(_ run: AuditRun, _ l: Localizer) -> String {
        var out = "\(run.startedAt)  \(run.flow)  bracelet \(run.bracelet.serial) (\(run.bracelet.model), "
            + "firmware \(run.bracelet.firmware))  run \(run.run)\n"
        let result = run.resultJSON.flatMap(parse).map { l.describe(result: $0) } ?? "did not finish (killed)"
        out += "  " + l[.resultHeading, result] + (run.endedAt.map { "  (ended \($0))" } ?? "") + "\n"
        for r in run.readings {
            let reading = parse(r.readingJSON) ?? .null
            var line = "  \(r.attempt).\(r.index)  " + l.short(reading: reading) + "  "
                + l[r.accepted ? .verdictAccepted : .verdictRejected]
            if r.manual { line += "  " + l[.measurementTypedIn] }
            if let at = reading["measuredAt"]?.stringValue, !r.manual { line += "  measured \(at)" }
            out += line + "\n"
        }
        return out
    }

    /// Stored JSON text as a `JSONValue` (our own writing, so Foundation's parser suffices).
    static func parse(_ text: String) -> JSONValue? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])).map(value)
    }

    private static func value(_ any: Any) -> JSONValue {
        switch any {
        case let n as NSNumber where type(of: n) == type(of: NSNumber(value: true)): return .bool(n.boolValue)
        case let n as NSNumber: return n.doubleValue == n.doubleValue.rounded() ? .int(n.intValue) : .double(n.doubleValue)
        case let s as String: return .string(s)
        case let a as [Any]: return .array(a.map(value))
        case let o as [String: Any]: return .object(o.keys.sorted().map { ($0, value(o[$0] as Any)) })
        default: return .null
        }
    }
}
