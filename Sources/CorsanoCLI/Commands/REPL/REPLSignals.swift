/// The REPL's stop signals for its whole life (flows in it do not install their own, see
/// `SignalHandling.hostInREPL`), read through `ProcessSignals` (outside signal context).
enum REPLSignals {
    /// Sends `signals` to `onSignal` for each delivery.
    static func install(_ signals: [Int32], onSignal: @escaping @Sendable (Int32) -> Void) {
        ProcessSignals.shared.route(signals) { signo, _ in onSignal(signo) }
        SignalHandling.hostInREPL()
    }
}
