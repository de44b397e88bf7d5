import CorsanoKit

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
    /// `--no-replay-filter`. - Throws: `UsageError` naming the flag.
    static func config(_ args: ParsedCommand) throws -> BPInitializationConfig {
        var config = BPInitializationConfig.default
        if let threshold = try args.integer("threshold") { config.deviationThresholdMmHg = threshold }
        if let attempts = try args.integer("max-attempts") { config.maxAttempts = attempts }
        config.includePreparation = !args.flag("no-preparation")
        if let age = try args.seconds("max-reading-age") { config.maxReadingAge = age.map(Double.init) }
        if case .some(.some(let backdate)) = try args.seconds("backdate") { config.backdateSeconds = Double(backdate) }
        config.replayFilter = !args.flag("no-replay-filter")
        return config
    }

    /// `--cuff-timeout` (default `BPInitializationConfig.defaultCuffTimeoutSeconds`). - Throws: `UsageError` when 0.
    static func cuffTimeout(_ args: ParsedCommand) throws -> Duration {
        guard case .some(.some(let seconds)) = try args.seconds("cuff-timeout") else {
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
        args.string("cuff")?.hasPrefix(CuffLinkOptions.scheme) == true && args.string("cuff-cmd") == nil
    }

    /// The cuff source flags, with the file opened (exit 66 before any output); `ble:MAC` names
    /// a Bluetooth cuff (a file of that name is `./ble:MAC`).
    /// - Throws: `UsageError` for `--cuff` with `--cuff-cmd`, `InputError.cannotOpen`.
    static func cuff(_ args: ParsedCommand, stdinIsTerminal: Bool) throws -> CuffChoice {
        switch (args.string("cuff"), args.string("cuff-cmd")) {
        case (.some, .some): throw UsageError.conflict("--cuff and --cuff-cmd exclude each other")
        case (.some(let uri), nil) where uri.hasPrefix(CuffLinkOptions.scheme):
            return .bluetooth(address: try CuffLinkOptions.address(String(uri.dropFirst(CuffLinkOptions.scheme.count)), option: "cuff"))
        case (.some(let uri), nil) where uri.hasPrefix(simulatedScheme):
            let path = String(uri.dropFirst(simulatedScheme.count))
            return .simulated(scenarioPath: path.isEmpty ? nil : path)
        case (.some(let path), nil): return .lines(try InputFile.open(path))
        case (nil, .some(let command)): return .command(command)
        case (nil, nil): return stdinIsTerminal ? .typed : .lines(try InputFile.open("-"))
        }
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
        let collector = CuffCollector(central: central, config: .init(address: address, adapterName: args.string("adapter"), zone: zone),
                                      now: { clock.now() })
        do {
            _ = try await collector.adapter()
        } catch {
            await central.close()
            throw error
        }
        let messages = CuffLinkMessages(address: address, zone: zone, progress: ctx.stderrIsTerminal, prefix: "cuff: ")
        let lock = NSLockLite()
        return BLECuffSource(collector: collector, timeout: timeout) { event in
            lock.locked { if let text = messages.text(for: event) { ctx.stdout.flush(); ctx.stderr.write(text) } }
        }
    }
}
