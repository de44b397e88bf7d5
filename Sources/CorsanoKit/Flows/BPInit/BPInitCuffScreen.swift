/// The host rules bp-init applies to each cuff reading: `replay-filter`'s `ReplayFilter` with a
/// seen-set for this run only, so running the same command twice, or after `replay-filter`,
/// does not starve the flow (docs/design.md "Host-side cuff rules", rule 3).
final class BPInitCuffScreen: @unchecked Sendable {
    /// What to do with one reading.
    enum Verdict: Equatable {
        case accept
        /// Drop it and keep waiting, with the `cuffReadingDropped` reason.
        case drop(DroppedCuffItem.Reason)
        /// End the flow: the reading's age in seconds (negative when future-dated).
        case stale(Double)
    }

    private let config: BPInitializationConfig
    private let seen: any SeenSet

    init(config: BPInitializationConfig) {
        self.config = config
        seen = config.replayFilter ? InMemorySeenSet() : ForgetfulSeenSet()
    }

    /// Judges `reading` for the measurement requested at `requestedAt`, at `now` (the clock before
    /// it moves to the reading's stamp).
    func judge(_ reading: CuffReading, requestedAt: Instant, now: Instant) -> Verdict {
        let rules = HostRules(backdate: config.backdateSeconds, maxReadingAge: config.maxReadingAge,
                              requestedAt: config.replayFilter ? requestedAt : nil)
        // In-memory sets never throw.
        switch (try? ReplayFilter(rules: rules, seen: seen).judge(reading, now: now)) ?? .keep {
        case .keep: return .accept
        case .drop(.stale, let age?), .drop(.future, let age?): return .stale(age)
        case .drop(let rule, _): return DroppedCuffItem.Reason(rule).map(Verdict.drop) ?? .accept
        }
    }
}

/// The seen-set of `--no-replay-filter`: remembers nothing, so no reading is a duplicate.
private final class ForgetfulSeenSet: SeenSet {
    func contains(_ key: SeenKey) -> Bool { false }
    func insert(_ key: SeenKey) -> Bool { true }
    func commitPending() -> Set<SeenKey> { [] }
    func release(_ keys: [SeenKey]) {}
}
