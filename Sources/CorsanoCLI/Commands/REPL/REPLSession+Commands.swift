import CorsanoKit

/// The session commands, which exist only in the REPL: `connect`, `status`, `cuff add`, `quit`.
extension REPLSession {
    /// Runs `words` when they are a session command; nil when they are not one.
    /// - Throws: `UsageError`, `BraceletError`, `StoreError`.
    func runSessionCommand(_ words: [String], _ ctx: CommandContext) async throws -> ExitStatus? {
        guard let (spec, used) = CommandTable.lookup(words, in: REPLGrammar.sessionCommands),
              case .session(let run) = spec.action else { return nil }
        return try await run(self, Array(words.dropFirst(used)), ctx)
    }

    /// `operands` parsed by the grammar of session command `name`; nil when they ask for `--help`
    /// (written, before any operand is checked). Without `takesOperands` an operand is 64.
    /// - Throws: `UsageError`.
    func sessionArguments(_ name: String, _ operands: [String], _ ctx: CommandContext,
                          takesOperands: Bool = true) throws -> ParsedCommand? {
        let spec = REPLGrammar.session(name)
        let parsed = try ArgumentParser.parse(operands, as: spec, environment: ctx.environment)
        if parsed.flag(.help) { ctx.forText.writeHelp(spec); return nil }
        if !takesOperands, let first = parsed.operands.first { throw UsageError.unexpectedOperand(first, command: spec.name) }
        return parsed
    }

    /// `cuff add SYS/DIA PULSE [at TIME]`.
    func cuffAddCommand(_ operands: [String], _ ctx: CommandContext) throws -> ExitStatus {
        let reading = try CuffQueue.reading(operands, enteredAt: CommandContext.wallClock())
        cuffQueue.add(reading)
        let waiting = cuffQueue.queued.count
        REPLReply(reply: "cuff-add", fields: [("reading", REPLReply.json(reading)), ("queued", .int(waiting))],
                  text: ["queued \(Self.describe(reading)) (\(waiting) waiting for the next bp-init)"]).write(ctx)
        return .success
    }

    /// `cuff scan [--timeout S] [--adapter NAME]`.
    func cuffScanCommand(_ operands: [String], _ ctx: CommandContext) async throws -> ExitStatus {
        guard let parsed = try sessionArguments("cuff scan", operands, ctx, takesOperands: false) else { return .success }
        try await REPLCuffCommands.scan(parsed, ctx)
        return .success
    }

    /// `cuff connect MAC [--timeout S] [--adapter NAME] [--pair]`.
    func cuffConnectCommand(_ operands: [String], _ ctx: CommandContext) async throws -> ExitStatus {
        guard let parsed = try sessionArguments("cuff connect", operands, ctx) else { return .success }
        guard parsed.operands.count == 1 else {
            throw UsageError.missing("cuff connect: name one cuff address, e.g. cuff connect A0:9E:1A:12:34:56")
        }
        cuff = try await REPLCuffCommands.connect(parsed, ctx)
        return .success
    }

    /// `connect URI`.
    func connectCommand(_ operands: [String], _ ctx: CommandContext) async throws -> ExitStatus {
        guard let parsed = try sessionArguments("connect", operands, ctx) else { return .success }
        guard parsed.operands.count == 1 else { throw UsageError.missing("connect: name one bracelet URI, e.g. connect sim") }
        let uri = parsed.operands[0]
        let identity = try await onBracelet(["--bracelet", uri], ctx) { $0.identity }
        braceletURI = uri
        serial = identity.serial
        REPLReply(reply: "connect", fields: [("uri", .string(uri)), ("bracelet", identity.json)],
                  text: ["connected to \(uri): \(Self.describe(identity))"]).write(ctx)
        return .success
    }

    /// `status [--bracelet URI ...]`.
    func statusCommand(_ operands: [String], _ ctx: CommandContext) async throws -> ExitStatus {
        guard try sessionArguments("status", operands, ctx) != nil else { return .success }
        try await status(operands, ctx)
        return .success
    }

    /// `profile show` and `profile set [FLAGS]`.
    func profileCommand(set: Bool, _ operands: [String], _ ctx: CommandContext) async throws -> ExitStatus {
        guard let parsed = try sessionArguments(set ? "profile set" : "profile show", operands, ctx, takesOperands: false)
        else { return .success }
        try await profile(set: set ? parsed : nil, ctx)
        return .success
    }

    /// Runs `body` on the session's bracelet (or the one `words` name, with `status`'s options)
    /// as every command reaches one: `BraceletSession.run`, with the session's state store for
    /// the journal repair (said on stderr).
    func onBracelet<Result>(_ words: [String], _ ctx: CommandContext,
                            _ body: (BraceletSession) async throws -> Result) async throws -> Result {
        var words = words
        let sessions = !words.contains("--bracelet")
        if let uri = braceletURI, sessions { words += ["--bracelet", uri] }
        let parsed = try ArgumentParser.parse(words, as: REPLGrammar.session("status"), environment: ctx.environment)
        var options = try BraceletConnector.prepare(parsed, ctx)
        try options.readScenario()
        return try await BraceletSession.run(options.target, flow: Self.flow, store: try stateStore(ctx),
                                             ownership: try GatewayOptions.ownership(nil, environment: ctx.environment), run: RunID.make(),
                                             events: { _ in EventFanOut([]) }, diagnostics: ctx.diagnostics) { session, _ in
            if sessions { self.serial = session.identity.serial }
            return try await body(session)
        }
    }

    /// The flow name of the REPL's own bracelet work in the plan journal.
    static let flow = FlowName.repl

    private func status(_ words: [String], _ ctx: CommandContext) async throws {
        let (session, plan, profile) = try await onBracelet(words, ctx) { session in
            (session, try await session.bracelet.currentPlan(), try await session.bracelet.readProfile())
        }
        let stored = try ProfileStore(store: try stateStore(ctx)).load(serial: session.identity.serial)
        let queued = cuffQueue.queued
        var cuffLines: [String] = []
        if let cuff { cuffLines.append("cuff      ble:\(cuff.address)" + (cuff.adapter.map { " on \($0)" } ?? "") + " (cuff connect)") }
        let cuffJSON: JSONValue = cuff.map { .string($0.address) } ?? .null
        REPLReply(reply: "status", fields: [
            ("bracelet", session.identity.json), ("plan", .string(plan.name)),
            ("profile", profile.map(\.json) ?? .null), ("storedProfile", stored.map(\.json) ?? .null),
            ("queued", .array(queued.map(REPLReply.json))), ("cuff", cuffJSON),
        ], text: [
            "bracelet  \(Self.describe(session.identity))",
            "plan      \(plan.name)",
            "profile   " + (profile.map(Self.describe) ?? "none on the bracelet"),
            "stored    " + (stored.map(Self.describe) ?? "no profile stored for \(session.identity.serial)"),
            "queued    " + (queued.isEmpty ? "no cuff readings" : queued.map(Self.describe).joined(separator: ", ")),
        ] + cuffLines, hang: Self.statusLabelColumns).write(ctx)
    }

    /// The width of `status`'s labels (`bracelet  `), under which a long value wraps.
    static let statusLabelColumns = 10

    static func describe(_ identity: BraceletIdentity) -> String {
        "model \(identity.model), firmware \(identity.firmware), serial \(identity.serial)"
    }

    static func describe(_ reading: CuffReading) -> String {
        var text = "\(reading.systolic)/\(reading.diastolic) \(reading.pulse.map(String.init) ?? "-")"
        if let at = reading.measuredAt { text += " at " + RFC3339.format(at) } else if reading.isManualEntry { text += " (manual)" }
        return text
    }

    static func describe(_ profile: UserProfile) -> String {
        "\(profile.heightCm) cm, \(profile.weightKg) kg, \(profile.wrist.rawValue) wrist, \(profile.gender.rawValue), "
            + "\(profile.unit.rawValue), born \(profile.birthdate), skin tone \(profile.skinTone), hair \(profile.hairDensity.rawValue)"
    }
}
