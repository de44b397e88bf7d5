import CorsanoKit

/// One REPL session: the bracelet chosen by `connect`, the queued cuff readings, the state-store
/// choice of `corsano repl`, and how one line runs. Table commands are parsed by the same
/// `ArgumentParser` and run by the same handlers (`CommandSpec.action`) as on the command line, with
/// the session's bracelet and state options filled in where the line gives none.
final class REPLSession: @unchecked Sendable {
    /// `connect URI`, else `corsano repl --bracelet`, else nil (the command's own default).
    var braceletURI: String?
    /// The serial of the session's bracelet once a session command reached it (`connect`,
    /// `status`, `profile`): the prompt shows it, as bluetoothctl shows its device.
    var serial: String?
    /// `corsano repl --bail`: a `source`d file stops at its first failing line.
    let bail: Bool
    /// How many `source` commands are running, one inside the other.
    var sourceDepth = 0
    /// True once a signal asked a scripted session to stop (a `source`d file stops too).
    var stopRequested: @Sendable () -> Bool = { false }
    /// `corsano repl`'s own options (`--state FILE` / `--no-state` among them): the session's
    /// store, supplied to every command that takes a store where its line names none.
    let replOptions: ParsedCommand
    let cuffQueue = CuffQueue()
    /// `cuff connect MAC [--adapter NAME]`: the Bluetooth cuff later bp-init lines read.
    var cuff: (address: String, adapter: String?)?
    /// Set by `quit`.
    private(set) var quitRequested = false

    private var sessionStore: (any StateStore)?

    /// The in-memory store of a `--no-state` session, made on first use.
    func memoryStore() throws -> any StateStore {
        if let sessionStore { return sessionStore }
        let store = try SQLiteStore(path: nil)
        sessionStore = store
        return store
    }

    /// `corsano [SERIAL]> ` once the session's bracelet is known, else `corsano> `.
    var prompt: String { serial.map { "corsano [\($0)]> " } ?? "corsano> " }

    /// Ends the session after the current line (`quit`).
    func quit() { quitRequested = true }

    init(options: ParsedCommand) {
        braceletURI = options.given(.bracelet)
        bail = options.flag(.bail)
        replOptions = options
    }

    /// How a line that starts a flow gets its cuff readings while it runs.
    enum CuffFeed {
        /// Send what is queued, then end the input (scripted sessions).
        case queueOnly
        /// Send what is queued and keep the pipe open for readings typed during the flow.
        case queueThenTyped((CuffPipe) -> Void)
    }

    /// Runs one line's words. - Throws: whatever the command throws (the caller reports it).
    func run(_ words: [String], _ ctx: CommandContext, feed: CuffFeed) async throws -> ExitStatus {
        guard let first = words.first else { return .success }
        if let status = try await runSessionCommand(words, ctx) { return status }
        if first == "repl" { throw UsageError.conflict("repl: already in the REPL") }
        let environment = ctx.environment
        var parsed = try ArgumentParser.parse(words, environment: environment)
        if let answered = CommandRunner.answerGlobal(parsed, CommandRunner.context(for: parsed, ctx.forText)) { return answered }
        if parsed.spec.words == ["help"] { return try help(parsed.operands, ctx.forText) }
        // Text for a person never goes to a standard output that carries JSON lines.
        let ctx = CommandRunner.context(for: parsed, parsed.spec.words == ["completion"] || parsed.flag(.text) ? ctx.forText : ctx)
        try refuseStandardInput(parsed)
        // The line is parsed once; the session's bracelet and store are typed overrides (never
        // words appended to the line, issue 23), where the line gives none.
        if let uri = braceletURI, case .uri? = parsed.spec.option(.bracelet)?.value { parsed.supply(.bracelet, uri) }
        if parsed.spec.option(.state) != nil, parsed.given(.state) == nil, !parsed.flag(.noState) {
            if replOptions.flag(.noState) { parsed.supply(.noState, "") } else if let state = replOptions.given(.state) { parsed.supply(.state, state) }
        }
        try InputCheck.check(parsed)  // 66 before the handler opens a store (74) or reaches a bracelet (69)
        guard let handler = parsed.spec.handler else {
            throw UsageError.conflict("\(parsed.spec.name): not available in this build")
        }
        guard parsed.spec.words == ["bp-init"], parsed.string(.cuff) == nil, parsed.string(.cuffCmd) == nil else {
            return try await handler(parsed, ctx)
        }
        if let cuff {
            parsed.supply(.cuff, CuffLinkOptions.scheme + cuff.address)
            if let adapter = cuff.adapter { parsed.supply(.adapter, adapter) }
            return try await handler(parsed, ctx)
        }
        let pipe = try cuffQueue.handOff()
        defer { pipe.close() }
        switch feed {
        case .queueOnly: pipe.endInput()
        case .queueThenTyped(let attach): attach(pipe)
        }
        parsed.supply(.cuff, pipe.path)
        return try await handler(parsed, ctx)
    }

    /// The REPL owns standard input: a command may not read it.
    private func refuseStandardInput(_ parsed: ParsedCommand) throws {
        let name = parsed.spec.name
        if parsed.spec.operandKind == .path, parsed.operands.isEmpty || parsed.operands.contains("-") {
            throw UsageError.missing("\(name): in the REPL, name the input FILE (standard input is the REPL's)")
        }
        if parsed.string(.cuff) == "-" {
            throw UsageError.badValue(option: "cuff", value: "-", expected: "a FILE in the REPL (standard input is the REPL's); or queue readings with 'cuff add'")
        }
        for option in parsed.spec.options where option.value == .path && parsed.string(option.key) == "-" {
            throw UsageError.badValue(option: option.name, value: "-", expected: "a FILE in the REPL (standard input is the REPL's)")
        }
    }

    private func help(_ operands: [String], _ ctx: CommandContext) throws -> ExitStatus {
        guard !operands.isEmpty else {
            ctx.stdout.write(REPLGrammar.overview(layout: HelpRenderer.layout(for: ctx.stdout, ctx)))
            return .success
        }
        if operands.count == 1, let group = HelpRenderer.group(operands[0], inREPL: true, layout: HelpRenderer.layout(for: ctx.stdout, ctx)) {
            ctx.stdout.write(group)
            return .success
        }
        guard let (spec, used) = CommandTable.lookup(operands, in: REPLGrammar.commands), used == operands.count else {
            throw UsageError.unknownCommand(operands.joined(separator: " "))
        }
        ctx.writeHelp(spec)
        return .success
    }
}
