import CorsanoKit
#if canImport(Glibc)
import Glibc
#endif

/// `corsano replay-filter [FILE...]`: the host rules 2-4 as a pipeline stage (docs/design.md
/// "Host-side cuff rules"; issue 3). Kept lines go to stdout byte for byte; drops are reported on stderr.
enum ReplayFilterCommand {
    static func run(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> ExitStatus {
        // SIGINT/SIGTERM/SIGHUP: stop reading, commit, write what is decided and the counts.
        let (signals, interrupt) = SignalHandling.installInterruptingReads()
        defer { signals.uninstall() }
        let options = try ReplayFilterOptions(args)
        // Precedence (docs/design.md "Exit status"): usage 64, then missing input 66, then I/O 74.
        let inputs = try InputFile.openAll(args.operands, diagnostics: ctx.diagnostics)
        defer { inputs.forEach { $0.close() } }
        let seen: any SeenSet
        if let path = try StateLocation.path(args, environment: ctx.environment) {
            let store = try StateLocation.open(path: path, ctx)
            if options.durability != .full { try store.setDurability(options.durability) }
            seen = try store.seenSet(scope: options.scope)
        } else {
            seen = InMemorySeenSet(expectedKeys: expectedLines(inputs))
        }
        // A stop must not wait on the store (a claim waiting on another writer's lock, a server
        // gone quiet): the running statement is cancelled, and its batch is neither written nor claimed.
        let stopWaiting = seen.interrupter
        if let stopWaiting { signals.onSignal(stopWaiting) }
        ctx.diagnostics.info(.filter, "host rules: \(options.rules.described); seen-set scope \(options.scope); "
                             + "commits per \(options.batch.bytes) bytes of kept lines or \(Int(options.batch.seconds * 1000)) ms, "
                             + "durability \(options.durability.rawValue) (\(options.durability.described))")
        let rejects = try options.rejectsPath.map(OutputFile.create)
        var pass = ReplayFilterPass(filter: ReplayFilter(rules: options.rules, seen: seen),
                                    options: options, ctx: ctx, rejects: rejects, interrupt: interrupt)
        InputFile.announceTerminalInput(inputs, command: "replay-filter", ctx)
        // A reader closing stdout (`| head -1`) stops the run as a signal does instead of ending
        // it at once, so the claims of the lines it never got are given back; 141 after.
        let outcome = await OutputWriter.whileFlowRuns(cancel: { interrupt.fire(); stopWaiting?() }) {
            Result {
                for input in inputs where try pass.process(input) == .stop { break }
                try pass.finish()
            }
        }
        if case .failure(is StoreError) = outcome, let stopped = signals.exitStatus ?? (OutputWriter.readerGone ? .brokenPipe : nil) {
            // The stop cancelled a claim: not a store failure. What was written stays claimed.
            if stopped != .brokenPipe {
                ctx.note("replay-filter: stopped while the seen-set waited on the state store; "
                         + "the lines of that batch were neither written nor claimed")
                ctx.note("replay-filter: " + pass.counts.summary)
            }
            return stopped
        }
        // A store or output lost mid-run (74) still ends with the counts of what was done.
        if case .failure(let error as ExitStatusProviding) = outcome, error.exitStatus == .ioError {
            ctx.note("replay-filter: " + pass.counts.summary)
        }
        try outcome.get()
        return signals.exitStatus ?? pass.status
    }
}

extension ReplayFilterCommand {
    /// About how many lines the regular files among `inputs` hold (128 bytes a line; at most
    /// 2^21), to size a per-run seen-set up front; pipes count nothing.
    static func expectedLines(_ inputs: [InputFile]) -> Int {
        var bytes = 0
        for input in inputs {
            var info = stat()
            if fstat(input.fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { bytes += Int(info.st_size) }
        }
        return min(bytes / 128, 1 << 21)
    }
}

/// The options of `replay-filter`, typed.
struct ReplayFilterOptions {
    var rules: HostRules
    /// Fixed judging instant; nil = wall time when each reading arrives.
    var now: Instant?
    var first: Bool
    var strict: Bool
    var scope: String
    var rejectsPath: String?
    /// When the seen-set's claims are committed (docs/design.md "State store").
    var batch: CommitBatch
    /// How durable each commit is before its lines are written.
    var durability: StoreDurability

    /// - Throws: `UsageError` naming the flag.
    init(_ args: ParsedCommand) throws {
        let backdate = try args.seconds(.backdate)
        let maxAge = try args.seconds(.maxReadingAge)
        rules = HostRules(requestedAt: try args.instant(.requestedAt))
        if case .some(.some(let seconds)) = backdate { rules.backdate = Double(seconds) }
        if let maxAge { rules.maxReadingAge = maxAge.map(Double.init) }
        now = try args.instant(.now)
        first = args.flag(.first)
        strict = args.flag(.strict)
        scope = args.string(.scope) ?? StoreSeenSet.defaultScope
        if scope.isEmpty { throw UsageError.badValue(option: "scope", value: scope, expected: "a non-empty name") }
        rejectsPath = args.string(.rejects)
        batch = CommitBatch(bytes: try args.integer(.commitBytes) ?? CommitBatch.standard.bytes,
                            seconds: try args.integer(.commitInterval).map { Double($0) / 1000 } ?? CommitBatch.standard.seconds)
        durability = args.string(.durability).flatMap(StoreDurability.init(rawValue:)) ?? .full
    }
}
