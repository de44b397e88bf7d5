extension BPInitializationFlow {
    /// Switches the bracelet to the NIBP-calibration plan through the plan guard: journaled
    /// first, so a killed run is repaired at the next connect (DESIGN "Plan safety").
    /// - Throws: `BraceletError`, `StoreError` (journal), `CancellationError`.
    func switchPlan() async throws {
        try await planGuard.enter()
    }

    /// Restores the previous plan once, outside any cancellation of the run (a SIGINT must not
    /// stop the restore), and reports it. A failure leaves the journal entry for the next repair;
    /// a plan given back whose entry could not be cleared (store gone) is still reported, and the
    /// store error waits in `planGuard.storeFailure` for the exit status.
    func restorePlan() async {
        guard let previous = planGuard.previousPlan, !planGuard.isRestored else { return }
        // Left to PlanJournal.repairOpenEntries at the next command that reaches this bracelet.
        try? await planGuard.restore()
        if planGuard.isRestored {
            emit(.planRestored(previousPlan: previous, why: .flowEnded))
        }
    }
}
