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
        if let threshold = try args.integer(.threshold) { config.deviationThresholdMmHg = threshold }
        if let attempts = try args.integer(.maxAttempts) { config.maxAttempts = attempts }
        config.includePreparation = !args.flag(.noPreparation)
        if let age = try args.seconds(.maxReadingAge) { config.maxReadingAge = age.map(Double.init) }
        if case .some(.some(let backdate)) = try args.seconds(.backdate) { config.backdateSeconds = Double(backdate) }
        config.replayFilter = !args.flag(.noReplayFilter)
        return config
    }

    /// `--cuff-timeout` (default `BPInitializationConfig.defaultCuffTimeoutSeconds`). - Throws: `UsageError` when 0.
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
        case (.some(let path), _): return .lines(try InputFile.open(path))
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
        let collector = CuffCollector(central: central, config: .init(address: address, adapterName: args.string(.adapter), zone: zone),
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
