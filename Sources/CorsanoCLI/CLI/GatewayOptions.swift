import CorsanoKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who this run is in the plan journal and the audit log: the gateway (`--gateway
/// ID`, env `CORSANO_GATEWAY`, else the host name) and this process, with the lease length
/// (`--lease`, default `PlanJournal.defaultLeaseSeconds`).
enum GatewayOptions {
    /// The ownership the flags and environment give. - Throws: `UsageError` naming the flag.
    static func ownership(_ args: ParsedCommand?, environment: [String: String]) throws -> PlanJournal.Ownership {
        var lease = PlanJournal.defaultLeaseSeconds
        if let args, let given = try args.seconds(.lease) {
            guard let seconds = given, seconds > 0 else {
                throw UsageError.badValue(option: "lease", value: args.given(.lease) ?? "0", expected: "a positive number of seconds")
            }
            lease = Double(seconds)
        }
        return PlanJournal.Ownership(owner: .current(gateway: try gateway(args, environment: environment)), leaseSeconds: lease)
    }

    /// `--gateway`, else `CORSANO_GATEWAY`, else the host name.
    static func gateway(_ args: ParsedCommand?, environment: [String: String]) throws -> String {
        if let name = args?.string(.gateway), !name.isEmpty { return name }
        if let name = environment[EnvironmentVariable.gateway.rawValue], !name.isEmpty { return name }
        return hostName()
    }

    /// Who runs this command's flow: `--operator NAME`, else the OS user; recorded in
    /// the audit log's run config and shown on calibration certificates.
    static func operatorName(_ args: ParsedCommand) -> String {
        if let name = args.string(.operatorName), !name.trimmingCharacters(in: .whitespaces).isEmpty { return name }
        return HistorySignCommand.osUser()
    }

    /// This machine's host name (gethostname(2)); `localhost` when it has none.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }
}
