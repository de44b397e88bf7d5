extension BridgeClient {
    /// Sends `method` and waits for its result.
    /// - Parameters:
    ///   - timeout: seconds to wait (nil: no limit, for simulator holds).
    ///   - onTimeout: what a timeout means; `.disconnected` also takes the link down.
    ///   - long: a method documented as long (`enterStep`): `working` restarts its timeout, up
    ///     to `workingCap` in all; any other method's timeout is absolute.
    /// - Throws: `BraceletError`, `BridgeProtocolError`, `CancellationError`.
    ///   - cap: a long method's own cap, seconds (default `workingCap`).
    func call(_ method: String, _ params: [(String, JSONValue)] = [], timeout: Double?,
              onTimeout: BraceletError = .disconnected, long: Bool = false, cap capSeconds: Double? = nil) async throws -> BridgeParams {
        guard diagnostics.wants(.debug) else {
            return try await exchange(method, params, timeout: timeout, onTimeout: onTimeout, long: long, cap: capSeconds) { _ in }
        }
        var sentID = 0
        let start = ContinuousClock.now
        do {
            let answer = try await exchange(method, params, timeout: timeout, onTimeout: onTimeout, long: long, cap: capSeconds) { id in
                sentID = id
                diagnostics.debug(.bridge, "request \(method) id \(id)")
            }
            diagnostics.debug(.bridge, "answer \(method) id \(sentID): ok, \(Diagnostics.milliseconds(start.duration(to: .now)))")
            return answer
        } catch {
            diagnostics.debug(.bridge, "answer \(method) id \(sentID): \(Self.outcome(error)), \(Diagnostics.milliseconds(start.duration(to: .now)))")
            throw error
        }
    }

    /// What became of a call, for `-vv`: the error's kind, never a parameter.
    private static func outcome(_ error: any Error) -> String {
        switch error {
        case is CancellationError: return "cancelled"
        case let error as BraceletError: return "failed (\(error))"
        case let error as BridgeProtocolError: return "malformed (\(error))"
        default: return "failed (\(type(of: error)))"
        }
    }

    /// `call` without its diagnostics: sends the request (`sending` hears its id) and waits.
    private func exchange(_ method: String, _ params: [(String, JSONValue)], timeout: Double?, onTimeout: BraceletError,
                          long: Bool, cap capSeconds: Double?, sending: (Int) -> Void) async throws -> BridgeParams {
        var params = params
        if let clock = clock.withLock({ $0 }) { params.append(("at", .string(RFC3339.format(clock.now())))) }
        if let holder = holder.withLock({ $0 }) { params.append(("holder", BridgeCodec.holder(holder))) }
        let cap = long ? ContinuousClock.now.advanced(by: .seconds(capSeconds ?? Self.workingCap)) : nil
        let id = state.withLock { s -> Int in
            s.nextID += 1
            return s.nextID
        }
        let line = BridgeMessage.request(id: id, method: method, params: params)
        sending(id)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<BridgeParams, any Error>) in
                let refusal = state.withLock { s -> (any Error)? in
                    if !s.linkUp { return BraceletError.disconnected }
                    if Task.isCancelled { return CancellationError() }
                    s.pending[id] = c
                    if let timeout {
                        s.deadlines[id] = (timeout, onTimeout, cap)
                        s.timers[id] = timer(id, timeout, onTimeout)
                    }
                    return nil
                }
                if let refusal { c.resume(throwing: refusal); return }
                do { try connection.send(line) } catch { expire(id, .disconnected) }
            }
        } onCancel: {
            if abandon(id) != nil {
                try? connection.send(BridgeMessage.request(id: nil, method: "cancel", params: [("id", .int(id))]))
            }
        }
    }

    /// The timer of call `id`: `expire` after `timeout` seconds unless cancelled first.
    private func timer(_ id: Int, _ timeout: Double, _ onTimeout: BraceletError) -> Task<Void, Never> {
        Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
            if !Task.isCancelled { self?.expire(id, onTimeout) }
        }
    }

    /// The bridge says it still works on call `id` (`working`, sent while a simulator holds a
    /// step): the timeout of a long method starts again, never past its cap; other methods'
    /// timeouts run on. Silence past the timeout stays a disconnect.
    private func stillWorking(on id: Int) {
        let old = state.withLock { s -> Task<Void, Never>? in
            guard s.pending[id] != nil, let (timeout, onTimeout, cap) = s.deadlines[id], let cap else { return nil }
            let left = ContinuousClock.now.duration(to: cap)
            guard left > .zero else { return nil }
            let seconds = min(timeout, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18)
            defer { s.timers[id] = timer(id, seconds, onTimeout) }
            return s.timers[id]
        }
        old?.cancel()
    }

    /// Fails call `id` with `CancellationError` (when still pending) and stops its timer.
    private func abandon(_ id: Int) -> CheckedContinuation<BridgeParams, any Error>? {
        let (c, timer) = state.withLock { s in
            s.deadlines[id] = nil
            return (s.pending.removeValue(forKey: id), s.timers.removeValue(forKey: id))
        }
        timer?.cancel()
        if let c { c.resume(throwing: CancellationError()) }
        return c
    }

    /// Call `id` ran out of time: fails it with `error`; a disconnect takes the link down.
    func expire(_ id: Int, _ error: BraceletError) {
        // The link goes down before any caller resumes, so a caller never sees a live link
        // after its request failed as a disconnect.
        if error == .disconnected { return linkDown() }
        let (c, timer) = state.withLock { s in
            s.deadlines[id] = nil
            return (s.pending.removeValue(forKey: id), s.timers.removeValue(forKey: id))
        }
        timer?.cancel()
        c?.resume(throwing: error)
    }

    /// One line from the bridge: a response, or the `disconnected` notification. A line that is
    /// not a message, or one over the length bound, cannot be matched to its call: the link is
    /// treated as broken.
    func receive(_ inbound: LineConnection.Inbound) {
        guard case .line(let line) = inbound else { return linkDown() }
        if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return }
        guard let message = try? BridgeMessage(line: line) else { return linkDown() }
        if message.id == nil {
            if message.method == "disconnected" { linkDown() }
            if message.method == "working", let id = try? message.params.int("id") {
                stillWorking(on: id)
                workingObserver.withLock { o in defer { o = nil }; return o }?()
            }
            return
        }
        guard let id = message.id, message.method == nil else { return }
        let (c, timer) = state.withLock { s in
            s.deadlines[id] = nil
            return (s.pending.removeValue(forKey: id), s.timers.removeValue(forKey: id))
        }
        timer?.cancel()
        guard let c else { return }  // a late answer to a call that timed out or was cancelled
        if let error = message.error {
            let braceletError = BridgeErrorCode.decode(code: error.code, message: error.message, data: message.errorData)
            if braceletError == .disconnected { linkDown() }
            c.resume(throwing: braceletError)
        } else {
            c.resume(returning: BridgeParams(message.result ?? .null))
        }
    }

    /// The link is gone (EOF, reset, `disconnected`, a timed-out request): every pending and later
    /// call fails with `.disconnected`.
    func linkDown() {
        let (calls, timers) = state.withLock { s -> ([CheckedContinuation<BridgeParams, any Error>], [Task<Void, Never>]) in
            s.linkUp = false
            defer { s.pending.removeAll(); s.timers.removeAll(); s.deadlines.removeAll() }
            return (Array(s.pending.values), Array(s.timers.values))
        }
        timers.forEach { $0.cancel() }
        calls.forEach { $0.resume(throwing: BraceletError.disconnected) }
        connection.close()
    }
}
