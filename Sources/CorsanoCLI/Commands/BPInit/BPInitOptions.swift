import CorsanoKit
import Synchronization

/// The `bp-init` flags as the core's config and the choice of cuff source (CommandTable "bp-init").
enum BPInitOptions {
    /// Where the readings come from.
    enum CuffChoice {
        /// `--cuff FILE|-` (default `-` when stdin is not a terminal).
        case lines(InputFile)
        /// `--cuff ble:MAC`: a Bluetooth cuff read live through BlueZ.
        case bluetooth(address: String)
        /// `--cuff-cmd CMD`.
        case command(String)
        /// Typed at the terminal.
        case typed
        /// `--cuff sim:` (the bracelet's own scenario: in process, or a served simulator's
        /// `simCuffReading`) or `--cuff sim:SCENARIO.json` (that file's subjects, in process).
        case simulated(scenarioPath: String?)
    }

    /// The `--cuff` prefix that names a simulated cuff (`sim` alone stays a file name).
    static let simulatedScheme = "sim:"

    /// `--threshold`, `--max-attempts`, `--no-preparation`, `--max-reading-age`, `--backdate`,
    /// `--no-replay-filter`, `--feed-flagged`. - Throws: `UsageError` naming the flag.
    static func config(_ args: ParsedCommand) throws -> BPInitializationConfig {
        var config = BPInitializationConfig.default
        if let threshold = try args.integer(.threshold) { config.deviationThresholdMmHg = threshold }
        if let attempts = try args.integer(.maxAttempts) { config.maxAttempts = attempts }
        config.includePreparation = !args.flag(.noPreparation)
        if let age = try args.seconds(.maxReadingAge) { config.maxReadingAge = age.map(Double.init) }
        if case .some(.some(let backdate)) = try args.seconds(.backdate) { config.backdateSeconds = Double(backdate) }
        config.replayFilter = !args.flag(.noReplayFilter)
        config.feedFlagged = args.flag(.feedFlagged)
        return config
    }

    /// `--protocol`'s values: the seed's single session, Corsano's 3 × 3, the general form.
    static let protocols = ["sdk"] + MultiSetProtocol.Kind.allCases.map(\.rawValue)

    /// What `--protocol` and its options ask for.
    struct MultiSetChoice {
        /// The protocol; nil for `sdk`.
        var parameters: MultiSetProtocol?
        var abandon: Bool
        var force: Bool
    }

    /// The multi-set protocol's rules between options, as table data: checked before
    /// anything opens (64). `--protocol sdk` is the default, so every multi-set option needs another.
    static let multiSetRules: [OptionRule] = {
        let multi = ["corsano", "sets"]
        // --sets, --readings-per-set and --set-interval shape the general form only: Corsano's
        // protocol fixes them (3 sets of 3 readings, 1 h apart).
        var rules: [OptionRule] = [OptionKey.sets, .readingsPerSet, .setInterval].map { .requiresValue($0, .calibrationProtocol, ["sets"]) }
        rules += [OptionKey.maxSetGap, .abandon, .force].map { .requiresValue($0, .calibrationProtocol, multi) }
        rules += [OptionKey.maxAttempts, .threshold].map {
            .excludesValue($0, .calibrationProtocol, multi, because: "a set always takes its readings, the firmware judges once")
        }
        rules.append(.excludesValue(.noState, .calibrationProtocol, multi, because: "its calibration outlives this run: it needs a state store"))
        rules.append(.check { _ = try multiSet($0) })
        return rules
    }()

    /// `--protocol`, `--sets`, `--readings-per-set`, `--set-interval`, `--max-set-gap`, `--abandon`,
    /// `--force` as one value; what `multiSetRules` leaves (`--sets` needed, a bracelet that outlives
    /// the run) refused here. - Throws: `UsageError` (64) naming the options.
    static func multiSet(_ args: ParsedCommand) throws -> MultiSetChoice {
        guard let kind = args.string(.calibrationProtocol).flatMap(MultiSetProtocol.Kind.init(rawValue:)) else {
            return MultiSetChoice(parameters: nil, abandon: false, force: false)
        }
        if case .simulator? = try? BraceletAddress(args.string(.bracelet) ?? BraceletAddress.defaultURI) {
            throw UsageError.conflict("--protocol \(kind.rawValue) needs a bracelet that outlives this run: "
                                      + "the in-process sim does not; serve one with 'corsano bracelet serve' and use its unix: or tcp: address")
        }
        var gap = MultiSetProtocol.defaultMaxGapSeconds
        if case .some(.some(let g)) = try args.seconds(.maxSetGap) { gap = Double(g) }
        switch kind {
        case .corsano:
            return MultiSetChoice(parameters: .corsano(maxGapSeconds: gap), abandon: args.flag(.abandon), force: args.flag(.force))
        case .sets:
            guard let sets = try args.integer(.sets) else {
                if args.flag(.abandon) {
                    return MultiSetChoice(parameters: MultiSetProtocol(kind: .sets, sets: 2), abandon: true, force: false)
                }
                throw UsageError.missing("--protocol sets needs --sets N (2-10)")
            }
            var interval = MultiSetProtocol.defaultIntervalSeconds
            if case .some(.some(let i)) = try args.seconds(.setInterval) { interval = Double(i) }
            let readings = try args.integer(.readingsPerSet) ?? MultiSetProtocol.defaultReadingsPerSet
            return MultiSetChoice(parameters: MultiSetProtocol(kind: .sets, sets: sets, readingsPerSet: readings,
                                                               intervalSeconds: interval, maxGapSeconds: gap),
                                  abandon: args.flag(.abandon), force: args.flag(.force))
        }
    }

    /// `--cuff-timeout` (default `BPInitializationConfig.defaultCuffTimeoutSeconds`). - Throws: `UsageError` when 0.
    /// `--max-clock-skew` in seconds (default `StoreClock.defaultMaxSkewSeconds`).
    static func maxClockSkew(_ args: ParsedCommand) throws -> Double {
        guard case .some(.some(let seconds)) = try args.seconds(.maxClockSkew) else { return StoreClock.defaultMaxSkewSeconds }
        return Double(seconds)
    }

    static func cuffTimeout(_ args: ParsedCommand) throws -> Duration {
        guard case .some(.some(let seconds)) = try args.seconds(.cuffTimeout) else {
            return .seconds(BPInitializationConfig.defaultCuffTimeoutSeconds)
        }
        guard seconds > 0 else {
            throw UsageError.badValue(option: "cuff-timeout", value: "0", expected: "a whole number of seconds above 0")
        }
        return .seconds(seconds)
    }

    /// True when `--cuff ble:MAC` names a Bluetooth cuff (its readings are stamped in real
    /// time, so the run's clock is real unless `--clock` or `--now` say otherwise).
    static func readsBluetoothCuff(_ args: ParsedCommand) -> Bool {
        args.string(.cuff)?.hasPrefix(CuffLinkOptions.scheme) == true && args.string(.cuffCmd) == nil
    }

    /// The cuff source flags, with the file opened (exit 66 before any output); `ble:MAC` names
    /// a Bluetooth cuff (a file of that name is `./ble:MAC`).
    /// - Throws: `UsageError` for a bad `ble:` address, `InputError.cannotOpen`. (`--cuff` with
    /// `--cuff-cmd` is refused by the table.)
    static func cuff(_ args: ParsedCommand, stdinIsTerminal: Bool) throws -> CuffChoice {
        switch (args.string(.cuff), args.string(.cuffCmd)) {
        case (.some(let uri), _) where uri.hasPrefix(CuffLinkOptions.scheme):
            return .bluetooth(address: try CuffLinkOptions.address(String(uri.dropFirst(CuffLinkOptions.scheme.count)), option: "cuff"))
        case (.some(let uri), _) where uri.hasPrefix(simulatedScheme):
            let path = String(uri.dropFirst(simulatedScheme.count))
            return .simulated(scenarioPath: path.isEmpty ? nil : path)
        case (.some(let path), _): return .lines(try InputFile.open(path, waitsForWriter: false))
        case (nil, .some(let command)): return .command(command)
        case (nil, nil): return stdinIsTerminal ? .typed : .lines(try InputFile.open("-"))
        }
    }

    /// The cuff source `choice` names, on the connected `session` (bp-init and `validate --live`
    /// build theirs here): reading lines from a file or `-`, `ble:MAC` through BlueZ (the adapter
    /// checked now: 69, 77, 74 before any step), `--cuff-cmd`, typed at the terminal (prompted
    /// in the locale), or the simulated cuff; every reading stamped with `--subject-id` when given.
    /// `bluetooth` is the BlueZ source to close after the run.
    /// - Throws: `BluetoothError`, `CuffCollector.Failure`, `UsageError` (a simulated cuff's subject,
    ///   `--tz`), `BraceletError`.
    static func cuffSource(_ choice: CuffChoice, simulated: (Scenario, ScenarioSubject)?, _ args: ParsedCommand, _ ctx: CommandContext,
                           session: BraceletSession, timeout: Duration, localizer: Localizer, prompts: PromptOutput,
                           mode: OutputMode) async throws -> (cuff: any CuffSource, bluetooth: BLECuffSource?) {
        var cuff: any CuffSource
        var bluetooth: BLECuffSource?
        switch choice {
        case .lines(let file):
            cuff = LineCuffSource(bytes: file.bytes, name: file.name, timeout: timeout)
        case .bluetooth(let address):
            let source = try await bluetoothCuff(address, args, ctx, zone: try CuffIngestCommand.zone(args, ctx.environment),
                                                 clock: session.clock, timeout: timeout)
            bluetooth = source
            cuff = source
        case .command(let command):
            cuff = CommandCuffSource(command: command, timeout: timeout, ctx: ctx)
        case .typed:
            cuff = TypedCuffSource(lines: .stdin, localizer: localizer, prompts: prompts, timeout: timeout, narrated: mode == .text)
        case .simulated:
            cuff = try await simulatedCuff(simulated, subject: try SubjectOption.value(args),
                                           seed: try args.integer(.seed).map(UInt64.init) ?? SimulatedBracelet.defaultSeed, session: session)
        }
        if let subject = try SubjectOption.value(args) { cuff = SubjectCuffSource(cuff, subject: subject) }
        return (cuff, bluetooth)
    }

    /// The scenario and subject a simulated cuff measures in process — `sim:FILE`'s scenario, or
    /// the in-process bracelet's for `sim:` — read and checked before the store is opened (66, 65,
    /// then 64 for a subject the scenario does not declare, or none named of several); nil for
    /// `sim:` on a bridge (its subject is checked by the bridge, `SimulatedCuffSource.check`).
    /// - Throws: `ScenarioError`, `UsageError`.
    static func simulatedCuffScenario(_ choice: CuffChoice, bracelet: BraceletConnectOptions,
                                      subject: String?) throws -> (Scenario, ScenarioSubject)? {
        guard case .simulated(let path) = choice else { return nil }
        guard let scenario = try path.map({ try Scenario.load(path: $0) }) ?? bracelet.scenario else { return nil }
        do {
            return (scenario, try SimulatedCuff.subject(subject, in: scenario))
        } catch let error as SimulatedCuffError {
            throw UsageError.conflict("--cuff '\(simulatedScheme)\(path ?? "")': " + error.message)
        }
    }

    /// The `--cuff sim:` source on the run's clock: in process from `inProcess`, else asked of the
    /// served simulator `session` reaches (`simCuffReading`), checked before the flow starts.
    /// - Throws: `UsageError` (64) for an unknown or unnamed subject; `BraceletError` (69) when
    ///   the bridge is not a simulator.
    static func simulatedCuff(_ inProcess: (Scenario, ScenarioSubject)?, subject: String?, seed: UInt64,
                              session: BraceletSession) async throws -> SimulatedCuffSource {
        if let (scenario, chosen) = inProcess {
            return SimulatedCuffSource(.scenario(scenario, subject: chosen, seed: seed), clock: session.clock)
        }
        guard let client = session.bracelet as? BridgeClient else {
            throw UsageError.conflict("--cuff sim: needs a simulated bracelet or a scenario file (sim:SCENARIO.json)")
        }
        let source = SimulatedCuffSource(.bridge(client, subject: subject), clock: session.clock)
        do {
            try await source.check()
        } catch let error as SimulatedCuffError {
            throw UsageError.conflict("--cuff sim: " + error.message)
        }
        return source
    }

    /// The `--cuff ble:MAC` source: BlueZ reached and the adapter checked before the flow starts
    /// (69 absent or off, 77 refused, 74 bus), the anchor paired with the run's clock.
    /// - Throws: `BluetoothError`, `CuffCollector.Failure`.
    static func bluetoothCuff(_ address: String, _ args: ParsedCommand, _ ctx: CommandContext, zone: ZoneReader,
                              clock: any FlowClock, timeout: Duration) async throws -> BLECuffSource {
        let central = try BlueZCentral.connect(busAddress: CuffLinkOptions.busAddress(ctx.environment))
        let collector = CuffCollector(central: central, config: .init(address: address, adapterName: args.string(.adapter), zone: zone),
                                      now: { clock.now() })
        do {
            _ = try await collector.adapter()
        } catch {
            await central.close()
            throw error
        }
        let messages = CuffLinkMessages(address: address, zone: zone, progress: ctx.stderrIsTerminal, prefix: "cuff: ")
        let lock = Mutex(())
        return BLECuffSource(collector: collector, timeout: timeout) { event in
            lock.locked { messages.write(event, ctx) }
        }
    }
}
