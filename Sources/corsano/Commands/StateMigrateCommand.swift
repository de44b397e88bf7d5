import CorsanoKit
import Foundation

/// `corsano state migrate --from PATH.sqlite3 --to URI`: copies a state store (seen-set, plan
/// journal, audit log, profiles) into another, typically a SQLite file onto the lab's PostgreSQL
/// server (issue 16). Rows the target holds are kept, so a second run changes nothing.
enum StateMigrateCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        guard let from = try args.string("from").map({ try StateLocation.checked($0, option: "from") }) else {
            throw UsageError.missing("state migrate: --from is required")
        }
        guard let to = try args.string("to").map({ try StateLocation.checked($0, option: "to") }) else {
            throw UsageError.missing("state migrate: --to is required")
        }
        if from == to { throw UsageError.conflict("state migrate: --from and --to name the same store") }
        // The source is only read: a file that is not there is missing input (66), never created.
        if !PostgresURI.isPostgres(from) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: from, isDirectory: &isDirectory) else {
                throw InputError.cannotOpen(path: from, reason: "no such file")
            }
            if isDirectory.boolValue { throw InputError.cannotOpen(path: from, reason: "is a directory") }
        }
        let source = try StateLocation.open(path: from, ctx)
        let target = try StateLocation.open(path: to, ctx)
        let counts = try StoreMigration.copy(from: source, to: target)
        ctx.note("state migrate: \(source.location) -> \(target.location): \(counts.summary)")
        return .success
    }
}
