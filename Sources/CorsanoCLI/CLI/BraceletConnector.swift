import CorsanoKit

/// Turns the common bracelet options (`--bracelet` or its variable, `--seed`, `--clock`, `--now`,
/// `--request-timeout`; CommandTable.bracelet) into the core's `BraceletTarget`; the session
/// itself (connect → gate → repair the journal → run) is `BraceletSession.run`.
enum BraceletConnector {
    /// Checks the bracelet options without connecting or reading files, so a command can refuse
    /// a bad flag (64) before it opens input files (66), then read the scenario
    /// (`BraceletConnectOptions.readScenario`) before it opens the state store (74): docs/design.md "Exit status".
    /// `defaultClock` replaces the by-bracelet default when neither `--clock` nor `--now` is given
    /// (a live Bluetooth cuff stamps readings in real time). - Throws: `UsageError` naming the flag.
    static func prepare(_ args: ParsedCommand, _ ctx: CommandContext, defaultClock: String? = nil) throws -> BraceletConnectOptions {
        let address = try self.address(args, ctx)
        let start = try args.instant(.now)
        // --now with --clock real: refused by the bracelet group's rule (`CommandTable.braceletRules`).
        let choice = args.string(.clock) ?? (start == nil ? defaultClock : nil)
        var options = BraceletConnectOptions(address: address, clockChoice: choice, start: start,
                                             seed: try args.integer(.seed).map(UInt64.init) ?? SimulatedBracelet.defaultSeed,
                                             requestTimeout: try requestTimeout(args),
                                             diagnostics: ctx.diagnostics)
        if case .tcp = address { options.token = try BridgeToken.load(path: tokenPath(args, ctx)) }
        return options
    }

    /// The token file of a TCP bridge: `--token-file`, else CORSANO_BRIDGE_TOKEN_FILE, else
    /// `bridge-token` in corsano's state directory, where `bracelet serve` makes one
    /// (docs/bridge-protocol.md "Authentication").
    static func tokenPath(_ args: ParsedCommand, _ ctx: CommandContext) -> String {
        args.string(.tokenFile) ?? StateLocation.stateDirectory(environment: ctx.environment) + "/bridge-token"
    }

    /// The `--bracelet` URI, else its environment variable (CORSANO_BRACELET), else `sim`.
    /// - Throws: `UsageError` naming the source.
    static func address(_ args: ParsedCommand, _ ctx: CommandContext) throws -> BraceletAddress {
        let uri = args.string(.bracelet) ?? BraceletAddress.defaultURI
        do {
            return try BraceletAddress(uri)
        } catch let error as BraceletAddressError {
            throw args.badValue(.bracelet, uri, expected: error.expected)
        }
    }

    /// `--request-timeout` in seconds (default 10). - Throws: `UsageError` when 0.
    static func requestTimeout(_ args: ParsedCommand) throws -> Double {
        guard case .some(.some(let seconds)) = try args.seconds(.requestTimeout) else { return BridgeClient.defaultRequestTimeout }
        guard seconds > 0 else {
            throw UsageError.badValue(option: "request-timeout", value: "0", expected: "a whole number of seconds above 0")
        }
        return Double(seconds)
    }

    /// The clock named `choice`; a virtual one starts at `start` (default wall time).
    /// - Throws: `UsageError` for `--now` with the real clock.
    static func makeClock(_ choice: String, start: Instant?) throws -> any FlowClock {
        guard choice == "virtual" else {
            if start != nil {
                throw UsageError.conflict("--now needs the virtual clock; this bracelet runs on the real clock (add --clock virtual)")
            }
            return WallClock()
        }
        return VirtualClock(start: start ?? CommandContext.wallClock())
    }
}

/// The bracelet options checked and the scenario read, before anything connects (`prepare`).
struct BraceletConnectOptions {
    let address: BraceletAddress
    /// `--clock` as given; nil picks by bracelet kind.
    let clockChoice: String?
    /// `--now`.
    let start: Instant?
    let seed: UInt64
    /// `--request-timeout`, seconds.
    let requestTimeout: Double
    /// The token of a `tcp:` bridge, read from its file by `prepare`.
    var token: BridgeToken?
    /// Where the core's diagnostics go (stderr, `corsano: ...`): the simulator's holds, the
    /// bracelet reached, the bridge's exchanges at `-vv`.
    let diagnostics: Diagnostics
    /// The simulator's scenario once read (nil for a bridge, or before `readScenario`).
    private(set) var scenario: Scenario?

    init(address: BraceletAddress, clockChoice: String?, start: Instant?, seed: UInt64, requestTimeout: Double,
         diagnostics: Diagnostics = .none) {
        (self.address, self.clockChoice, self.start, self.seed, self.requestTimeout) = (address, clockChoice, start, seed, requestTimeout)
        self.diagnostics = diagnostics
    }

    /// Reads `sim:SCENARIO.json` (the built-in scenario for plain `sim`; nothing for a bridge).
    /// - Throws: `ScenarioError.unreadable` (66), `.invalid` naming the file and field (65).
    mutating func readScenario() throws {
        if case .simulator(let path) = address { scenario = try path.map { try Scenario.load(path: $0) } ?? Scenario() }
    }

    /// The core's target: the clock is virtual with a simulator (in-process or served), else
    /// real; `--clock` overrides.
    var target: BraceletTarget {
        let (choice, start) = (clockChoice, self.start)
        return BraceletTarget(address: address, scenario: scenario ?? Scenario(), seed: seed, requestTimeout: requestTimeout,
                              token: token, diagnostics: diagnostics) { simulated in
            try BraceletConnector.makeClock(choice ?? (simulated ? "virtual" : "real"), start: start)
        }
    }
}
