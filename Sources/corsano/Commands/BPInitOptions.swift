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
    }

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

    /// `--protocol`'s values (issue 32): the seed's single session, Corsano's 3 × 3, the general form.
    static let protocols = ["sdk"] + MultiSetProtocol.Kind.allCases.map(\.rawValue)

    /// What `--protocol` and its options ask for (issue 32).
    struct MultiSetChoice {
        /// The protocol; nil for `sdk`.
        var parameters: MultiSetProtocol?
        var abandon: Bool
        var force: Bool
    }

    /// `--protocol`, `--sets`, `--readings-per-set`, `--set-interval`, `--max-set-gap`, `--abandon`,
    /// `--force`: every rule between them and the other options decided here, before anything opens.
    /// - Throws: `UsageError` (64) naming the options.
    static func multiSet(_ args: ParsedCommand) throws -> MultiSetChoice {
        let setOptions = ["sets", "readings-per-set", "set-interval"]
        let multiOnly = setOptions + ["max-set-gap", "abandon", "force"]
        let kind = args.string("protocol").flatMap(MultiSetProtocol.Kind.init(rawValue:))
        guard let kind else {
            if let given = multiOnly.first(where: { args.given($0) != nil }) {
                throw UsageError.conflict("--\(given) needs --protocol corsano or --protocol sets")
            }
            return MultiSetChoice(parameters: nil, abandon: false, force: false)
        }
        for name in ["max-attempts", "threshold"] where args.given(name) != nil {
            throw UsageError.conflict("--protocol \(kind.rawValue) excludes --\(name) (a set always takes its readings, the firmware judges once)")
        }
        if args.flag("no-state") {
            throw UsageError.conflict("--protocol \(kind.rawValue) needs a state store: its calibration outlives this run (leave out --no-state)")
        }
        if case .simulator? = try? BraceletAddress(args.string("bracelet") ?? BraceletAddress.defaultURI) {
            throw UsageError.conflict("--protocol \(kind.rawValue) needs a bracelet that outlives this run: "
                                      + "the in-process sim does not; serve one with 'corsano bracelet serve' and use its unix: or tcp: address")
        }
        var gap = MultiSetProtocol.defaultMaxGapSeconds
        if case .some(.some(let g)) = try args.seconds("max-set-gap") { gap = Double(g) }
        switch kind {
        case .corsano:
            if let given = setOptions.first(where: { args.given($0) != nil }) {
                throw UsageError.conflict("--protocol corsano excludes --\(given) (Corsano's protocol is 3 sets of 3 readings, 1 h apart)")
            }
            return MultiSetChoice(parameters: .corsano(maxGapSeconds: gap), abandon: args.flag("abandon"), force: args.flag("force"))
        case .sets:
            guard let sets = try args.integer("sets") else {
                if args.flag("abandon") {
                    return MultiSetChoice(parameters: MultiSetProtocol(kind: .sets, sets: 2), abandon: true, force: false)
                }
                throw UsageError.missing("--protocol sets needs --sets N (2-10)")
            }
            var interval = MultiSetProtocol.defaultIntervalSeconds
            if case .some(.some(let i)) = try args.seconds("set-interval") { interval = Double(i) }
            let readings = try args.integer("readings-per-set") ?? MultiSetProtocol.defaultReadingsPerSet
            return MultiSetChoice(parameters: MultiSetProtocol(kind: .sets, sets: sets, readingsPerSet: readings,
                                                               intervalSeconds: interval, maxGapSeconds: gap),
                                  abandon: args.flag("abandon"), force: args.flag("force"))
        }
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
        case (.some(let path), nil): return .lines(try InputFile.open(path))
        case (nil, .some(let command)): return .command(command)
        case (nil, nil): return stdinIsTerminal ? .typed : .lines(try InputFile.open("-"))
        }
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
