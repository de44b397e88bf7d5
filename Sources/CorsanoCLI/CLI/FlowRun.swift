import CorsanoKit

/// What a flow command (bp-init, wearing-opt) hands the part of it that runs on the connected
/// bracelet, as one value instead of a dozen parameters (issue 23): the typed options, the
/// process context, how events are written, the store and this gateway's claim on it, the run's
/// id and the stop-signal handling.
struct FlowRun {
    let args: ParsedCommand
    let ctx: CommandContext
    let mode: OutputMode
    let store: any StateStore
    let ownership: PlanJournal.Ownership
    /// The run id the journal, the audit log and the events share (`RunID.make`).
    let id: String
    let signals: SignalHandling
}
