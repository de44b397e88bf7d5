/// Which report `corsano report` makes (issue 36).
public enum ReportKind: String, CaseIterable, Sendable {
    /// One run's calibration certificate (`--run ID`, or `--bracelet SERIAL`: its last run).
    case certificate
    /// A bracelet's calibration history (`--bracelet SERIAL`).
    case history
}

/// A run or bracelet a report names that the audit log does not hold (exit 66, docs/design.md "Exit status").
public enum ReportError: Error, Equatable, Sendable {
    case unknownRun(String)
    case unknownBracelet(String)
}

extension AuditLog {
    /// The certificate of run `id`, or of the last flow run on bracelet `serial` (started last).
    /// Signature and plan-restore records are not runs of their own: they are shown with the run.
    /// - Throws: `ReportError` when the store holds no such run or bracelet; `StoreError`.
    public func certificate(run id: String?, bracelet serial: String?, chainHead: String?, categories: BPCategories,
                            paper: PaperSize, issued: Instant, version: String) throws -> CalibrationCertificate {
        let isFlowRun = { (run: AuditRun) in run.signature == nil && run.planRestore == nil }
        let chosen: AuditRun
        if let id {
            guard let run = try runs().first(where: { $0.run == id && isFlowRun($0) }),
                  serial.map({ $0 == run.bracelet.serial }) ?? true else { throw ReportError.unknownRun(id) }
            chosen = run
        } else if let serial, let run = try runs(serial: serial).last(where: isFlowRun) {
            chosen = run
        } else {
            throw ReportError.unknownBracelet(serial ?? "")
        }
        let rows = try runs(serial: chosen.bracelet.serial)
        var certificate = CalibrationCertificate(run: chosen, signatures: rows.signatures[chosen.run] ?? [], planRestored: rows.planRestores[chosen.run],
                                                 chainHead: chainHead, categories: categories, paper: paper, issued: issued, version: version)
        // A set of a multi-set calibration (issue 32): the calibration the run's set belongs to.
        certificate.calibration = try multiSetCalibration(of: chosen.run)
        // Every set's run, so the certificate shows all the calibration's readings grouped by set.
        if let calibration = certificate.calibration {
            let ids = Set(calibration.sets.map(\.run))
            for run in rows where ids.contains(run.run) && isFlowRun(run) { certificate.setRuns[run.run] = run }
        }
        return certificate
    }

    /// The history of bracelet `serial`. - Throws: `ReportError.unknownBracelet` when no run is recorded on it; `StoreError`.
    public func history(bracelet serial: String, dueDays: Int?, categories: BPCategories, paper: PaperSize,
                        issued: Instant, version: String) throws -> BraceletHistoryReport {
        let rows = try runs(serial: serial)
        guard !rows.isEmpty else { throw ReportError.unknownBracelet(serial) }
        return BraceletHistoryReport(runs: rows, dueDays: dueDays, categories: categories, paper: paper, issued: issued, version: version)
    }
}
