import CorsanoKit

/// The `bp-init` flags as the core's config and the choice of cuff source (CommandTable "bp-init").
enum BPInitOptions {
    /// Where the readings come from.
    enum CuffChoice {
        /// `--cuff FILE|-` (default `-` when stdin is not a terminal).
        case lines(InputFile)
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

    /// The cuff source flags, with the file opened (exit 66 before any output).
    /// - Throws: `UsageError` for `--cuff` with `--cuff-cmd`, `InputError.cannotOpen`.
    static func cuff(_ args: ParsedCommand, stdinIsTerminal: Bool) throws -> CuffChoice {
        switch (args.string("cuff"), args.string("cuff-cmd")) {
        case (.some, .some): throw UsageError.conflict("--cuff and --cuff-cmd exclude each other")
        case (.some(let path), nil): return .lines(try InputFile.open(path))
        case (nil, .some(let command)): return .command(command)
        case (nil, nil): return stdinIsTerminal ? .typed : .lines(try InputFile.open("-"))
        }
    }
}
