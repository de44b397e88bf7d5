/// The name of a flow or of a command that drives a bracelet, as events (`flow`), the plan
/// journal, the audit log (`flow` of a run) and the bridge's `enterStep` spell it. Said once here;
/// the stores keep the raw value (a row of a newer corsano may hold one this build does not know,
/// so stored names stay strings and are compared with `rawValue`).
public enum FlowName: String, CaseIterable, Equatable, Sendable {
    /// NIBP (cuffless blood pressure) initialization against a reference cuff (seed: bp-initialization).
    case bpInit = "bp-init"
    /// PPG wearing optimization, special mode 4 (seed: wearing-optimization).
    case wearingOpt = "wearing-opt"
    /// `profile push`: a user profile sent to the bracelet.
    case profilePush = "profile-push"
    /// `nibp read`: one spot reading of the bracelet's NIBP value.
    case nibpRead = "nibp-read"
    /// `validate --live`: the same-arm validation sequence.
    case validate
    /// `bracelet repair`: a plan set back by hand or from the journal.
    case braceletRepair = "bracelet-repair"
    /// The REPL's `connect`/`status` (it may repair a plan a killed run left).
    case repl
    /// The audit log's record that a killed run's plan was restored (`AuditLog.recordPlanRestored`).
    case planRestore = "plan-restore"
    /// The audit log's e-signature record (`history sign`).
    case signature
}

extension FlowName: CustomStringConvertible {
    /// The wire name (`bp-init`): what a message interpolating a flow says, as scripts and stores
    /// spell it, never the Swift case name.
    public var description: String { rawValue }
}
