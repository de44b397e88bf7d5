/// The REPL's words: every command of the table (minus `repl` itself) plus the session commands
/// (`connect`, `status`, `cuff add`, `cuff scan`, `cuff connect`, `profile show|set`, `quit`). Described as `CommandSpec`s so
/// TAB completion and `help` treat them like the table's commands.
enum REPLGrammar {
    static let sessionCommands: [CommandSpec] = [
        CommandSpec(words: ["connect"], summary: "Use the bracelet at URI for the following commands.",
                    operands: "URI", operandKind: .uri,
                    details: "sim, sim:SCENARIO.json, unix:PATH, tcp:HOST:PORT or exec:CMD.", options: [CommandTable.help],
                    action: .session { try await $0.connectCommand($1, $2) }),
        CommandSpec(words: ["status"], summary: "Show the bracelet, its plan, the stored profile and the queued readings.",
                    operands: "", operandKind: nil, details: "Connects with the session's bracelet unless --bracelet is given.",
                    options: CommandTable.bracelet + [CommandTable.help],
                    action: .session { try await $0.statusCommand($1, $2) }, rules: CommandTable.braceletRules),
        CommandSpec(words: ["cuff", "add"], summary: "Queue a cuff reading for the next flow.",
                    operands: "SYS/DIA PULSE [at TIME]", operandKind: .text,
                    details: "Without 'at' the reading is a manual entry; with it, measured at TIME (RFC 3339).",
                    options: [], action: .session { try $0.cuffAddCommand($1, $2) }),
        CommandSpec(words: ["cuff", "scan"], summary: "List the Bluetooth devices on the air, blood pressure cuffs first.",
                    operands: "", operandKind: nil,
                    details: "Scans through BlueZ for --timeout seconds, as bluetoothctl's 'scan on', and lists each device's address and name; a device advertising the Blood Pressure service (0x1810) is marked as a cuff.",
                    options: [OptionSpec(.timeout, .seconds(allowsNone: false), default: .integer(REPLCuffCommands.defaultScanSeconds), "How long to scan"),
                              CommandTable.adapter, CommandTable.help],
                    action: .session { try await $0.cuffScanCommand($1, $2) }),
        CommandSpec(words: ["cuff", "connect"], summary: "Use the Bluetooth cuff at MAC for the following bp-init runs.",
                    operands: "MAC", operandKind: .text,
                    details: "Connects once (scanning until it appears, at most --timeout seconds; pairing first with --pair), reads its clock, checks it has Blood Pressure Measurement (0x2A35) and lets it go; later 'bp-init' lines read it as --cuff ble:MAC.",
                    options: [OptionSpec(.timeout, .seconds(allowsNone: false), default: .integer(REPLCuffCommands.defaultConnectSeconds),
                                         "How long to wait for the cuff"),
                              CommandTable.adapter, OptionSpec(.pair, "Pair first with a NoInputNoOutput agent"), CommandTable.help],
                    action: .session { try await $0.cuffConnectCommand($1, $2) }),
        CommandSpec(words: ["profile", "show"], summary: "Print the profile stored for the session's bracelet.",
                    operands: "", operandKind: nil, details: "The profile the state store keeps for the bracelet's serial (what wearing-opt --no-preparation pushes).",
                    options: [CommandTable.help],
                    action: .session { try await $0.profileCommand(set: false, $1, $2) }),
        CommandSpec(words: ["profile", "set"], summary: "Change fields of the profile stored for the session's bracelet.",
                    operands: "", operandKind: nil,
                    details: "Takes the profile options of 'profile push'; fields not given keep their stored values. Stores, does not push: 'profile push --from' or 'wearing-opt --no-preparation' sends it.",
                    options: CommandTable.profileFields + [CommandTable.help],
                    action: .session { try await $0.profileCommand(set: true, $1, $2) }),
        CommandSpec(words: ["source"], summary: "Run the REPL lines of FILE (as psql's \\i, sqlite3's .read).",
                    operands: "FILE", operandKind: .path,
                    details: "Each line runs as in a scripted session: no prompts, a flow takes the readings queued before it, a failing line is reported as FILE:LINE: message and the next one runs (with 'corsano repl --bail' the file stops there). Status 1 when any line failed. Files may source files, 8 deep.",
                    options: [CommandTable.help], action: .session { try await $0.sourceCommand($1, $2) }),
        CommandSpec(words: ["quit"], summary: "Leave the shell (also Control-D).",
                    operands: "", operandKind: nil, details: "", options: [],
                    action: .session { session, _, _ in session.quit(); return .success }),
    ]

    /// The session command called `name` (one of the names above).
    static func session(_ name: String) -> CommandSpec {
        sessionCommands.first { $0.name == name }!
    }

    /// Everything a REPL line may start with.
    static let commands: [CommandSpec] = CommandTable.commands.filter { $0.words != ["repl"] } + sessionCommands

    /// Completion over the REPL's words.
    static let completion = CompletionEngine(tree: CompletionTree(commands: commands))

    /// `help` inside the REPL: the table's commands, then the session commands.
    static func overview(layout: TextLayout = HelpRenderer.plain) -> String {
        var out = HelpRenderer.paragraph("Commands (as on the command line, without 'corsano'):", layout)
        let listed = commands.filter { $0.words != ["help"] }
        out += HelpRenderer.table(listed.map { ($0.name, $0.summary) }, column: (commands.map(\.name.count).max() ?? 0) + 6, layout)
        out += "\n" + HelpRenderer.paragraph("help COMMAND shows a command's options. TAB completes; Control-C cancels; Control-D quits.", layout)
        return out
    }
}
