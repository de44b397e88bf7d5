/// Which report `corsano report` makes.
public enum ReportKind: String, CaseIterable, Sendable {
    /// One run's calibration certificate (`--run ID`, or `--bracelet SERIAL`: its last run).
    case certificate
    /// A bracelet's calibration history (`--bracelet SERIAL`).
    case history
}

/// What checking a report's runs and signatures against the audit chain found (docs/design.md
/// "Audit chain"): a report shows only what verifies, or says on every page that it does not.
public enum ReportVerification: Equatable, Sendable {
    /// Every run and signature shown verifies, HMAC checked.
    case verified
    /// Every one verifies by its hashes; no audit key was at hand, so the HMAC was not checked.
    case hashesOnly
    /// Some run or signature shown does not verify: which record and why (printed only when asked).
    case notVerified(String)

    /// The verdict for the rows `shown` (runs and their signature records) under `verification`.
    public init(_ verification: AuditChain.Verification, shown: [String]) {
        if let why = shown.lazy.compactMap({ verification.whyNotVerified($0) }).first {
            self = .notVerified(why)
        } else {
            self = verification.hmacChecked ? .verified : .hashesOnly
        }
    }

    /// The text a report gives it, in `l`'s locale.
    func text(_ l: Localizer) -> String {
        switch self {
        case .verified: return l[.reportVerified]
        case .hashesOnly: return l[.reportHashesOnly]
        case .notVerified(let why): return l[.reportNotVerified] + " (" + why + ")"
        }
    }

    /// The mark every page of an unverified report carries in its header; nil when it verifies.
    func pageMark(_ l: Localizer) -> String? {
        if case .notVerified = self { return l[.reportNotVerifiedMark] }
        return nil
    }
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
        // A set of a multi-set calibration: the calibration the run's set belongs to.
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
