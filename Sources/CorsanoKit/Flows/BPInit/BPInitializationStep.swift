/// The screens of the calibration flow, by the SDK's `BPInitializationStep` names.
///
/// Source: seeds/bp-initialization.txt ("Step values", "Flow reference").
public enum BPInitializationStep: String, CaseIterable, Equatable, Sendable {
    /// No cuff paired: entry step only, never returned to.
    case needsCuffPairing
    /// How to fit the cuff; with the preparation checklist unless disabled.
    case instructions
    /// Requesting one cuff reading and feeding it to the bracelet.
    case measuring
    /// The just-captured reading, shown alike whether the firmware accepted it or not.
    case measurementRecorded
    /// An attempt was not accepted and the budget allows another.
    case retryPrompt
    /// Calibrated; the previous plan is restored.
    case finalSuccess
    /// The attempt budget is exhausted; a summary, never an alarm.
    case finalFailure
}
