import CorsanoKit

/// `corsano fleet release --gateway NAME`: ends the leases of a dead gateway's plan-journal
/// entries, never deleting one, so that its bracelets are repaired at once by the next command
/// that reaches each on another gateway instead of after their leases run out (docs/design.md
/// "Fleet status"). Refused (75) while an owner of those entries runs on this machine, unless
/// `--force`. One line per entry on stdout (JSON lines when piped); exit 66 without a store.
enum FleetReleaseCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        let json = try OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal) == .json
        let gateway = args.string(.gateway) ?? ""
        guard !gateway.isEmpty else { throw UsageError.badValue(option: "gateway", value: gateway, expected: "the gateway's name") }
        let (opened, path) = try StateLocation.openExisting(args, environment: ctx.environment, note: { ctx.note("fleet release: " + $0) },
                                                            diagnostics: ctx.diagnostics)
        guard let store = opened else { throw StateLocation.noStore(path) }
        switch try PlanJournal(store: store).release(gateway: gateway, force: args.flag(.force), probe: .system) {
        case .ownersRun(let running):
            for entry in running {
                ctx.diagnose("fleet release: bracelet \(entry.serial) is held by \(entry.flow) pid \(entry.owner.pid) of gateway \(gateway), "
                             + "which runs on this machine; left alone (stop it, or release with --force)")
            }
            return .notYet
        case .released(let entries, let expired):
            for entry in entries {
                if json {
                    ctx.stdout.line(JSONValue.object([
                        ("released", .string(entry.serial)), ("gateway", .string(gateway)), ("pid", .int(Int(entry.owner.pid))),
                        ("flow", .string(entry.flow)), ("openedAt", .string(HistoryCommand.wholeSeconds(entry.openedAt))),
                        ("previousPlan", .string(entry.previousPlan.name)),
                    ]).serialized)
                } else {
                    ctx.writeText("bracelet \(entry.serial): lease of \(entry.flow) pid \(entry.owner.pid) ended; plan \(entry.previousPlan) "
                                  + "is restored by the next command that reaches it", on: ctx.stdout)
                }
            }
            ctx.note("fleet release: gateway \(gateway): \(entries.count) journal entr\(entries.count == 1 ? "y" : "ies") released "
                     + "(\(expired) with a lease still running), none deleted")
            return .success
        }
    }
}
