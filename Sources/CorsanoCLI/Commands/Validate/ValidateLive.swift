import CorsanoKit

/// `corsano validate --live`: drives the same-arm sequence on one subject — a reference
/// cuff reading, then a bracelet spot check (`measureNIBP`), and so on (`LiveValidation` in the
/// core) — writing each step as an event line, the readings to `--reference-out`/`--device-out`,
/// and the summary at the end, as the offline command would for those two files.
enum ValidateLive {
    static let flow = FlowName.validate

    static func run(_ args: ParsedCommand, _ ctx: CommandContext, options: ValidateCommand.Options, mode: OutputMode) async throws -> ExitStatus {
        // The rules between options (operands, --state, --pairing, --sequence, the cuff) are the
        // table's (ValidateCommand.rules), checked before anything opens.
        let sequence = try ValidationSequence.parse(args.string(.sequence) ?? ValidationSequence.standard).get()
        guard let subject = try SubjectOption.value(args) else { throw UsageError.missing("validate --live: --subject-id is required (the subject measured)") }
        let timeout = try BPInitOptions.cuffTimeout(args)
        // bp-init's cuff sources (66 for an unreadable file before the bracelet is touched); a
        // Bluetooth cuff stamps in real time, so the run's clock is real unless said otherwise.
        var bracelet = try BraceletConnector.prepare(args, ctx, defaultClock: BPInitOptions.readsBluetoothCuff(args) ? "real" : nil)
        let choice = try BPInitOptions.cuff(args, stdinIsTerminal: ctx.stdinIsTerminal)
        try bracelet.readScenario()
        let inProcess = try BPInitOptions.simulatedCuffScenario(choice, bracelet: bracelet, subject: subject)
        let referenceOut = try args.string(.referenceOut).map(OutputFile.create)
        let deviceOut = try args.string(.deviceOut).map(OutputFile.create)
        let localizer = EventSinks.localizer(args, ctx)
        let prompts = PromptOutput(writer: mode == .text ? ctx.stdout : ctx.stderr, layout: EventSinks.promptLayout(args, ctx, mode: mode))
        // The operator is prompted before each step when a person is at a terminal.
        let operatorThere = ctx.stdinIsTerminal || ctx.stderrIsTerminal
        let session = try await BraceletSession.connect(bracelet.target, flow: flow)
        let result: (reference: [CuffReading], device: [CuffReading])
        var bluetooth: BLECuffSource?
        do {
            let built = try await BPInitOptions.cuffSource(choice, simulated: inProcess, args, ctx, session: session, timeout: timeout,
                                                           localizer: localizer, prompts: prompts, mode: mode)
            let cuff = built.cuff
            bluetooth = built.bluetooth
            var count = 0
            result = try await LiveValidation(sequence: sequence, subject: subject).run(
                reference: {
                    count += 1
                    switch try await cuff.next(for: CuffRequest(attempt: 1, index: count, requestedAt: session.clock.now())) {
                    case .reading(let r): return r
                    case .failed(let e): throw LiveValidationError.cuff(String(describing: e))
                    case .invalid(_, let problem): throw LiveValidationError.cuff(problem)
                    }
                },
                device: {
                    let value = try await session.bracelet.measureNIBP()
                    session.clock.advance(to: value.measuredAt)
                    return value.reading(serial: session.identity.serial, subject: subject)
                },
                pause: { try await session.clock.sleep(seconds: LiveValidation.intervalSeconds) },
                now: { session.clock.now() },
                report: { event in
                    if operatorThere, case .stepStarted(let i, let step) = event {
                        ctx.stdout.flush()
                        prompts.tell(localizer.string(step == .reference ? .validateTakeCuffReading : .validateKeepStill,
                                                      [String(i), String(sequence.steps.count)]))
                    }
                    if case .stepMeasured(_, let step, let reading) = event {
                        (step == .reference ? referenceOut : deviceOut)?.line(reading.jsonLine())
                    }
                    switch mode {
                    case .json: ctx.stdout.line(event.json.serialized)
                    case .text:
                        if case .stepMeasured(let i, let step, let r) = event {
                            ctx.stdout.line("step \(i)/\(sequence.steps.count) \(step == .reference ? "cuff" : "bracelet"): \(r.systolic)/\(r.diastolic) mmHg")
                        }
                    }
                    ctx.stdout.flush()
                })
        } catch let error as LiveValidationError {
            // The cuff, not the bracelet, failed: bp-init's cuffError status (3).
            await bluetooth?.close()
            await session.bracelet.close()
            referenceOut?.flush(); deviceOut?.flush()
            ctx.diagnose(error.message)
            return .cuffError
        } catch {
            await bluetooth?.close()
            await session.bracelet.close()
            referenceOut?.flush(); deviceOut?.flush()
            throw error
        }
        await bluetooth?.close()
        await session.bracelet.close()
        referenceOut?.flush(); deviceOut?.flush()
        var inputs = [ValidationInput(), ValidationInput()]
        for (i, readings) in [result.reference, result.device].enumerated() {
            for (n, r) in readings.enumerated() { inputs[i].add(.success(.reading(r)), origin: (i == 0 ? "reference" : "device") + ":\(n + 1)") }
        }
        let summary = ValidateCommand.summarize(inputs, pairing: .sequential, options, subjects: nil)
        ValidateCommand.write(summary, options, mode, ctx)
        try ValidateCommand.writeReport(summary, options, args, ctx)
        return ValidateCommand.status(summary, inputs, nil, options, ctx)
    }
}

/// A live step that gave no reading.
enum LiveValidationError: Error {
    case cuff(String)
    var message: String {
        switch self { case .cuff(let why): return "validate --live: the reference cuff gave no reading: \(why)" }
    }
}
