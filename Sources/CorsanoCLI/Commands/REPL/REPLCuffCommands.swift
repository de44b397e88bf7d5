import CorsanoKit
import Synchronization

/// The REPL's Bluetooth cuff commands, as in bluetoothctl: `cuff scan` lists what is on the
/// air, `cuff connect MAC` checks a cuff once and makes it the session's cuff for bp-init.
enum REPLCuffCommands {
    static let defaultScanSeconds = 10
    static let defaultConnectSeconds = 30

    /// `cuff scan [--timeout S] [--adapter NAME]`. - Throws: `CuffCollector.Failure`, `BluetoothError`.
    static func scan(_ args: ParsedCommand, _ ctx: CommandContext) async throws {
        let seconds = try CuffLinkOptions.positiveSeconds(args, .timeout) ?? defaultScanSeconds
        let central = try BlueZCentral.connect(busAddress: CuffLinkOptions.busAddress(ctx.environment))
        let signals = SignalHandling.install()
        let result = await signals.run { () -> Result<(String, [BluetoothDevice]), any Error> in
            do {
                let adapter = try await CuffCollector.adapter(of: central, named: args.string(.adapter))
                let text = ctx.forText
                text.writeText("scanning on \(adapter.name) for \(seconds) s...", on: text.stdout)
                text.stdout.flush()
                return .success((adapter.name, try await BluetoothScan.run(central, adapter: adapter, duration: .seconds(seconds))))
            } catch {
                return .failure(error)
            }
        }
        signals.uninstall()
        await central.close()
        let (adapter, found) = try result.get()
        let lines = found.map { device in
            device.address + "  " + (device.name ?? "(no name)") + (BluetoothScan.isCuff(device) ? "  blood pressure cuff" : "")
                + (device.paired ? "  paired" : "")
        }
        let devices = found.map { device in
            JSONValue.object([("address", .string(device.address)), ("name", device.name.map(JSONValue.string) ?? .null),
                              ("cuff", .bool(BluetoothScan.isCuff(device))), ("paired", .bool(device.paired))])
        }
        REPLReply(reply: "cuff-scan", fields: [("adapter", .string(adapter)), ("devices", .array(devices))],
                  text: lines.isEmpty ? ["no Bluetooth device seen"] : lines).write(ctx)
    }

    /// `cuff connect MAC [--timeout S] [--adapter NAME] [--pair]`: returns the session's cuff.
    /// The connection lines go where text for a person goes; the reply says which cuff it is.
    /// - Throws: `UsageError` (bad address), `CuffCollector.Failure` (not seen: adapter absent),
    ///   `BluetoothError`.
    static func connect(_ args: ParsedCommand, _ ctx: CommandContext) async throws -> (address: String, adapter: String?) {
        let address = try CuffLinkOptions.address(args.operands[0], option: "MAC")
        let seconds = try CuffLinkOptions.positiveSeconds(args, .timeout) ?? defaultConnectSeconds
        let zone = try CuffIngestCommand.zone(args, ctx.environment)
        let central = try BlueZCentral.connect(busAddress: CuffLinkOptions.busAddress(ctx.environment))
        let collector = CuffCollector(central: central, config: .init(address: address, adapterName: args.string(.adapter),
                                                                      pair: args.flag(.pair), zone: zone),
                                      now: CommandContext.wallClock)
        let messages = CuffLinkMessages(address: address, zone: zone, progress: false, prefix: "cuff: ")
        let signals = SignalHandling.install()
        let text = ctx.forText
        let outcome = await signals.run {
            await connectOnce(collector, seconds: seconds) { event in
                for line in messages.say(event).lines { text.writeText(line, on: text.stdout) }
            }
        }
        signals.uninstall()
        await collector.shutdown()
        switch outcome {
        case .connected(let name):
            let adapter = args.string(.adapter)
            REPLReply(reply: "cuff-connect", fields: [("cuff", .string(address)), ("name", name.map(JSONValue.string) ?? .null),
                                                      ("adapter", adapter.map(JSONValue.string) ?? .null)],
                      text: ["\(address) is the cuff of the following bp-init runs (--cuff ble:\(address))"]).write(ctx)
            return (address, adapter)
        case .failed(let error):
            throw error
        case .interrupted:
            throw CancellationError()
        case .timedOut:
            throw CuffCollector.Failure.adapterAbsent("cuff connect: \(address) was not seen within \(seconds) s")
        }
    }

    private enum Outcome { case connected(name: String?), timedOut, interrupted, failed(any Error) }

    /// Runs `collector` until it is connected (indications on), fails, or `seconds` pass.
    private static func connectOnce(_ collector: CuffCollector, seconds: Int,
                                    report: @escaping @Sendable (CuffCollector.Event) -> Void) async -> Outcome {
        let stop = ListenStop()
        let name = Mutex<String?>(nil)
        let task = Task {
            do {
                try await collector.run { event in
                    report(event)
                    if case .connected(let connected) = event {
                        name.withLock { $0 = connected }
                        stop.stop(.count)
                    }
                }
            } catch let failure as CuffCollector.Failure {
                stop.stop(.failure(failure))
            } catch {}
        }
        stop.attach(task)
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            if !Task.isCancelled { stop.stop(.timeout) }
        }
        await withTaskCancellationHandler { await task.value } onCancel: { stop.stop(.interrupted) }
        timer.cancel()
        switch stop.reason {
        case .count: return .connected(name: name.withLock { $0 })
        case .failure(let failure): return .failed(failure)
        case .interrupted: return .interrupted
        case .timeout, nil: return .timedOut
        }
    }
}
