import CorsanoKit

/// `corsano validate --live` (issue 34): drives the same-arm sequence on one subject — a reference
/// cuff reading, then a bracelet spot check (`measureNIBP`), and so on (`LiveValidation` in the
/// core) — writing each step as an event line, the readings to `--reference-out`/`--device-out`,
/// and the summary at the end, as the offline command would for those two files.
enum ValidateLive {
    static let flow = "validate"

    static func run(_ args: ParsedCommand, _ ctx: CommandContext, options: ValidateCommand.Options, mode: OutputMode) async throws -> ExitStatus {
        // The rules between options (operands, --state, --pairing, --sequence, a sim: cuff) are
        // the table's (ValidateCommand.rules), checked before anything opens.
        let sequence = try ValidationSequence.parse(args.string(.sequence) ?? ValidationSequence.standard).get()
        guard let subject = try SubjectOption.value(args) else { throw UsageError.missing("validate --live: --subject-id is required (the subject measured)") }
        let choice = try BPInitOptions.cuff(args, stdinIsTerminal: ctx.stdinIsTerminal)
        guard case .simulated = choice else { throw UsageError.conflict("validate --live: --cuff takes sim: or sim:SCENARIO.json") }
        var bracelet = try BraceletConnector.prepare(args, ctx)
        try bracelet.readScenario()
        let inProcess = try BPInitOptions.simulatedCuffScenario(choice, bracelet: bracelet, subject: subject)
        let referenceOut = try args.string(.referenceOut).map(OutputFile.create)
        let deviceOut = try args.string(.deviceOut).map(OutputFile.create)
        let session = try await BraceletSession.connect(bracelet.target, flow: flow)
        let result: (reference: [CuffReading], device: [CuffReading])
        do {
            let cuff = try await BPInitOptions.simulatedCuff(inProcess, subject: subject, seed: bracelet.seed, session: session)
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
                report: { event in
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
            await session.bracelet.close()
            referenceOut?.flush(); deviceOut?.flush()
            ctx.diagnose(error.message)
            return .cuffError
        } catch {
            await session.bracelet.close()
            referenceOut?.flush(); deviceOut?.flush()
            throw error
        }
        await session.bracelet.close()
        referenceOut?.flush(); deviceOut?.flush()
        var inputs = [ValidationInput(), ValidationInput()]
        for (i, readings) in [result.reference, result.device].enumerated() {
            for (n, r) in readings.enumerated() { inputs[i].add(.success(.reading(r)), origin: (i == 0 ? "reference" : "device") + ":\(n + 1)") }
        }
        let paired = ValidationPairs(reference: inputs[0].readings, device: inputs[1].readings, rule: .sequential)
        let summary = ValidationSummary(paired: paired, pairing: .sequential, minimum: options.minimum)
        ValidateCommand.write(summary, options, mode, ctx)
        try ValidateCommand.writeReport(summary, options, args, ctx)
        return ValidateCommand.status(summary, inputs, options, ctx)
    }
}

/// A live step that gave no reading.
enum LiveValidationError: Error {
    case cuff(String)
    var message: String {
        switch self { case .cuff(let why): return "validate --live: the reference cuff gave no reading: \(why)" }
    }
}
