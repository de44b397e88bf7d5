import CorsanoKit

/// bp-init inside the interactive REPL: starts at once (the command line was the start), and
/// after an unaccepted attempt asks the y/n retry question through the REPL's line editor
/// (`CommandContext.ask`). Control-D or Control-C at the question declines: `cancelledByUser`.
/// Source: seed "Flow reference" 5; issue 7 ("prompts for ... retry decisions").
struct REPLRetryInteraction: BPInitInteraction {
    let ask: @Sendable (String) async -> String?
    let localizer: Localizer

    func confirmStart() async throws -> Bool { true }

    func confirmRetry(nextAttempt: Int, maxAttempts: Int) async throws -> Bool {
        await TerminalInteraction.askRetry(localizer, ask)
    }
}

/// wearing-opt inside the interactive REPL: preparation answers come from the flags and the
/// stored profile as in a script; a failed attempt asks the retry question and then the
/// position picker through the REPL's line editor. Source: seed "Flow reference" 4.
struct REPLWearingInteraction: WearingOptInteraction {
    let ask: @Sendable (String) async -> String?
    let localizer: Localizer
    /// The flags' answers for everything but the retry.
    let scripted: ScriptedWearingOptInteraction

    func pickPreparation(_ current: PreparationChoices) async throws -> PreparationChoices {
        try await scripted.pickPreparation(current)
    }

    func confirmStrapTightness() async throws -> Bool { try await scripted.confirmStrapTightness() }

    func confirmPlacement(wrist: UserProfile.Wrist) async throws -> Bool {
        try await scripted.confirmPlacement(wrist: wrist)
    }

    func confirmStart(attempt: Int, position: BraceletPosition) async throws -> Bool {
        try await scripted.confirmStart(attempt: attempt, position: position)
    }

    func retry(after attempt: Int, reason: FailureReason, position: BraceletPosition) async throws -> BraceletPosition? {
        guard await TerminalInteraction.askRetry(localizer, ask) else { return nil }
        return await TerminalWearingInteraction.askPosition(localizer, ask)
    }
}
