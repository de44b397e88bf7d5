extension BPInitializationFlow {
    /// Switches the bracelet to the NIBP-calibration plan through the plan guard: journaled
    /// first, so a killed run is repaired at the next connect (docs/design.md "Plan safety").
    /// - Throws: `BraceletError`, `StoreError` (journal), `CancellationError`.
    func switchPlan() async throws {
        try await planGuard.enter()
    }

    /// Restores the previous plan once, outside any cancellation of the run (a SIGINT must not
    /// stop the restore), and reports it. A failure leaves the journal entry for the next repair;
    /// a plan given back whose entry could not be cleared (store gone) is still reported, and the
    /// store error waits in `planGuard.storeFailure` for the exit status.
    func restorePlan() async {
        // A claim that never switched only clears its journal entry (a store error waits in
        // `planGuard.storeFailure`).
        try? planGuard.release()
        guard let previous = planGuard.previousPlan, !planGuard.isRestored, planGuard.restoreFailure == nil else { return }
        do {
            try await planGuard.restore()
        } catch let error as BraceletError {
            // A failed compensation is a failure: said as an event; the command says
            // it on stderr and exits 4. The journal entry (with a store) stays for the repair.
            emit(.planRestoreFailed(plan: .nibpCalibration, previousPlan: previous, reason: error.message))
        } catch {
            // A store error after the plan came back: kept in `planGuard.storeFailure`.
        }
        if planGuard.isRestored {
            emit(.planRestored(previousPlan: previous, why: .flowEnded))
        }
    }
}
