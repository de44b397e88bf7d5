import Synchronization

/// One served connection: parses requests, runs each in its own task on the simulated bracelet,
/// writes responses, and sends `disconnected` once when the simulated link drops.
final class BridgeSession: Sendable {
    let connection: LineConnection
    let bracelet: SimulatedBracelet
    private let tasks = Mutex<[Int: Task<Void, Never>]>([:])
    private let notified = Mutex(false)

    init(connection: LineConnection, bracelet: SimulatedBracelet) {
        self.connection = connection
        self.bracelet = bracelet
    }

    /// Handles one line (on the reader thread, so the clock advances in arrival order); a line
    /// over the length bound is answered with an invalid-request error and the session reads on.
    func receive(_ inbound: LineConnection.Inbound) {
        let line: String
        switch inbound {
        case .line(let text): line = text
        case .tooLong(let number, let count):
            reply(BridgeMessage.errorResponse(id: nil, code: BridgeErrorCode.invalidRequest,
                                              message: "line \(number) of \(count) bytes exceeds the \(connection.maxLineLength)-byte limit"))
            return
        }
        if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return }
        guard let message = try? BridgeMessage(line: line), let method = message.method else {
            reply(BridgeMessage.errorResponse(id: nil, code: BridgeErrorCode.parse, message: "not a JSON-RPC 2.0 request"))
            return
        }
        guard let id = message.id else {
            if method == "cancel", let target = try? message.params.int("id") {
                tasks.withLock { $0.removeValue(forKey: target) }?.cancel()
            }
            return
        }
        if message.params.has("at") {
            guard let at = try? message.params.string("at"), let instant = RFC3339.parseInstant(at) else {
                reply(BridgeMessage.errorResponse(id: id, code: BridgeErrorCode.invalidParams, message: "invalid params: at"))
                return
            }
            advance(to: instant)
        }
        if message.params.has("holder") {
            guard let holder = try? BridgeCodec.holder(message.params.object("holder")) else {
                reply(BridgeMessage.errorResponse(id: id, code: BridgeErrorCode.invalidParams, message: "invalid params: holder"))
                return
            }
            bracelet.name(holder: holder)
        }
        let silence = SimulatedSilence()
        let task = Task { [self] in
            let line = await SimulatedSilence.$current.withValue(silence) {
                await respond(id: id, method: method, params: message.params)
            }
            silence.answered()
            tasks.withLock { _ = $0.removeValue(forKey: id) }
            if let line { reply(line) }
            notifyIfLinkDropped()
        }
        tasks.withLock { $0[id] = task }
        keepAlive(id, silence: silence)
    }

    /// Seconds between two `working` notifications for a request still unanswered: below the
    /// smallest `--request-timeout` (1 s), so a held step never looks like a silent bridge.
    static let workingInterval = 0.25

    /// While request `id` runs (a held step), says so with `{"method":"working","params":{"id":N}}`
    /// every `workingInterval`, unless the scenario made it silent (`faults.silentAtStep`).
    private func keepAlive(_ id: Int, silence: SimulatedSilence) {
        Task { [self] in
            while true {
                try? await Task.sleep(nanoseconds: UInt64(Self.workingInterval * 1_000_000_000))
                guard !silence.isAnswered, tasks.withLock({ $0[id] != nil }), !silence.isSilent else { return }
                reply(BridgeMessage.request(id: nil, method: "working", params: [("id", .int(id))]))
            }
        }
    }

    private func advance(to instant: Instant) {
        bracelet.clock.advance(to: instant)
    }

    /// The response line of one request; nil when it was cancelled (nobody waits for it).
    private func respond(id: Int, method: String, params: BridgeParams) async -> String? {
        do {
            return BridgeMessage.response(id: id, result: try await dispatch(method, params))
        } catch let error as BraceletError {
            let (code, message, data) = BridgeErrorCode.encode(error)
            return BridgeMessage.errorResponse(id: id, code: code, message: message, data: data)
        } catch BridgeProtocolError.invalidParams(let key) {
            return BridgeMessage.errorResponse(id: id, code: BridgeErrorCode.invalidParams, message: "invalid params: \(key)")
        } catch BridgeSessionError.unknownMethod {
            return BridgeMessage.errorResponse(id: id, code: BridgeErrorCode.methodNotFound, message: "method not found: \(method)")
        } catch {
            return nil
        }
    }

    private func reply(_ line: String) { try? connection.send(line) }

    private func notifyIfLinkDropped() {
        guard !bracelet.isConnected, !notified.withLock({ let was = $0; $0 = true; return was }) else { return }
        reply(BridgeMessage.request(id: nil, method: "disconnected", params: [("reason", .string("bracelet link dropped"))]))
    }

    /// Input ended: every request is cancelled, which ends held ones unanswered; the others finish
    /// and are answered while the write side lives (`--stdio` with stdin closed).
    func finish() async {
        let running = tasks.withLock { t -> [Task<Void, Never>] in
            defer { t.removeAll() }
            return Array(t.values)
        }
        running.forEach { $0.cancel() }
        for task in running { await task.value }
        // A hold ends with its connection (a SIGKILLed client frees the bracelet; the plan stays
        // for the journal, or for `bracelet repair --plan`).
        bracelet.releaseHold()
    }
}

enum BridgeSessionError: Error { case unknownMethod }
