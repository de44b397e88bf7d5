import CorsanoKit

/// The one command table: drives parsing, `--help`, REPL completion, shell completions and the
/// drift test against man pages. Add a command or option here and everything else follows.
enum CommandTable {
    /// The flags `corsano` takes with no command (`corsano --version`), listed once: main,
    /// the overview help and the three completions read them here. `-h` is `--help`'s short spelling.
    static let global: [OptionSpec] = [OptionSpec(.help, "Show help").short("h"), version]
    /// `-V`/`--version`, before or after the command (issue 23: global options anywhere).
    static let version = OptionSpec(.version, "Print the version").short("V")
    /// Every spelling of the global `--version`.
    static let versionSpellings: Set<String> = ["--version", "-V"]
    /// Every spelling of the global `--help`.
    static let helpSpellings: Set<String> = ["--help", "-h"]
    /// Every spelling of a global flag (`--help`, `-h`, `--version`, `-V`).
    static let globalSpellings: Set<String> = Set(global.flatMap { ["--" + $0.name] + ($0.short.map { ["-\($0)"] } ?? []) })

    static let help = OptionSpec(.help, "Show help for this command and exit").short("h")

    static let state: [OptionSpec] = [
        OptionSpec(.state, .path, default: .rule("$XDG_STATE_HOME/corsano/state.sqlite3"), environment: .state,
                   "State store: a SQLite file, or a postgresql:// URI"),
        OptionSpec(.noState, "Keep state in memory for this run only").excluding(.state),
        storeWait,
    ]
    /// How long a PostgreSQL store that is busy or restarting is retried before 75: every command
    /// that opens a store (`CommandRunner` applies it to the context, `StateLocation` to the store).
    static let storeWait = OptionSpec(.storeWait, .seconds(allowsNone: false), default: .seconds(PostgresWaitBounds().storeWaitSeconds),
                                      environment: .storeWait,
                                      "Retry a PostgreSQL store that is busy or restarting this long, then exit 75")
    /// The audit chain's HMAC key: every command that appends to the audit log, and `history --verify`.
    static let auditKey = OptionSpec(.auditKey, .path, default: .rule("$XDG_CONFIG_HOME/corsano/audit.key"),
                                     "HMAC key file (0600) of the audit log's chain, shared by every gateway of a store")
    /// Who owns a plan-journal entry, and for how long another gateway leaves it alone, and the audit key.
    static let journal: [OptionSpec] = [auditKey,
        OptionSpec(.gateway, .text, placeholder: "ID", default: .rule("the host name"), environment: .gateway,
                   "This gateway's name in the plan journal and audit log"),
        OptionSpec(.lease, .seconds(allowsNone: false), default: .seconds(PlanJournal.defaultLeaseSeconds),
                   "Lease of this run's plan-journal entry, renewed while it runs"),
        OptionSpec(.operatorName, .text, placeholder: "NAME", default: .rule("the OS user"),
                   "Who runs the calibration, recorded in the audit log and shown on certificates"),
    ]
    static let output: [OptionSpec] = [
        OptionSpec(.json, "Write JSON lines even on a terminal").excluding(.text),
        OptionSpec(.text, "Write human text even when stdout is not a terminal"),
        OptionSpec(.lang, .choice(Locales.all), placeholder: "LOCALE", default: .rule("from LC_ALL, LC_MESSAGES, LANG"),
                   "Language of human text"),
    ]
    /// A report document's paper size and language (`report`, `validate --report`).
    static let reportPaper = OptionSpec(.paper, .choice(PaperSize.allCases.map(\.rawValue)), default: .value(PaperSize.default.rawValue),
                                        "Paper size when printed")
    static let reportLang = OptionSpec(.lang, .choice(Locales.all), placeholder: "LOCALE", default: .rule("from LC_ALL, LC_MESSAGES, LANG"),
                                       "Language of the document")

    static let bracelet: [OptionSpec] = [
        OptionSpec(.bracelet, .uri, default: .value(BraceletAddress.defaultURI), environment: .bracelet,
                   "sim, sim:SCENARIO.json, unix:PATH, tcp:HOST:PORT or exec:CMD").input(.braceletURI),
        seed("Seed of the simulated bracelet"),
        OptionSpec(.clock, .choice(["real", "virtual"]), default: .rule("virtual with the simulator, else real"), "Time source"),
        OptionSpec(.now, .time, default: .rule("wall time"), "Start of the virtual clock"),
        OptionSpec(.requestTimeout, .seconds(allowsNone: false), default: .seconds(BridgeClient.defaultRequestTimeout),
                   "Timeout of one bracelet request"),
        tokenFile("Token file of a tcp: bridge (mode 0600)"),
    ]
    /// The rules of the bracelet group, on every command that has it.
    static let braceletRules: [OptionRule] = [.excludesValue(.now, .clock, ["real"], because: "--now sets the virtual clock's start")]
    /// The shared secret of a TCP bridge (docs/bridge-protocol.md "Authentication"): never on argv.
    static func tokenFile(_ summary: String) -> OptionSpec {
        OptionSpec(.tokenFile, .path, default: .rule("$XDG_STATE_HOME/corsano/bridge-token"), environment: .bridgeTokenFile, summary)
    }
    static func seed(_ summary: String) -> OptionSpec {
        OptionSpec(.seed, .integer(0...Int(Int32.max)), default: .integer(Int(SimulatedBracelet.defaultSeed)), summary)
    }
    /// The study participant of the readings: `cuff ingest`, `bp-init`, `nibp read`.
    static func subjectID(_ summary: String) -> OptionSpec { OptionSpec(.subjectId, .text, placeholder: "ID", summary) }
    static let maxReadingAge = OptionSpec(.maxReadingAge, .seconds(allowsNone: true), default: .seconds(HostRules.defaultMaxReadingAge),
        "Reject readings further than this from now, either direction")
    static let backdate = OptionSpec(.backdate, .seconds(allowsNone: false), default: .seconds(HostRules.defaultBackdate),
        "Backdating allowance before the request time")
    static let rejects = OptionSpec(.rejects, .path, "Also write rejected records to FILE as JSON lines")
    static let strict = OptionSpec(.strict, "Stop at the first bad record (exit 65)")
    static let skinTone = OptionSpec(.skinTone, .integer(ProfileRules.skinTone),
        "Fitzpatrick skin type \(ProfileRules.skinTone.lowerBound)-\(ProfileRules.skinTone.upperBound)")
    static let hairDensity = OptionSpec(.hairDensity, .choice(UserProfileChoices.hairDensity), "Hair density at the wrist")
    static let wrist = OptionSpec(.wrist, .choice(UserProfileChoices.wrist), "Wrist the bracelet is on")
    static let tz = OptionSpec(.tz, .text, placeholder: "ZONE", default: .rule("TZ"), "Zone of naive stamps without an anchor")
    /// The Bluetooth adapter of a live cuff (`cuff listen`, `bp-init --cuff ble:MAC`, the REPL's cuff commands).
    static let adapter = OptionSpec(.adapter, .text, placeholder: "NAME", default: .rule("the first powered one"),
                                    "Bluetooth adapter of a ble: cuff, e.g. hci0")
    /// The user profile's fields as options, in `ProfileRules.fields` order (`profile push`,
    /// the REPL's `profile set`).
    static let profileFields: [OptionSpec] = [
        OptionSpec(.height, .integer(ProfileRules.heightCm), placeholder: "CM", "Height in cm"),
        OptionSpec(.weight, .integer(ProfileRules.weightKg), placeholder: "KG", "Weight in kg"),
        wrist,
        OptionSpec(.gender, .choice(UserProfileChoices.gender), "Gender"),
        OptionSpec(.unit, .choice(UserProfileChoices.unit), "Unit preference"),
        OptionSpec(.birthdate, .text, placeholder: "YYYY-MM-DD", "Date of birth"),
        skinTone, hairDensity,
    ]
    /// FHIR R4 export options shared by `cuff ingest` and `history`.
    /// The rules of the FHIR group: each needs `--format fhir`; a subject is checked before anything opens.
    static let fhirRules: [OptionRule] = [.outputDir, .bundle, .subject, .subjectIdentifier].map { .requiresValue($0, .format, ["fhir"]) }
        + [.check { _ = try FHIROutput.subject($0) }]
    static let fhir: [OptionSpec] = [
        OptionSpec(.outputDir, .directory, "With --format fhir: bulk NDJSON files, one per resource type, and manifest.json in DIR")
            .excluding(.bundle),
        OptionSpec(.bundle, "With --format fhir: one transaction Bundle of conditional creates"),
        OptionSpec(.subject, .text, placeholder: "Patient/ID", default: .rule("none"), "With --format fhir: the patient the readings are about")
            .excluding(.subjectIdentifier),
        OptionSpec(.subjectIdentifier, .text, placeholder: "SYSTEM|VALUE", default: .rule("none"), "With --format fhir: the patient by identifier"),
    ]

    /// Every command, each with the `common` options (before `--help`).
    static let commands: [CommandSpec] = withCommon([
        CommandSpec(
            words: ["bp-init"], summary: "Run NIBP calibration against a reference cuff.",
            operands: "", operandKind: nil,
            details: "Switches the bracelet to the NIBP-calibration plan, feeds 2 (or 3) cuff readings per attempt, retries up to --max-attempts, and restores the previous plan on every way out. Cuff readings: JSON lines from --cuff FILE or stdin (-), a Bluetooth cuff read live through BlueZ (--cuff ble:MAC; the run's clock is then real by default), one per --cuff-cmd run, typed at the terminal (SYS/DIA PULSE), or measured by a simulated cuff on a scenario subject (--cuff sim: or sim:SCENARIO.json, with --subject-id). SIGINT, SIGTERM and SIGHUP cancel the run and restore the plan.",
            exits: [ExitCase(.success, "calibrated"), .failedAfterRetries, .cuffError,
                    ExitCase(.braceletDisconnected, "braceletDisconnected, or the previous plan could not be restored (planRestoreFailed)"),
                    ExitCase(.usage, "usage error (also a multi-set protocol with --no-state or the in-process sim)"),
                    ExitCase(.noInput, "the --cuff file is missing or unreadable"),
                    ExitCase(.unavailable, "the bracelet is in nibpCalibration with nothing to record its plan, or an open multi-set calibration is in the way"),
                    ExitCase(.notYet, "the next set of a multi-set calibration is not due yet (retryAfter, when it is, in the message and the JSON error line)"),
                    .braceletHeld]
                + ExitCase.bracelet + ExitCase.bluetooth + ExitCase.state + [.auditKey] + ExitCase.stdout + ExitCase.stopSignals,
            options: [
                OptionSpec(.cuff, .path, default: .rule("- when stdin is not a terminal"), "Cuff readings as JSON lines, ble:MAC for a Bluetooth cuff, or sim: / sim:SCENARIO.json for a simulated one")
                    .excluding(.cuffCmd).input(.cuffSource),
                OptionSpec(.cuffCmd, .command, "Run CMD once per measurement; first valid line of its stdout is the reading"),
                OptionSpec(.cuffTimeout, .seconds(allowsNone: false), default: .integer(BPInitializationConfig.defaultCuffTimeoutSeconds),
                           "Real-time wait for one reading"),
                adapter,
                OptionSpec(.cuffPairedCmd, .command, "CMD exits 0 when a cuff is paired"),
                OptionSpec(.pairCmd, .command, "The \"Pair a cuff\" hook, run when no cuff is paired"),
                OptionSpec(.threshold, .integer(0...300), placeholder: "MMHG",
                           default: .integer(BPInitializationConfig.default.deviationThresholdMmHg), "Deviation that calls a 3rd measurement"),
                OptionSpec(.maxAttempts, .integer(1...20), default: .integer(BPInitializationConfig.default.maxAttempts),
                           note: "1 disables retry", "Calibration attempts"),
                OptionSpec(.noPreparation, "Skip the preparation checklist"),
                maxReadingAge, backdate,
                OptionSpec(.noReplayFilter, "Do not drop replayed or duplicate readings"),
                OptionSpec(.feedFlagged, "Feed readings whose own status flags them (body movement, ...) instead of dropping them"),
                subjectID("The study participant: stamps the readings fed; picks the subject of a sim: cuff"),
                OptionSpec(.calibrationProtocol, .choice(BPInitOptions.protocols), default: .value("sdk"),
                           "sdk: one session; corsano: 3 sets x 3 readings 1 h apart; sets: --sets N"),
                OptionSpec(.sets, .integer(MultiSetProtocol.setCountRange), placeholder: "N",
                           "With --protocol sets: sets in the calibration"),
                OptionSpec(.readingsPerSet, .integer(MultiSetProtocol.readingsPerSetRange), placeholder: "N",
                           default: .integer(MultiSetProtocol.defaultReadingsPerSet), "With --protocol sets: cuff readings per set"),
                OptionSpec(.setInterval, .seconds(allowsNone: false), default: .seconds(MultiSetProtocol.defaultIntervalSeconds),
                           "With --protocol sets: least time from one set's end to the next set"),
                OptionSpec(.maxSetGap, .seconds(allowsNone: false), default: .seconds(MultiSetProtocol.defaultMaxGapSeconds),
                           "Multi-set: how late a set may start before the calibration expires"),
                OptionSpec(.maxClockSkew, .seconds(allowsNone: false), default: .seconds(StoreClock.defaultMaxSkewSeconds),
                           "Refuse the run (74) when this host's clock is further off a PostgreSQL store's"),
                OptionSpec(.abandon, "Multi-set: close the bracelet's open calibration and exit"),
                OptionSpec(.force, "Multi-set: run a set on another cuff than the calibration's"),
            ] + bracelet + output + state + journal + [help],
            action: .command(BPInitCommand.run), handlesStopSignals: true, rules: braceletRules + [SubjectOption.rule] + BPInitOptions.multiSetRules),
        CommandSpec(
            words: ["wearing-opt"], summary: "Run PPG wearing optimization.",
            operands: "", operandKind: nil,
            details: "Runs special mode 4 on the bracelet, polling its status every 5 s until success (isSuccess and quality >= \(WearingOptimizationConfig.minimumSuccessQuality)) or failure, with retries.",
            exits: [.success, .failedAfterRetries, ExitCase(.usage, "usage error, or no profile to start from"),
                    ExitCase(.dataError, "the --profile file is invalid"), ExitCase(.noInput, "the --profile file is missing"),
                    ExitCase(.unavailable, "the bracelet's firmware is older than 7.0"), .braceletHeld]
                + ExitCase.bracelet + ExitCase.state + [.auditKey] + ExitCase.stdout + ExitCase.stopSignals,
            options: [
                OptionSpec(.maxAttempts, .integer(1...20), default: .integer(WearingOptimizationConfig.default.maxAttempts),
                           note: "1 disables retry", "Optimization attempts"),
                OptionSpec(.noPreparation, "Skip preparation; push the profile as it is instead"),
                OptionSpec(.profile, .path, default: .rule("the last one pushed, else the bracelet's"),
                           "The user profile as a JSON file, as 'profile push --from' reads it; - is stdin").input(),
                OptionSpec(.position, .choice(BraceletPosition.allCases.map(\.rawValue)),
                           default: .value(WearingOptimizationConfig.default.position.rawValue), "Position for the attempts"),
                skinTone, hairDensity, wrist,
            ] + bracelet + output + state + journal + [help],
            action: .command(WearingOptCommand.run), handlesStopSignals: true, rules: braceletRules),
        CommandSpec(
            words: ["cuff", "ingest"], summary: "Parse cuff dumps and app exports into reading lines.",
            operands: "[FILE...]", operandKind: .path,
            details: "Reads each FILE (or stdin, or -) and writes one normalized reading per line. Naive cuff stamps are mapped to real time with the clock anchor (phone + (record - device), elapsed seconds, no zone or DST), else read in --tz. Plausible ranges: \(IngestHelp.ranges), systolic above diastolic; a reported MAP outside diastolic-systolic is dropped with a note. Every bad record is reported as FILE:LINE: reason.",
            exits: [ExitCase(.success, "every record written (skipped lines are no error)"),
                    ExitCase(.usage, "usage error, or an input whose format cannot be told at all"),
                    ExitCase(.dataError, "some record rejected (after every good record is written), a CSV header refused, or input that is not text"),
                    ExitCase(.noInput, "a FILE is missing, unreadable or a directory")] + ExitCase.stdout + ExitCase.stopSignals,
            options: [
                OptionSpec(.from, .choice([CuffIngestCommand.autoDetect] + IngestFormat.allCases.map(\.rawValue)
                                           + CSVLayout.all.map { "csv:" + $0.name }),
                           placeholder: "FORMAT", default: .value(CuffIngestCommand.autoDetect),
                           "Input format: " + ([CuffIngestCommand.autoDetect] + IngestFormat.allCases.map(\.rawValue)).joined(separator: ", ")
                               + ", or csv:LAYOUT, a CSV export that must have that vendor layout (corsano-formats(5))"),
                OptionSpec(.encoding, .choice(TextEncoding.selectable.map(\.rawValue)), default: .rule("UTF-8, or UTF-16 by its BOM"),
                           "Text encoding of the input"),
                OptionSpec(.headerLine, .integer(1...Int(Int32.max)), default: .rule("the first row naming systolic and diastolic"),
                           "Line of the CSV header row"),
                OptionSpec(.dateOrder, .choice(CSVDateOrder.allCases.map(\.rawValue)), default: .rule("decided from the rows"),
                           "Day/month order of numeric CSV dates"),
                OptionSpec(.column, .text, placeholder: "ROLE=N|NAME", default: .rule("the header's names, then the cells"),
                           repeatable: true,
                           "Role of one CSV column (N from 1, or its exact name); ROLE is one of "
                           + CSVColumnAssignment.roles.map(\.word).joined(separator: ", ")),
                OptionSpec(.anchorDevice, .time, "Cuff clock at connect (naive YYYY-MM-DDTHH:MM:SS)"),
                OptionSpec(.anchorPhone, .time, "Real time at that moment (RFC 3339)"),
                tz,
                OptionSpec(.deriveMap, "Fill in the derived MAP when the cuff reported none"),
                OptionSpec(.cuffId, .text, placeholder: "ID", "The cuff's MAC or serial, written as each reading's cuff field"),
                OptionSpec(.format, .choice(["jsonl", "fhir"]), default: .value("jsonl"), "Reading lines, or FHIR R4 resources"),
                subjectID("Stamp every reading with this study participant (subject)"),
                strict, rejects,
            ] + fhir + [help],
            action: .command(CuffIngestCommand.run), handlesStopSignals: true,
            rules: fhirRules + [
                .excludesValue(.deriveMap, .format, ["fhir"], because: "a derived MAP is not a measurement"),
                .requires(.anchorPhone, .anchorDevice, because: "the cuff clock at that moment"),
                .requires(.anchorDevice, .anchorPhone, because: "real time at that moment"),
                .check { try CuffIngestCommand.checkValues($0) },
                SubjectOption.rule,
            ]),
        CommandSpec(
            words: ["cuff", "listen"], summary: "Read a Bluetooth cuff live through BlueZ into reading lines.",
            operands: "", operandKind: nil,
            details: "Scans until the cuff at --device appears, connects (pairing first with --pair), reads its Current Time (0x2A2B) or Date Time (0x2A08) as the clock anchor (else naive stamps are read in --tz), enables Blood Pressure Measurement (0x2A35) indications and writes each as a reading line, as 'cuff ingest' would, plus source (the cuff's address); what the cuff dumps at connect included. With --stored (Blood Pressure Service 1.1 cuffs) it first fetches the stored records through the Record Access Control Point (0x2A52; Report Stored Records, never Delete), each with its sequence, then listens for live measurements (0x2B34 when the cuff has it); after a reconnect only records after the last one received. After a disconnect it scans and connects again, until --count readings or --timeout. Connection events go to stderr. Talks to org.bluez on the system bus (\(EnvironmentVariable.dbusSystemBus.rawValue)).",
            exits: [ExitCase(.success, "--count readings written, or --timeout passed without --count"),
                    ExitCase(.cuffError, "--timeout passed with fewer than --count readings"), .usage,
                    ExitCase(.dataError, "a payload was not a reading (the other readings are written)"),
                    ExitCase(.unavailable, "the cuff is not a blood pressure cuff, or libdbus-1-3 is not installed")]
                + ExitCase.bluetooth + ExitCase.stdout + [ExitCase(.interrupted), ExitCase(.terminated)],
            options: [
                OptionSpec(.device, .text, placeholder: "MAC", required: true, "The cuff's Bluetooth address, e.g. A0:9E:1A:12:34:56"),
                adapter,
                OptionSpec(.count, .integer(1...1_000_000), "Stop after N readings written, stored history included"),
                OptionSpec(.timeout, .seconds(allowsNone: false), "Stop after this many seconds (exit 3 with fewer than --count)"),
                OptionSpec(.pair, "Pair first with a NoInputNoOutput agent (OMRON and A&D cuffs need it)"),
                tz,
                OptionSpec(.setClock, "Write the host's time to the cuff's Current Time when its clock is off"),
                OptionSpec(.stored, "Fetch the cuff's stored records first (Blood Pressure Service 1.1, RACP)"),
                OptionSpec(.storedFrom, .integer(0...65_535), placeholder: "SEQ", "With --stored: only records from this sequence number on"),
                help,
            ],
            action: .command(CuffListenCommand.run),
            rules: [.requires(.storedFrom, .stored, because: "it narrows the stored records fetched")]),
        CommandSpec(
            words: ["replay-filter"], summary: "Drop replayed, duplicate and stale readings.",
            operands: "[FILE...]", operandKind: .path,
            details: "Applies the host rules: unanchored, replayed (before --requested-at minus --backdate), duplicate (seen-set), stale (--max-reading-age). Kept lines are written byte for byte.",
            exits: [ExitCase(.success, "success, dropped readings included"), ExitCase(.cuffError, "--first with nothing kept"), .usage,
                    ExitCase(.dataError, "a malformed line (after every good line is written)"),
                    ExitCase(.noInput, "a FILE is missing, unreadable or a directory")]
                + ExitCase.state + ExitCase.stdout + ExitCase.stopSignals,
            options: [
                OptionSpec(.requestedAt, .time, "When the measurement was requested"),
                backdate, maxReadingAge,
                OptionSpec(.now, .time, default: .rule("wall time per reading"), "Judge ages at this fixed instant"),
                OptionSpec(.first, "Stop after the first kept reading; exit 3 when none"),
                OptionSpec(.scope, .text, placeholder: "NAME", default: .value(StoreSeenSet.defaultScope), "Seen-set scope in the state store"),
                strict, rejects,
            ] + state + [
                OptionSpec(.commitBytes, .integer(1...CommitBatch.maxBytes), placeholder: "BYTES", default: .integer(CommitBatch.standard.bytes),
                           "Commit the seen-set's claims per this many bytes of kept lines: what a crash may lose"),
                OptionSpec(.commitInterval, .integer(0...60_000), placeholder: "MS", default: .integer(Int(CommitBatch.standard.seconds * 1000)),
                           "Commit a batch open this long while input keeps arriving"),
                OptionSpec(.durability, .choice(StoreDurability.allCases.map(\.rawValue)), default: .value(StoreDurability.full.rawValue),
                           "full: each commit on disk before its lines are written; normal: fewer syncs, but a power cut may hand a reading on twice"),
                help,
            ],
            action: .command(ReplayFilterCommand.run), handlesStopSignals: true),
        CommandSpec(
            words: ["profile", "push"], summary: "Validate a user profile and push it to the bracelet.",
            operands: "", operandKind: nil,
            details: "Skips the push when the bracelet already holds the same profile, unless --force.",
            exits: [ExitCase(.success, "pushed, or skipped as the same"), ExitCase(.usage, "usage error, including an invalid profile field given as a flag"),
                    ExitCase(.dataError, "a bad or missing field in the --from file (file, line and field named)"),
                    ExitCase(.noInput, "the --from file is missing"), .braceletHeld]
                + ExitCase.bracelet + ExitCase.state + [.auditKey] + ExitCase.stdout,
            options: [
                OptionSpec(.from, .path, "Profile as a JSON file (same field names); flags override its fields").input(),
            ] + profileFields.map { var field = $0; field.required = true; field.requiredUnless = .from; return field } + [
                OptionSpec(.force, "Push even when the bracelet holds the same profile"),
            ] + bracelet + output + state + journal + [help],
            action: .command(ProfilePushCommand.run), rules: braceletRules),
        CommandSpec(
            words: ["bracelet", "serve"], summary: "Serve the bracelet simulator over the bridge protocol.",
            operands: "", operandKind: nil,
            details: "Speaks JSON-RPC 2.0 lines on a socket (or stdin/stdout with --stdio); each simulated bracelet keeps its state across connections.",
            exits: [ExitCase(.success, "after SIGINT, SIGTERM, SIGHUP or the end of a --stdio connection"), .usage,
                    ExitCase(.dataError, "the --scenario file is invalid (file and field named)"),
                    ExitCase(.noInput, "the --scenario file is missing"),
                    ExitCase(.ioError, "the --listen address cannot be bound or listened on (named, with why)"),
                    ExitCase(.notPermitted, "the token file cannot be used (readable by others, not this user's, too short)"), .brokenPipe],
            options: [
                OptionSpec(.listen, .uri, "unix:PATH or tcp:HOST:PORT; with --fleet, unix:DIR").excluding(.stdio),
                OptionSpec(.stdio, "Serve one connection on stdin/stdout"),
                OptionSpec(.scenario, .path, "Simulator scenario JSON (with --fleet, every bracelet's)").input(.scenario),
                OptionSpec(.fleet, .integer(1...4096), placeholder: "N",
                           "Serve N bracelets SIM-287-0001..N (bracelet i seeded --seed+i-1), each on DIR/SERIAL.sock").excluding(.stdio, .fleetScenarios),
                OptionSpec(.fleetScenarios, .directory, "Serve one bracelet per scenario file (*.json) of DIR, each on DIR/SERIAL.sock")
                    .excluding(.stdio, .scenario),
                seed("Simulator seed"),
                tokenFile("Token file clients of a tcp: listener must hold (made 0600 when missing)"),
                help,
            ],
            action: .command(BraceletServeCommand.run), handlesStopSignals: true,
            rules: [.check { if !$0.flag(.listen), !$0.flag(.stdio) { throw UsageError.missing("bracelet serve: give --listen unix:PATH|tcp:HOST:PORT, or --stdio") } },
                    // A fleet is one socket per bracelet in a directory: unix only.
                    .check { args in
                        if args.flag(.fleet) || args.flag(.fleetScenarios), let listen = args.string(.listen), !listen.hasPrefix("unix:") {
                            throw UsageError.badValue(option: "listen", value: listen, expected: "unix:DIR with --fleet or --fleet-scenarios")
                        }
                    }]),
        CommandSpec(
            words: ["bracelet", "repair"], summary: "Restore a plan a run left switched (journal repair).",
            operands: "", operandKind: nil,
            details: "Every command that reaches a bracelet restores the plan a run left switched once that run (pid, start time and boot id) is gone; this one also does so when the run cannot be confirmed gone or running, and with --force even when it still runs. A bracelet left in nibpCalibration that no journal knows (a run killed without a state store, a failed restore) is set to the plan --plan names, and only so.",
            exits: [ExitCase(.success, "the plan was restored or set, or nothing was left switched"),
                    ExitCase(.usage, "usage error (also --plan nibpCalibration)"),
                    ExitCase(.unavailable, "the bracelet is in nibpCalibration and nothing records its plan (without --plan)"),
                    ExitCase(.notYet, "the run that switched still runs or a live run holds the bracelet (without --force)")]
                + ExitCase.bracelet + ExitCase.state + [.auditKey] + ExitCase.stdout,
            options: [OptionSpec(.plan, .text, placeholder: "PLAN",
                                 "Set this plan (e.g. monitoring) when nothing records what the bracelet ran before"),
                      OptionSpec(.force, "Restore even when the run that switched still runs")] + bracelet + output + state + journal + [help],
            action: .command(BraceletRepairCommand.run), rules: braceletRules + [BraceletRepairCommand.planRule]),
        CommandSpec(
            words: ["nibp", "read"], summary: "Read the bracelet's own NIBP values as reading lines.",
            operands: "", operandKind: nil,
            details: "Writes the bracelet's stored cuffless blood-pressure values (a 287-2 measures every 30 minutes in plans with NIBP on) measured between --since and --until, all of them when neither is given, or with --spot one measurement taken now (about 2 minutes; the bridge says it is working meanwhile), as reading lines with source bracelet and the bracelet's serial: JSON lines when stdout is not a terminal, a table on one.",
            exits: [ExitCase(.success, "the values were written (none is not an error)"), .usage,
                    ExitCase(.unavailable, "the bracelet refuses (a spot measurement before or during a calibration), or its bridge lacks readNIBP or measureNIBP (named)")]
                + ExitCase.bracelet + ExitCase.stdout,
            options: [
                OptionSpec(.since, .time, default: .rule("the first stored value"), "Only values measured at or after TIME"),
                OptionSpec(.until, .time, default: .rule("now"), "Only values measured at or before TIME"),
                OptionSpec(.spot, "Take one spot measurement now instead").excluding(.since, .until),
                subjectID("Stamp every value with this study participant (subject)"),
            ] + bracelet + output + [help],
            action: .command(NIBPReadCommand.run), rules: braceletRules + [SubjectOption.rule]),
        CommandSpec(
            words: ["history"], summary: "Print the audit log of calibration runs.",
            operands: "[sign]", operandKind: .choice(["sign"]),
            details: "Each run: bracelet, time, config, every reading fed with its verdict, its signatures, and the result. 'history sign --run ID --name NAME --meaning MEANING' appends a signature record; --verify checks the audit log's hash chain.",
            exits: [ExitCase(.success, "success, also when no run is recorded (stderr says so)"),
                    ExitCase(.failedAfterRetries, "--due: some bracelet is due; --verify: a record does not match (named)"), .usage,
                    ExitCase(.dataError, "a stored run cannot be read back for FHIR, or does not verify against the audit chain (named; nothing exported); sign: the run does not verify, or approval of a run that did not succeed"),
                    ExitCase(.noInput, "sign: no such run, or a killed run (it never ends: the message names runs to sign instead); --due: the store does not exist or has no corsano tables"),
                    ExitCase(.notYet, "sign: the run has not ended (sign it when it ends)"),
                    ExitCase(.ioError, "a FHIR bulk file cannot be written")]
                + ExitCase.state + [.auditKey] + ExitCase.stdout,
            options: output + [
                OptionSpec(.format, .choice(["text", "json", "fhir"]), default: .rule("text on a terminal, else json"),
                           "Text, JSON lines, or FHIR R4 resources"),
                OptionSpec(.since, .time, "Only runs that started at or after TIME"),
                OptionSpec(.bracelet, .text, placeholder: "SERIAL", "Only runs on this bracelet"),
                OptionSpec(.gateway, .text, placeholder: "ID", "Only runs recorded by this gateway"),
                OptionSpec(.limit, .integer(1...1_000_000), placeholder: "N", "Only the N most recent runs (still oldest first)"),
                OptionSpec(.due, .integer(1...3650), placeholder: "DAYS",
                           "List the bracelets whose last successful bp-init ended more than DAYS ago, or never; exit 1 when any is due")
                    .excluding(.since, .limit),
                OptionSpec(.now, .time, default: .rule("wall time"), "The instant --due measures from"),
                OptionSpec(.verify, "Check the audit log's hash chain and HMAC; exit 1 naming the first record that does not match")
                    .excluding(.due, .format, .since, .limit, .bracelet, .gateway),
                OptionSpec(.expect, .text, placeholder: "HEAD",
                           "With --verify: a chain head kept elsewhere (RECORD:HEAD as printed, or at least 12 hex digits); passes while the chain extends it"),
                OptionSpec(.hashesOnly, "With --verify: check the hashes alone, without the audit key (says so)"),
                OptionSpec(.run, .text, placeholder: "ID", "With sign: the run to sign"),
                OptionSpec(.name, .text, placeholder: "NAME", "With sign: the signer's printed name"),
                OptionSpec(.meaning, .choice(SignatureMeaning.allCases.map(\.rawValue)), placeholder: "MEANING",
                           "With sign: what the signature means: " + SignatureMeaning.allCases.map(\.rawValue).joined(separator: ", ")),
                auditKey,
            ] + fhir + state + [help],
            action: .command(HistoryCommand.run),
            rules: [OptionKey.run, .name, .meaning].map { .requiresOperand($0, "sign") } + [
                .operand("sign", requires: [.run, .name, .meaning], refuses: [.verify, .expect, .hashesOnly, .due, .since, .limit, .bracelet, .format, .now]),
                .check { if let name = $0.string(.name), name.allSatisfy(\.isWhitespace) {
                    throw UsageError.badValue(option: "name", value: name, expected: "the signer's printed name") } },
                .excludesValue(.json, .format, ["text", "fhir"]), .excludesValue(.text, .format, ["json", "fhir"]),
                .excludesValue(.due, .format, ["fhir"]), .requires(.now, .due), .requires(.expect, .verify), .requires(.hashesOnly, .verify),
            ] + fhirRules),
        CommandSpec(
            words: ["fleet", "status"], summary: "Show every bracelet the state store knows, and what needs a person.",
            operands: "", operandKind: nil,
            details: "Reads the state store without writing it (a SQLite file is opened read-only, so a user who may only read it can run this): per bracelet its last gateway, the live run holding it (gateway, pid, lease) or a stuck journal entry (its owner gone: its process on this machine ended, or its lease ran out), its open multi-set calibration (set k of n, due from, expires), its last bp-init run and result, and whether a recalibration is due (--due DAYS, as history --due). What needs a person: a stuck entry, a calibration whose next set missed its window (overdue), a last bp-init run that failed. Text at a terminal, else JSON lines: one per bracelet, then a summary.",
            exits: [ExitCase(.success, "nothing needs a person"),
                    ExitCase(.failedAfterRetries, "some bracelet needs a person: stuck, overdue or its last run failed"), .usage,
                    ExitCase(.noInput, "the store does not exist or has no corsano tables, or --bracelet names no bracelet in it"),
                    ExitCase(.ioError, "the --metrics file cannot be written")]
                + ExitCase.state + ExitCase.stdout,
            options: [
                OptionSpec(.bracelet, .text, placeholder: "SERIAL", "Only this bracelet"),
                OptionSpec(.due, .integer(1...3650), placeholder: "DAYS", default: .integer(CalibrationDue.defaultDays),
                           "A recalibration is due when the last successful bp-init ended more than DAYS ago, or never"),
                OptionSpec(.now, .time, default: .rule("wall time"), "The instant to judge at (a rehearsal)"),
                OptionSpec(.metrics, .path, "Also write the counts as Prometheus text to FILE (replaced whole, mode 0644)"),
                output[0], output[1],
                // It reads an existing store: --no-state (an empty in-memory store) has nothing to show.
                state[0],
                help,
            ],
            action: .command(FleetStatusCommand.run)),
        CommandSpec(
            words: ["fleet", "release"], summary: "End a dead gateway's plan-journal leases (never deleting a row).",
            operands: "", operandKind: nil,
            details: "For a gateway PC that crashed, lost power or its network: its plan-journal entries keep their bracelets from other gateways until their leases run out. This ends those leases now; each row stays, with the plan to restore, and the next command that reaches its bracelet on another gateway restores the plan and records it. Refused while an owner of those entries runs on this machine; whether another machine is really down is for a person to confirm first.",
            exits: [ExitCase(.success, "the gateway's entries were released, or it had none"), .usage,
                    ExitCase(.noInput, "the store does not exist or has no corsano tables"),
                    ExitCase(.notYet, "a run of that gateway still runs on this machine (without --force)")]
                + ExitCase.state + ExitCase.stdout,
            options: [
                OptionSpec(.gateway, .text, placeholder: "NAME", required: true, "The gateway whose entries to release"),
                OptionSpec(.force, "Release even while a run of that gateway runs on this machine"),
                output[0], output[1],
                state[0],
                help,
            ],
            action: .command(FleetReleaseCommand.run)),
        CommandSpec(
            words: ["report"], summary: "Write a calibration certificate or bracelet history as HTML.",
            operands: "", operandKind: nil,
            details: "One self-contained HTML document (inline CSS and SVG, no script, nothing fetched) from the audit log, in the --lang locale, with print styles: Chromium's Print to PDF gives an A4 or Letter document with a header and 'page x of y' on every page. A certificate shows one run (--run ID, or --bracelet SERIAL: its last run): bracelet, gateway, operator, cuff, clock anchor, every reading with its verdict and category, the result, a plot, the audit chain head and the signatures. A history shows every run on --bracelet SERIAL and when the next calibration is due.",
            exits: [ExitCase(.success, "written"), .usage,
                    ExitCase(.dataError, "a run or signature shown does not verify against the audit chain (named; --print-unverified prints it marked)"),
                    ExitCase(.noInput, "the store holds no such run or no run on that bracelet, or there is no store"),
                    ExitCase(.ioError, "the output file or the audit key cannot be read or written")] + ExitCase.state + ExitCase.stdout,
            options: [
                OptionSpec(.kind, .choice(ReportKind.allCases.map(\.rawValue)), default: .value(ReportKind.certificate.rawValue),
                           "certificate (one run) or history (one bracelet)"),
                OptionSpec(.run, .text, placeholder: "ID", "The run a certificate shows"),
                OptionSpec(.bracelet, .text, placeholder: "SERIAL", "The bracelet: its last run's certificate, or its history"),
                OptionSpec(.output, .path, default: .rule("stdout"), "Write the document to FILE (replaced whole)"),
                OptionSpec(.categories, .choice(BPCategories.allCases.map(\.rawValue)), default: .value(BPCategories.default.rawValue),
                           "Blood-pressure categories drawn and named: ACC/AHA 2017 or ESH 2023"),
                reportPaper,
                OptionSpec(.due, .integer(1...3650), placeholder: "DAYS",
                           "With --kind history: the recalibration interval the next due date is counted with"),
                reportLang,
                OptionSpec(.printUnverified, "Print a run or signature that does not verify against the audit chain, marked NOT VERIFIED on every page"),
                auditKey,
                // A report reads an existing store: --no-state (an empty in-memory store) has nothing to show.
                state[0], storeWait,
                help,
            ],
            action: .command(ReportCommand.run), rules: ReportCommand.rules),
        CommandSpec(
            words: ["state", "migrate"], summary: "Copy a state store (SQLite to PostgreSQL).",
            operands: "", operandKind: nil,
            details: "Copies the seen-set (every scope), open plan-journal entries, the audit log and stored profiles from --from into --to; rows --to already holds are kept, so running it twice changes nothing.",
            exits: [ExitCase(.success, "copied, and the target's audit chain verified"),
                    ExitCase(.usage, "usage error (also --from and --to naming the same store)"),
                    ExitCase(.dataError, "the source's audit chain does not verify (nothing copied), or the target's does not after the copy"),
                    ExitCase(.noInput, "the --from file is missing or a directory"),
                    ExitCase(.ioError, "either store cannot be opened, read or written (named, never with a password)"),
                    .libraryMissing, .storeBusy, .auditKey],
            options: [
                OptionSpec(.from, .path, required: true, "The store to copy: a SQLite file (or a postgresql:// URI)"),
                OptionSpec(.to, .uri, required: true, "The store to copy into: a postgresql:// URI (or a SQLite file)"),
                auditKey, storeWait,
                help,
            ],
            action: .command(StateMigrateCommand.run)),
        CommandSpec(
            words: ["validate"], summary: "Check a device against a reference cuff: ISO 81060-2, Bland-Altman, IEEE 1708.",
            operands: "REFERENCE DEVICE", operandKind: .path,
            details: "Reads reference and device reading lines (files, or - for one of them), each with its subject (readings without one form the subject -), pairs each device value with the reference readings of its subject (sequential: the mean of the reference readings just before and after it, as ISO 81060-2's same-arm sequential method; nearest: each reference reading with the closest device value within --window), and reports for systolic and diastolic the pairs, subjects, mean difference (device - reference) and SD with criterion 1 (|mean| <= 5 mmHg, SD <= 8 mmHg), the SD of the per-subject means against criterion 2's limit, Bland-Altman bias and 95% limits with the SD for repeated measures, and the mean absolute difference with its IEEE 1708 grade. JSON lines when stdout is not a terminal (a summary, one line per subject, with --pairs one per pair), else a table.",
            exits: [ExitCase(.success, "every chosen criterion passes"), ExitCase(.failedAfterRetries, "a chosen criterion fails"),
                    ExitCase(.notAssessable, "the criteria cannot be assessed: fewer subjects or pairs than the minimum, a subject with fewer than 3 pairs, criterion 2 with one subject, an ISO 81060-2 population requirement unmet"),
                    ExitCase(.cuffError, "--live: the reference cuff gave no reading"),
                    ExitCase(.usage, "usage error (an option of --live without it, among others)"),
                    ExitCase(.dataError, "a malformed or implausible line, a device value or subject without a pair, a bad --subjects line (the summary is still written)"),
                    ExitCase(.noInput, "an input, the --subjects file, the --state store or the --cuff file cannot be read")]
                + ExitCase.bracelet + ExitCase.bluetooth + ExitCase.state + ExitCase.stdout,
            options: [
                OptionSpec(.pairing, .choice(["sequential", "nearest"]), default: .value(ValidationPairing.sequential.name),
                           "How device values meet reference readings"),
                OptionSpec(.window, .seconds(allowsNone: false), default: .seconds(Double(ValidationPairing.defaultWindowSeconds)),
                           "With --pairing nearest: the largest gap of a pair"),
                OptionSpec(.criteria, .text, placeholder: "LIST", default: .rule(ValidationCriterion.standardList),
                           "What decides the status: 1, 2 (ISO 81060-2 criteria) and ieee1708, comma-separated"),
                OptionSpec(.ieee1708Grade, .choice(["A", "B", "C"]), default: .value("A"),
                           "With ieee1708 in --criteria: the worst grade that passes"),
                OptionSpec(.minSubjects, .integer(1...100_000), placeholder: "N", default: .integer(ValidationMinimum.standard.subjects),
                           "Subjects needed (and 3 pairs each) before the criteria are assessed"),
                OptionSpec(.pairs, "Also write one line per pair"),
                OptionSpec(.subjects, .path, "Per subject: id, sex, age, arm circumference, cuff (CSV or JSON lines): ISO 81060-2's population check")
                    .input(),
                OptionSpec(.state, .path, "The audit log (a SQLite file or postgresql:// URI): differences by days since each bracelet's last calibration"),
                storeWait,
                OptionSpec(.live, "Drive the same-arm sequence now: cuff readings and bracelet spot checks, then the summary")
                    .excluding(.state, .subjects),
                OptionSpec(.sequence, .text, placeholder: "R,T,...", default: .rule(ValidationSequence.standard),
                           "With --live: R (cuff) and T (bracelet) alternating from R to R"),
                OptionSpec(.cuff, .path, default: .rule("- when stdin is not a terminal, else typed"),
                           "With --live: the reference cuff: reading lines from FILE or -, ble:MAC, or sim: / sim:SCENARIO.json")
                    .excluding(.cuffCmd).input(.cuffSource),
                OptionSpec(.cuffCmd, .command, "With --live: run CMD once per cuff reading; first valid line of its stdout is the reading"),
                OptionSpec(.cuffTimeout, .seconds(allowsNone: false), default: .integer(BPInitializationConfig.defaultCuffTimeoutSeconds),
                           "With --live: real-time wait for one cuff reading"),
                adapter, tz,
                subjectID("With --live: the subject measured (stamps every reading; picks the sim: cuff's subject)"),
                OptionSpec(.referenceOut, .path, "With --live: also write the reference readings to FILE"),
                OptionSpec(.deviceOut, .path, "With --live: also write the device values to FILE"),
                OptionSpec(.report, .path, "Also write the validation report to FILE: one HTML document"),
                reportPaper,
            ] + bracelet + output + [help],
            action: .command(ValidateCommand.run), rules: ValidateCommand.rules),
        CommandSpec(
            words: ["repl"], summary: "Interactive shell over the same commands.",
            operands: "", operandKind: nil,
            details: "GNU readline line editing, history and completion; reads commands line by line when stdin is not a terminal.",
            exits: [ExitCase(.success, "every line succeeded, or quit or end of input on a terminal"),
                    ExitCase(.failedAfterRetries, "standard input is not a terminal and some line failed; with --bail, the first failing line's own status instead"),
                    .usage, ExitCase(.noInput, "the --bracelet scenario is missing")] + ExitCase.state + ExitCase.stdout,
            options: [
                OptionSpec(.bail, "Stop at the first failing command with its exit status"),
                OptionSpec(.bracelet, .uri, default: .value(BraceletAddress.defaultURI), environment: .bracelet,
                           "Bracelet to connect to").input(.braceletURI),
            ] + state + [help],
            action: .command(REPLCommand.run), handlesStopSignals: true),
        CommandSpec(
            words: ["completion"], summary: "Print a shell completion script.",
            operands: "bash|zsh|fish", operandKind: .choice(["bash", "zsh", "fish"]),
            details: "Generated from the command table.",
            exits: [.success, ExitCase(.usage, "no shell, or an unknown one")] + ExitCase.stdout,
            options: [help],
            action: .command(CompletionCommand.run)),
        CommandSpec(
            words: ["help"], summary: "Show help for a command.",
            operands: "[COMMAND]", operandKind: nil,
            details: "Without COMMAND, lists every command; with a group word (cuff, profile, bracelet, nibp, fleet), lists its subcommands. Same text as 'corsano COMMAND --help'.",
            exits: [.success, ExitCase(.usage, "an unknown command")] + ExitCase.stdout,
            options: [help],
            action: .command(HelpCommand.run)),
    ])

    /// `--quiet`, which every command takes: no closing counts or notes on stderr.
    static let quiet = OptionSpec(.quiet, "No closing counts or notes on stderr; errors and rejected or dropped records are still reported")
    /// `-v`/`--verbose`: what corsano decided and why; `-vv`, every bridge exchange and
    /// store statement too (docs/design.md "Diagnostics"). `--quiet` on the line overrides the variable.
    static let verbose = OptionSpec(.verbose, environment: .verbose, repeatable: true,
                                    "Say on stderr what corsano decided and why; -vv also every bridge request and store statement")
        .short("v").excluding(.quiet)

    /// The options every command takes but `help` and `completion` (which write no notes: an
    /// option that does nothing for a command is not offered by it). Described once, in corsano(1)
    /// "Options every command takes"; `CommandRunner` applies them before the command runs.
    /// A new one costs this list, the runner, corsano(1), a test and the regenerated completions.
    static let common: [OptionSpec] = [quiet, verbose, columns]
    /// True for `-v`, `-vv` (any number of v) and `--verbose`.
    static func isVerbose(_ word: String) -> Bool {
        word == "--verbose" || (word.count > 1 && word.first == "-" && word.dropFirst().allSatisfy { $0 == "v" })
    }
    /// The common options' own rule: `CORSANO_VERBOSE` must name a level (64 before anything opens).
    static let commonRules: [OptionRule] = [.check { args in _ = try CommandRunner.verbosity(args) }]
    /// The width help, diagnostics and text are laid out for, as `COLUMNS` gives it (which it overrides).
    static let columns = OptionSpec(.columns, .integer(20...1000), default: .rule("COLUMNS, else the terminal's width, else 80"),
                                    "Lay out help, diagnostics and human text for N columns")

    /// `specs` with the `common` options added to each, before `--help`; not to `help` and `completion`.
    private static func withCommon(_ specs: [CommandSpec]) -> [CommandSpec] {
        specs.map { spec in
            var spec = spec
            if spec.words == ["help"] || spec.words == ["completion"] { return spec }
            let at = spec.options.firstIndex { $0.name == help.name } ?? spec.options.endIndex
            spec.options.insert(contentsOf: common, at: at)
            spec.rules += commonRules
            return spec
        }
    }

    /// What is wrong with `commands` as a table (empty when nothing): the checks
    /// swift-argument-parser runs on a command tree. Two commands with the same words, two
    /// options of a command with the same name, a default that the option's own value kind
    /// refuses, a choice default outside its choices, a required flag or one with a default that
    /// takes no value, and — where `session` says which kind of handler the table's commands must
    /// have — a command run by the wrong kind.
    static func problems(in commands: [CommandSpec], sessionCommands: Bool = false) -> [String] {
        var problems: [String] = []
        var names = Set<String>()
        for spec in commands {
            if !names.insert(spec.name).inserted { problems.append("command '\(spec.name)' is listed twice") }
            switch (spec.action, sessionCommands) {
            case (.command, false), (.session, true): break
            case (.command, true): problems.append("\(spec.name): a REPL session command runs with a command handler")
            case (.session, false): problems.append("\(spec.name): a table command runs with a session handler")
            }
            var options = Set<String>()
            for option in spec.options {
                if !options.insert(option.name).inserted { problems.append("\(spec.name): --\(option.name) is listed twice") }
                // (A repeatable flag is a count, which its variable may give: -v and CORSANO_VERBOSE.)
                if option.value == nil, option.defaultValue != nil || option.required || (option.environment != nil && !option.repeatable) {
                    problems.append("\(spec.name): --\(option.name) takes no value but has a default, an environment variable or is required")
                }
                if case .value(let text)? = option.defaultValue, let kind = option.value, !kind.accepts(text) {
                    problems.append("\(spec.name): --\(option.name)'s default '\(text)' is not a \(kind.placeholder)")
                }
            }
        }
        return problems
    }

    /// The command whose words start `argv` (longest match), and how many words it used.
    static func lookup(_ argv: [String], in commands: [CommandSpec] = commands) -> (CommandSpec, Int)? {
        commands
            .filter { argv.count >= $0.words.count && Array(argv.prefix($0.words.count)) == $0.words }
            .max { $0.words.count < $1.words.count }
            .map { ($0, $0.words.count) }
    }
}

/// Enum value lists of the profile fields, from the core's types.
enum UserProfileChoices {
    static let wrist = UserProfile.Wrist.allCases.map(\.rawValue)
    static let gender = UserProfile.Gender.allCases.map(\.rawValue)
    static let unit = UserProfile.UnitPreference.allCases.map(\.rawValue)
    static let hairDensity = UserProfile.HairDensity.allCases.map(\.rawValue)
}

/// The locales of human text (seed: "Localization").
enum Locales {
    static let all = AppLocale.allCases.map(\.tag)
}
