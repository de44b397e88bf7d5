import CorsanoKit
import Foundation

/// `corsano state migrate --from PATH.sqlite3 --to URI`: copies a state store (seen-set, plan
/// journal, audit log, profiles) into another, typically a SQLite file onto the lab's PostgreSQL
/// server. Rows the target holds are kept, so a second run changes nothing.
enum StateMigrateCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        // --from and --to are required: the parser refuses a line without them.
        guard let from = try args.string(.from).map({ try StateLocation.checked($0, option: "from") }),
              let to = try args.string(.to).map({ try StateLocation.checked($0, option: "to") }) else { return .usage }
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
        // The source's chain is checked before anything is copied and the target's after:
        // a store edited on the way is not carried on as if it were sound. A keyed source needs its
        // key (a forgery that stripped the MACs only shows under it), and a chain none of whose
        // records carries an HMAC is not carried on without one (corsano keys every record it writes).
        let key = try AuditKeyFile.forVerifying(args, ctx)
        if key == nil, let storeKeyID = try source.auditKeyID() {
            throw AuditKeyMismatch(storeKeyID: storeKeyID, offeredKeyID: nil,
                                   location: source.location + " (no key at \(AuditKeyFile.path(args, environment: ctx.environment)))")
        }
        if key == nil, let head = try source.auditChainHead(), head.mac == nil {
            throw AuditChainUnkeyed(location: source.location, records: head.seq)
        }
        let before = try source.auditVerify(key: key)
        if let failure = before.failure {
            ctx.diagnose("state migrate: \(source.location): audit chain broken at record \(failure.seq) (run \(failure.run)): \(failure.reason); nothing copied")
            return .dataError
        }
        let counts = try StoreMigration.copy(from: source, to: target, key: try AuditKeyFile.forAppending(args, ctx, store: target))
        let after = try target.auditVerify(key: try AuditKeyFile.forVerifying(args, ctx))
        if let failure = after.failure {
            ctx.diagnose("state migrate: \(target.location): audit chain does not verify after the copy at record \(failure.seq) "
                         + "(run \(failure.run)): \(failure.reason)")
            return .dataError
        }
        ctx.note("state migrate: \(source.location) -> \(target.location): \(counts.summary); audit chain verified: "
                 + "\(after.records) records, head \(AuditChain.keptHead(record: after.records, hash: after.head)); the source's head "
                 + "\(AuditChain.keptHead(record: before.records, hash: before.head)) verifies on it (--expect)")
        return .success
    }
}
