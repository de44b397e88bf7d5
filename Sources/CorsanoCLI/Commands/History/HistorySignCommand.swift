import CorsanoKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `corsano history sign --run ID --name NAME --meaning review|approval|responsibility`: appends
/// a signature record to the audit log (21 CFR 11.50): the typed name, the OS user, the
/// gateway, the time, the meaning and the hash of the run's records; prints it with the chain
/// head to keep elsewhere. 66 unknown run, 75 a run not finished, 65 a run that does not verify or
/// an approval of a run that did not succeed, 74 store or audit key. The same signature again
/// (name, meaning, run) appends nothing: 0, stderr "already signed at T".
enum HistorySignCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        // Its options (required, refused, a blank name) are the table's rules on `history sign`.
        guard let run = args.string(.run), let name = args.string(.name),
              let meaning = args.string(.meaning).flatMap(SignatureMeaning.init(rawValue:)) else { return .usage }
        let format = HistoryCommand.outputFormat(args, ctx)
        let store = try StateLocation.open(args, ctx)
        let key = try AuditKeyFile.forAppending(args, ctx, store: store)
        let log = AuditLog(store: store, gateway: try GatewayOptions.gateway(args, environment: ctx.environment), key: key)
        // history's --gateway filters; for sign it names this gateway (else CORSANO_GATEWAY, else the host name).
        let (record, repeated) = try log.sign(run: run, name: name, osUser: osUser(), meaning: meaning, at: CommandContext.wallClock())
        if repeated { ctx.note("history sign: run \(run): already signed at \(HistoryCommand.wholeSeconds(record.at)) by \(name) (\(meaning.rawValue)); nothing appended") }
        let chainHead = try store.auditChainHead()
        let head = AuditChain.shortHead(chainHead?.hash ?? "")
        if format == "json" {
            var json = record.json
            if case .object(var members) = json { members.insert(("signs", .string(run)), at: 1); members.append(("head", .string(head))); json = .object(members) }
            ctx.stdout.line(json.serialized)
        } else {
            ctx.writeText("run \(run): " + HistoryCommand.signatureLine(record), on: ctx.stdout, indent: "  ")
            ctx.writeText("audit chain head \(AuditChain.keptHead(record: Int(chainHead?.seq ?? 0), hash: chainHead?.hash ?? ""))", on: ctx.stdout)
        }
        return .success
    }

    /// The OS user running this process (getpwuid(3)), else its uid.
    static func osUser() -> String {
        let uid = geteuid()
        if let entry = getpwuid(uid), let name = entry.pointee.pw_name { return String(cString: name) }
        return "uid \(uid)"
    }
}
