import Foundation

/// The fleet as Prometheus metrics, in the text exposition format (Prometheus "Exposition
/// formats", text format 0.0.4) for node_exporter's textfile collector: the gauges of
/// `FleetCounts` per gateway, the calibration runs recorded as counters and their durations as a
/// histogram. Names follow Prometheus's naming practice (`corsano_` prefix, base units,
/// `_total` counters). Counts of runs are read from the audit log each time, never kept in
/// memory, so they only grow across processes and cron ticks. No reading, subject or bracelet
/// serial is ever a label. Source: docs/design.md "Fleet status".
public enum FleetMetrics {
    /// Upper bounds of the run-duration histogram's buckets, seconds (a set of three cuff
    /// readings takes minutes; a single session up to its attempts).
    public static let durationBuckets: [Double] = [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600]

    /// The metrics text of `fleet` and the audit log `runs`: every series carries a `gateway`
    /// label (bracelets by their last run's gateway, stuck and held ones by the journal owner's,
    /// runs by their own); `''` for runs recorded before gateways.
    public static func render(fleet: [FleetBracelet], runs: [AuditRun]) -> String {
        var out = ""
        var gateways = Set<String>()
        for b in fleet {
            gateways.insert(b.lastGateway ?? "")
            if let entry = b.journal?.entry { gateways.insert(entry.owner.gateway) }
        }
        let calibrationRuns = runs.filter { $0.flow == FlowName.bpInit.rawValue && $0.resultKind != nil }
        for run in calibrationRuns { gateways.insert(run.gateway ?? "") }
        let sortedGateways = gateways.sorted()

        func gauge(_ name: String, _ help: String, _ count: (String) -> Int) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n"
            for g in sortedGateways { out += "\(name){gateway=\"\(escape(g))\"} \(count(g))\n" }
        }
        func byLast(_ include: @escaping (FleetBracelet) -> Bool) -> (String) -> Int {
            { g in fleet.filter { ($0.lastGateway ?? "") == g && include($0) }.count }
        }
        func byOwner(_ include: @escaping (FleetBracelet.JournalState) -> Bool) -> (String) -> Int {
            { g in fleet.filter { b in b.journal.map { $0.entry.owner.gateway == g && include($0) } ?? false }.count }
        }
        gauge("corsano_bracelets", "Bracelets the state store knows, by the gateway of their last run.", byLast { _ in true })
        gauge("corsano_bracelets_due", "Bracelets with work due now: the next set of their calibration, or a recalibration.",
              byLast(\.due))
        gauge("corsano_bracelets_overdue", "Bracelets whose calibration's next set missed its window.",
              byLast { $0.needsPerson.contains(.overdue) })
        gauge("corsano_bracelets_failed", "Bracelets whose last bp-init run failed.", byLast { $0.needsPerson.contains(.failed) })
        gauge("corsano_bracelets_stuck", "Bracelets whose plan-journal entry's owner is gone, by that owner's gateway.",
              byOwner { if case .stuck = $0 { return true } else { return false } })
        gauge("corsano_leases_held", "Plan-journal leases held by a live run, by the holder's gateway.",
              byOwner { if case .held = $0 { return true } else { return false } })

        // Counters: every finished bp-init run by gateway, protocol and result.
        var counts: [[String]: Int] = [:]
        var durations: [[String]: [Double]] = [:]
        for run in calibrationRuns {
            let g = run.gateway ?? "", p = protocolName(run), result = run.resultKind ?? ""
            counts[[g, p, result], default: 0] += 1
            if let start = RFC3339.parseInstant(run.startedAt), let end = run.endedAt.flatMap(RFC3339.parseInstant) {
                durations[[g, p], default: []].append(max(0, end.seconds(since: start)))
            }
        }
        out += "# HELP corsano_calibration_runs_total Finished bp-init runs (single sessions and sets) recorded in the audit log.\n"
        out += "# TYPE corsano_calibration_runs_total counter\n"
        for key in counts.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            out += "corsano_calibration_runs_total{gateway=\"\(escape(key[0]))\",protocol=\"\(escape(key[1]))\",result=\"\(escape(key[2]))\"} "
                + "\(counts[key]!)\n"
        }
        out += "# HELP corsano_calibration_run_duration_seconds Wall time of finished bp-init runs (one set of a multi-set calibration each).\n"
        out += "# TYPE corsano_calibration_run_duration_seconds histogram\n"
        for key in durations.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let values = durations[key]!
            let labels = "gateway=\"\(escape(key[0]))\",protocol=\"\(escape(key[1]))\""
            for bound in durationBuckets {
                out += "corsano_calibration_run_duration_seconds_bucket{\(labels),le=\"\(number(bound))\"} \(values.filter { $0 <= bound }.count)\n"
            }
            out += "corsano_calibration_run_duration_seconds_bucket{\(labels),le=\"+Inf\"} \(values.count)\n"
            out += "corsano_calibration_run_duration_seconds_sum{\(labels)} \(number(values.reduce(0, +)))\n"
            out += "corsano_calibration_run_duration_seconds_count{\(labels)} \(values.count)\n"
        }
        return out
    }

    /// A bp-init run's protocol as its stored config names it (`corsano`, `sets`); `sdk` for the
    /// seed's single session, whose config has no `protocol`.
    public static func protocolName(_ run: AuditRun) -> String {
        guard let config = try? JSONValue.parse(Array(run.configJSON.utf8)) else { return "sdk" }
        return config["protocol"]?["kind"]?.stringValue ?? "sdk"
    }

    /// A label value escaped as the text format asks: backslash, double quote and line feed.
    static func escape(_ value: String) -> String {
        var out = ""
        for c in value.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A sample value or bound: whole numbers without a fraction, others to the millisecond.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.3f", value)
    }
}
