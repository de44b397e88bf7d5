import CorsanoKit

/// The person at the terminal during wearing optimization (stdin is a terminal): the preparation
/// pickers (Enter keeps the shown value), Enter for the strap, placement and Start, then y/n and
/// the position picker at a retry. End of input (Ctrl-D) declines: `cancelledByUser`.
/// Source: seed "Flow reference" 1, 2 and 4.
struct TerminalWearingInteraction: WearingOptInteraction {
    let lines: TerminalLines
    let localizer: Localizer
    /// Where prompts go: stdout with text output, stderr when stdout carries JSON lines.
    let prompts: PromptOutput

    func pickPreparation(_ current: PreparationChoices) async throws -> PreparationChoices {
        var c = current
        // The choices are the flags' words, which read the same in every locale.
        // Step 1's three questions, 1a to 1c (steps 2 and 3 follow: strap, placement).
        c.skinTone = try await pick("1a. " + localizer[.pickSkinTone], current: String(c.skinTone)) { Int($0).flatMap { (1...6).contains($0) ? $0 : nil } }
        c.hairDensity = try await pick("1b. " + localizer[.pickHairDensity, UserProfileChoices.hairDensity.joined(separator: "/")],
                                       current: c.hairDensity.rawValue, UserProfile.HairDensity.init(rawValue:))
        c.wrist = try await pick("1c. " + localizer[.pickWrist, UserProfileChoices.wrist.joined(separator: "/")],
                                 current: c.wrist.rawValue, UserProfile.Wrist.init(rawValue:))
        return c
    }

    func confirmStrapTightness() async throws -> Bool {
        try await enter("2. " + localizer[.woPrepStrapTightness])
    }

    func confirmPlacement(wrist: UserProfile.Wrist) async throws -> Bool {
        try await enter("3. " + localizer[.woPrepPlacement])
    }

    /// bp-init's prompts: Enter to start, the y/n retry question in the run's language.
    var shared: TerminalInteraction { TerminalInteraction(lines: lines, localizer: localizer, prompts: prompts) }

    func confirmStart(attempt: Int, position: BraceletPosition) async throws -> Bool {
        try await shared.confirmStart()
    }

    func retry(after attempt: Int, reason: FailureReason, position: BraceletPosition) async throws -> BraceletPosition? {
        guard try await shared.confirmRetry(nextAttempt: attempt + 1, maxAttempts: attempt + 1) else { return nil }
        return try await Self.askPosition(localizer) { prompt in
            guard case .line(let text) = try await lines.read(prompt: prompt, to: prompts) else { return nil }
            return text
        }
    }

    /// The position picker for the next attempt, asked through `ask` until answered: Enter or 1
    /// seated, 2 supine; nil (end of input) declines the retry. Source: seed "Flow reference" 4.
    static func askPosition(_ localizer: Localizer, _ ask: (String) async throws -> String?) async rethrows -> BraceletPosition? {
        while true {
            guard let text = try await ask(localizer[.positionQuestion]) else { return nil }
            switch text.trimmingSpaces.lowercased() {
            case "", "1", "seated": return .seated
            case "2", "supine": return .supine
            default: continue
            }
        }
    }

    /// Shows `text` and waits for Enter; false on end of input.
    func enter(_ text: String) async throws -> Bool {
        try await lines.read(prompt: text + " " + localizer[.pressEnter] + " ", to: prompts) != .end
    }

    /// Asks `label [current]: ` until the answer parses; Enter keeps `current`. An answer that is
    /// not a choice asks again saying so first (as the retry question does).
    /// - Throws: `CancellationError` on end of input (the flow ends as cancelledByUser).
    func pick<T>(_ label: String, current: String, _ parse: (String) -> T?) async throws -> T {
        var prompt = "\(label) [\(current)]: "
        while true {
            guard case .line(let text) = try await lines.read(prompt: prompt, to: prompts) else {
                throw CancellationError()
            }
            let answer = text.trimmingSpaces.lowercased()
            if let value = parse(answer.isEmpty ? current : answer) { return value }
            prompt = localizer[.pickNotAChoice, text.trimmingSpaces] + "\n\(label) [\(current)]: "
        }
    }
}
