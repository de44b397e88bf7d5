import CorsanoKit
import Foundation

/// `corsano history`: the audit log — each run's bracelet, start and end (whole seconds), config,
/// every reading fed with its attempt, index, verdict and whether it was typed in, and the
/// result (docs/design.md "State store"); text on a terminal, JSON lines otherwise. `--due DAYS` lists
/// the bracelets due for recalibration and exits 1 when any is, for a lab's cron job.
enum HistoryCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        if args.operands.first == "sign" { return try await HistorySignCommand.run(args, ctx) }
        // Option rules (sign's options, --now needs --due, the FHIR options need --format fhir):
        // the table's, checked before this runs.
        let since = try args.bound(.since) { try CuffIngestCommand.zone(args, ctx.environment) }
        let format = outputFormat(args, ctx)
        let limit = try args.integer(.limit), due = try args.integer(.due)
        let now = try args.instant(.now)
        // --output-dir is made before the store is read.
        let fhir = format == "fhir" ? try FHIROutput(args) : nil
        if args.flag(.verify) { return try verify(args, ctx, format: format) }
        let (opened, path) = try StateLocation.openExisting(args, environment: ctx.environment, note: { ctx.note("history: " + $0) },
                                                            diagnostics: ctx.diagnostics, bounds: ctx.storeBounds)
        var runs: [AuditRun] = []
        if let store = opened {
            runs = try AuditLog(store: store).runs(since: since, serial: args.string(.bracelet), gateway: args.string(.gateway))
            if runs.isEmpty {
                ctx.note("history: no runs recorded" + (since != nil || args.string(.bracelet) != nil || args.string(.gateway) != nil ? " that match" : "")
                             + " in \(path ?? "the in-memory store")")
            }
        } else if due != nil {
            // A check fails closed: a mistyped --state, an unset CORSANO_STATE on a cron
            // host or a database without corsano's tables must not pass as "nothing is due".
            let what = PostgresURI.isPostgres(path ?? "") ? "the database has no corsano tables" : "no state store there"
            throw InputError.cannotOpen(path: path ?? "?", reason: what + "; --due cannot tell whether a bracelet is due "
                                        + "(check --state or CORSANO_STATE)")
        } else {
            // Reading history never creates a store; say why nothing follows (man: EXIT STATUS).
            // An export of nothing is still an export: an empty Bundle, a manifest with no files.
            ctx.note("history: no runs recorded (no state store at \(path ?? "?"))")
            if fhir == nil { return .success }
        }
        if let due {
            let open = try opened?.calibrations(openOnly: true) ?? []
            return dueReport(runs, open: open, days: due, now: now ?? CommandContext.wallClock(), format: format, args, ctx)
        }
        // What is printed is checked against the audit chain (docs/design.md "Audit chain"): each
        // run and signature says whether it verifies; without the key, by hashes only.
        let verification = try opened.map { try $0.auditVerify(key: try AuditKeyFile.forReading(args, ctx, store: $0, command: "history")) }
        let check = RunCheck(verification: verification)
        // A killed run whose plan was repaired is shown with the record that says so.
        let restores = runs.planRestores
        // A signature is shown with the run it signs, not as a run of its own.
        let signatures = runs.signatures
        runs.removeAll { $0.signature != nil }
        if let limit, runs.count > limit { runs.removeFirst(runs.count - limit) }
        if let fhir {
            // FHIR carries no mark a receiving system would show: a run or signature that does not
            // verify is not exported (65) rather than passed on as sound.
            for run in runs {
                let shown = [run.run] + (signatures[run.run] ?? []).map(\.record)
                if let why = shown.lazy.compactMap({ check.verification?.whyNotVerified($0) }).first {
                    ctx.diagnose("history: run \(run.run) does not verify against the audit chain (\(why)); no FHIR written: "
                                 + "corsano history --verify names what changed")
                    return .dataError
                }
            }
            for run in runs where run.planRestore == nil {
                do {
                    fhir.add(fhir.exporter.resources(for: try FHIRRunInput(audit: run, planRestored: restores[run.run])), to: ctx.stdout)
                    fhir.add((signatures[run.run] ?? []).map(fhir.exporter.provenance(for:)), to: ctx.stdout)
                } catch let error as FHIRExportError {
                    ctx.diagnose("history: \(error)")
                    return .dataError
                }
            }
            try fhir.finish(stdout: ctx.stdout, request: "corsano history --format fhir", now: CommandContext.wallClock())
        } else if format == "json" {
            for run in runs {
                ctx.stdout.line(json(run, planRestored: restores[run.run], signatures: signatures[run.run] ?? [], check: check).serialized)
            }
        } else {
            let localizer = EventSinks.localizer(args, ctx)
            for (i, run) in runs.enumerated() {
                if i > 0 { ctx.stdout.write("\n") }
                writeLines(text(run, localizer, planRestored: restores[run.run], signatures: signatures[run.run] ?? [], check: check), localizer, ctx)
            }
        }
        return .success
    }

    /// `--format`, `--json` or `--text` (the table's rules make them agree), else text on a
    /// terminal and JSON lines otherwise, as every command that writes both.
    static func outputFormat(_ args: ParsedCommand, _ ctx: CommandContext) -> String {
        args.given(.format) ?? (args.flag(.json) ? "json" : args.flag(.text) ? "text" : ctx.stdoutIsTerminal ? "text" : "json")
    }

    /// `--due DAYS`: the bracelets due for recalibration, one line each; exit 1 when any is.
    /// Each open multi-set calibration's next set follows: exit 1 when it is due now too.
    static func dueReport(_ runs: [AuditRun], open: [MultiSetCalibration], days: Int, now: Instant, format: String,
                          _ args: ParsedCommand, _ ctx: CommandContext) -> ExitStatus {
        // A bracelet mid-calibration is told where its calibration stands (its next-set line), not
        // that it is due for recalibration.
        let calibrating = Set(open.filter { $0.status == .open }.map(\.serial))
        let checked = CalibrationDue.check(runs, days: days, now: now).filter { !calibrating.contains($0.bracelet.serial) }
        let due = checked.filter(\.due)
        let localizer = EventSinks.localizer(args, ctx)
        for entry in due {
            if format == "json" {
                ctx.stdout.line(JSONValue.object([
                    ("kind", .string("recalibration")), ("bracelet", entry.bracelet.json),
                    ("lastCalibratedAt", entry.lastCalibratedAt.map { .string(wholeSeconds($0)) } ?? .null),
                    ("days", entry.days.map(JSONValue.int) ?? .null), ("due", .bool(true)), ("status", .string("recalibrationDue")),
                ]).serialized)
            } else if let at = entry.lastCalibratedAt, let days = entry.days {
                writeLines([localizer[.historyDue, count: days, entry.bracelet.serial, wholeSeconds(at)]], localizer, ctx)
            } else {
                writeLines([localizer[.historyNeverCalibrated, entry.bracelet.serial]], localizer, ctx)
            }
        }
        let sets = NextSetDue.check(open, runs: runs, now: now)
        for next in sets {
            if format == "json" {
                ctx.stdout.line(JSONValue.object([
                    ("kind", .string("nextSet")), ("bracelet", next.bracelet.json), ("calibration", .string(next.calibration)),
                    ("set", .int(next.set)), ("of", .int(next.of)), ("dueAt", .string(wholeSeconds(next.dueAt))), ("due", .bool(next.due)),
                    ("status", .string(next.status.rawValue)),
                ]).serialized)
            } else {
                let (serial, at) = (next.bracelet.serial, wholeSeconds(next.dueAt))
                switch next.status {
                case .onSchedule: writeLines([localizer[.historyNextSet, serial, next.set, next.of, at]], localizer, ctx)
                case .setDue: writeLines([localizer[.historySetDue, serial, next.set, next.of, at]], localizer, ctx)
                case .expired:
                    writeLines([localizer[.historyCalibrationExpired, serial, wholeSeconds(next.expiresAt ?? next.dueAt), next.set, next.of]],
                               localizer, ctx)
                }
            }
        }
        let expired = sets.filter { $0.status == .expired }.count
        ctx.note("history: \(due.count) of \(checked.count) bracelets due for recalibration "
                     + "(no successful bp-init in the last \(days) days)"
                     + (sets.isEmpty ? "" : "; \(sets.filter { $0.status == .setDue }.count) of \(sets.count) open calibrations have a set due now"
                        + (expired == 0 ? "" : ", \(expired) expired")))
        return due.isEmpty && !sets.contains(where: \.due) ? .success : .failedAfterRetries
    }

    /// `instant` in RFC 3339 to the whole second (the audit log keeps the run clock's nanoseconds).
    static func wholeSeconds(_ instant: Instant) -> String {
        RFC3339.format(Instant(secondsSinceEpoch: instant.secondsSinceEpoch))
    }

    /// A stored RFC 3339 stamp to the whole second; as stored when it does not parse.
    static func wholeSeconds(_ stamp: String) -> String {
        RFC3339.parseInstant(stamp).map(wholeSeconds) ?? stamp
    }

    /// One run as a JSON line; stored JSON (config, result, readings) is written as stored. A
    /// killed run whose plan was later restored carries `planRestored` (`at`, `previousPlan`,
    /// `why`, `record`: the appended record's id); its `result` stays null: it never had one.
    static func json(_ run: AuditRun, planRestored: PlanRestoreRecord? = nil, signatures: [SignatureRecord] = [],
                     check: RunCheck = RunCheck(verification: nil)) -> JSONValue {
        var object = json(run)
        if !signatures.isEmpty, case .object(var members) = object {
            members.append(("signatures", .array(signatures.map { signature in
                var json = signature.json
                if case .object(var fields) = json {
                    fields[4] = ("at", .string(wholeSeconds(signature.at)))
                    if let verified = check.json(signature.record) { fields.append(("verified", verified)) }
                    json = .object(fields)
                }
                return json
            })))
            object = .object(members)
        }
        if let verified = check.json(run.run), case .object(var members) = object {
            members.append(("verified", verified))
            object = .object(members)
        }
        if let planRestored, case .object(var members) = object {
            members.append(("planRestored", .object([("at", .string(wholeSeconds(planRestored.at))),
                                                     ("previousPlan", .string(planRestored.previousPlan)),
                                                     ("why", .string(planRestored.why)), ("record", .string(planRestored.record))])))
            object = .object(members)
        }
        return object
    }

    private static func json(_ run: AuditRun) -> JSONValue {
        .object([
            ("run", .string(run.run)), ("flow", .string(run.flow)), ("gateway", run.gateway.map(JSONValue.string) ?? .null),
            ("bracelet", run.bracelet.json),
            ("startedAt", .string(wholeSeconds(run.startedAt))), ("endedAt", run.endedAt.map { .string(wholeSeconds($0)) } ?? .null),
            ("config", .raw(run.configJSON)),
            ("readings", .array(run.readings.map(\.record))),
            ("result", run.resultJSON.map(JSONValue.raw) ?? .null),
        ])
    }

    /// One run as a few lines of text (no newlines; `writeLines` marks and lays them out): header,
    /// result, then one line per reading fed, every word in `l`'s locale.
    static func text(_ run: AuditRun, _ l: Localizer, planRestored: PlanRestoreRecord? = nil, signatures: [SignatureRecord] = [],
                     check: RunCheck = RunCheck(verification: nil)) -> [String] {
        var header = l[.historyRunHeader, wholeSeconds(run.startedAt), run.flow, run.bracelet.serial, run.bracelet.model,
                       run.bracelet.firmware, run.run]
        if let gateway = run.gateway { header += "  " + l[.historyRunGateway, gateway] }
        var lines = [header]
        if let why = check.verification?.whyNotVerified(run.run) { lines.append("  " + l[.reportNotVerifiedMark] + ": " + TerminalText.escaped(why)) }
        var result = run.resultJSON.flatMap(parse).map { l.describe(result: $0) } ?? l[.historyNotFinished]
        if let record = run.planRestore {
            result = l[.historyPlanRestoreRecord, record.previousPlan, record.restoredRun ?? "-"]
        } else if let planRestored, run.resultJSON == nil {
            result = l[.historyKilledPlanRestored, planRestored.previousPlan, wholeSeconds(planRestored.at)]
        }
        lines.append("  " + l[.resultHeading, result] + (run.endedAt.map { "  " + l[.historyEnded, wholeSeconds($0)] } ?? ""))
        for r in run.readings {
            let reading = parse(r.readingJSON) ?? .null
            var line = "  \(r.attempt).\(r.index)  " + l.short(reading: reading) + "  "
                + l[r.accepted ? .verdictAccepted : .verdictRejected]
            if r.manual { line += "  " + l[.measurementTypedIn] }
            if let at = reading["measuredAt"]?.stringValue, !r.manual { line += "  " + l[.historyMeasured, at] }
            lines.append(line)
        }
        for signature in signatures {
            let why = check.verification?.whyNotVerified(signature.record)
            lines.append("  " + signatureLine(signature) + (why.map { "  " + l[.reportNotVerifiedMark] + ": " + TerminalText.escaped($0) } ?? ""))
        }
        return lines
    }

    /// Writes history's text `lines` on stdout: at a terminal through the one wrapper (a line's
    /// leading spaces kept on its first row, its later rows indented two more; right-to-left in
    /// such a locale), elsewhere as they are, each marked right-to-left (U+200F) where `l`'s
    /// locale is, so a pipe keeps one line per row.
    static func writeLines(_ lines: [String], _ l: Localizer, _ ctx: CommandContext) {
        guard ctx.isTerminal(ctx.stdout) else { return ctx.stdout.write(lines.map { mark(l) + $0 + "\n" }.joined()) }
        for line in lines {
            let body = line.drop(while: { $0 == " " })
            let lead = String(repeating: " ", count: line.count - body.count)
            ctx.writeText(String(body), on: ctx.stdout, indent: lead + "  ", first: lead, rightToLeft: l.locale.isRightToLeft)
        }
    }

    /// A signature as one line (21 CFR 11.50: printed name, date and time, meaning; also on a printout).
    static func signatureLine(_ s: SignatureRecord) -> String {
        let e = { (text: String) in TerminalText.escaped(text) }
        return "Signed (\(e(s.meaning))) by \(e(s.name)), OS user \(e(s.osUser))" + (s.gateway.isEmpty ? "" : " on \(e(s.gateway))")
            + " at \(e(wholeSeconds(s.at))); run hash \(e(AuditChain.shortHead(s.runHash)))"
    }

    /// `--verify [--expect [RECORD:]HEAD] [--hashes-only]`: walks the audit chain (docs/design.md
    /// "Audit chain"); 0 and `{"verified":true,"records":N,"head":H}` when it holds, 1 naming the
    /// first record that does not. With the key the chain must be keyed under it; a keyed store
    /// without its key is 74 (naming the key path) unless `--hashes-only` asks for the hashes alone
    /// (`"verified":"hashes-only"`). Never creates a key. `--expect` passes when the head kept is on
    /// the chain, saying how many records came after it.
    static func verify(_ args: ParsedCommand, _ ctx: CommandContext, format: String) throws -> ExitStatus {
        var expect: AuditChain.ExpectedHead?
        if let text = args.string(.expect) {
            guard let parsed = AuditChain.ExpectedHead(text) else {
                throw UsageError.badValue(option: "expect", value: text,
                                          expected: "the chain head kept elsewhere: RECORD:HEAD or HEAD, at least its first 12 hex digits")
            }
            expect = parsed
        }
        let hashesOnly = args.flag(.hashesOnly)
        let keyPath = AuditKeyFile.path(args, environment: ctx.environment)
        let key = hashesOnly ? nil : try AuditKeyFile.forVerifying(args, ctx)
        let (opened, path) = try StateLocation.openExisting(args, environment: ctx.environment, note: { ctx.note("history: " + $0) },
                                                            diagnostics: ctx.diagnostics, bounds: ctx.storeBounds)
        guard let store = opened else {
            throw InputError.cannotOpen(path: path ?? "?", reason: "no state store there; --verify has nothing to check (check --state or CORSANO_STATE)")
        }
        let result = try store.auditVerify(key: key, expect: expect)
        if key == nil, !hashesOnly, result.keyed, let storeKeyID = try store.auditKeyID() {
            // A keyed chain checked without its key proves nothing about who wrote it (man: EXIT STATUS 74).
            throw AuditKeyMismatch(storeKeyID: storeKeyID, offeredKeyID: nil,
                                   location: store.location + " (no key at \(keyPath); --hashes-only checks the hashes alone)")
        }
        if key == nil { ctx.note("history: hashes only, HMAC not checked" + (hashesOnly ? "" : " (no key at \(keyPath))")) }
        let head = AuditChain.shortHead(result.head)
        if format == "json" {
            let verified: JSONValue = !result.verified ? .bool(false) : key == nil ? .string("hashes-only") : .bool(true)
            var members: [(String, JSONValue)] = [("verified", verified), ("records", .int(result.records)), ("head", .string(head))]
            if key == nil { members.append(("hmac", .string("not checked (hashes only)"))) }
            if key != nil, result.unkeyedPrefix > 0 { members.append(("unkeyedPrefix", .int(result.unkeyedPrefix))) }
            if let expected = result.expected {
                members.append(("expect", .object([("record", .int(Int(expected.record))), ("after", .int(expected.after)),
                                                   ("migrated", .bool(expected.migrated))])))
            }
            if let failure = result.failure {
                members.append(("firstBad", .object([("record", .int(Int(failure.seq))), ("run", .string(failure.run)), ("reason", .string(failure.reason))])))
            }
            ctx.stdout.line(JSONValue.object(members).serialized)
        } else if result.verified {
            var line = "audit chain verified: \(result.records) records, head \(AuditChain.keptHead(record: result.records, hash: result.head))"
            if key == nil { line += "; hashes only, HMAC not checked" }
            if key != nil, result.unkeyedPrefix > 0 { line += "; the first \(result.unkeyedPrefix) records were written before the chain was keyed" }
            if let expected = result.expected {
                line += expected.migrated
                    ? "; the expected head is the source store's, copied in at record \(expected.record), \(expected.after) records after it"
                    : "; the expected head is record \(expected.record), \(expected.after) records after it"
            }
            ctx.writeText(line, on: ctx.stdout)
        }
        guard let failure = result.failure else { return .success }
        ctx.diagnose("history: audit chain broken at record \(failure.seq)" + (failure.run.isEmpty ? "" : " (run \(failure.run))")
                     + ": \(failure.reason)")
        return .failedAfterRetries
    }

    /// Whether each run and signature printed verifies against the audit chain (nil: no store, nothing to check).
    struct RunCheck {
        var verification: AuditChain.Verification?

        /// The `verified` member of a run or signature: false when it does not verify, true when it
        /// does with the HMAC checked, "hashes-only" without the key; nil when nothing was checked.
        func json(_ run: String) -> JSONValue? {
            guard let verification else { return nil }
            if !verification.runVerified(run) { return .bool(false) }
            return verification.hmacChecked ? .bool(true) : .string("hashes-only")
        }
    }

    /// What a text line starts with in `l`'s locale: U+200F RIGHT-TO-LEFT MARK in right-to-left
    /// locales, so bidi terminals take the line as right-to-left (docs/localization.md); else nothing.
    static func mark(_ l: Localizer) -> String { l.locale.isRightToLeft ? "\u{200F}" : "" }

    /// Stored JSON text as a `JSONValue`.
    static func parse(_ text: String) -> JSONValue? { try? JSONValue.parse(Array(text.utf8)) }
}
