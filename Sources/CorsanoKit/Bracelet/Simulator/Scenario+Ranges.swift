import Foundation

extension Scenario {
    /// The largest scenario file read, bytes: a scenario is a page of JSON; a 120 MB one cost
    /// 2.4 GB of memory to refuse.
    public static let maxFileBytes = 4 << 20

    /// The SDK's step names a step fault may name (docs/scenario.md "faults"): a mistyped step
    /// would never fire and a test would pass vacuously.
    static let stepNames = Set(BPInitializationStep.allCases.map(\.rawValue) + WearingOptimizationStep.allCases.map(\.rawValue))
    /// The flows a step fault may name.
    static let flowNames = Set([FlowName.bpInit, .wearingOpt].map(\.rawValue))

    /// The first field whose value is out of range, as `field PATH: why`; nil when all are in
    /// range (docs/scenario.md: occurrences, attempts, indexes and polls count from 1; seconds
    /// are not negative; steps and flows are the SDK's).
    func firstOutOfRange() -> String? {
        func positive(_ value: Int?, _ path: String) -> String? {
            guard let value, value < 1 else { return nil }
            return "field \(path): \(value) is out of range (1 or more)"
        }
        func step(_ flow: String?, _ step: String, _ path: String) -> String? {
            if let flow, !Self.flowNames.contains(flow) {
                return "field \(path).flow: unknown flow '\(flow)' (\(Self.flowNames.sorted().joined(separator: " or ")))"
            }
            guard Self.stepNames.contains(step) else {
                return "field \(path).step: unknown step '\(step)' (one of \(Self.stepNames.sorted().joined(separator: ", ")))"
            }
            return nil
        }
        let f = faults
        var problems: [String?] = []
        if let h = f.holdAtStep {
            problems += [step(h.flow, h.step, "faults.holdAtStep"), positive(h.occurrence, "faults.holdAtStep.occurrence")]
            if let s = h.seconds, s < 0 { problems.append("field faults.holdAtStep.seconds: \(s) is out of range (0 or more)") }
        }
        for (point, name) in [(f.silentAtStep, "silentAtStep"), (f.disconnectAtStep, "disconnectAtStep")] {
            if let p = point { problems += [step(p.flow, p.step, "faults.\(name)"), positive(p.occurrence, "faults.\(name).occurrence")] }
        }
        if let m = f.disconnectAtMeasurement {
            problems += [positive(m.attempt, "faults.disconnectAtMeasurement.attempt"), positive(m.index, "faults.disconnectAtMeasurement.index")]
        }
        for (point, name) in [(f.disconnectAtPoll, "disconnectAtPoll"), (f.pollTimeoutFrom, "pollTimeoutFrom")] {
            if let p = point { problems += [positive(p.attempt, "faults.\(name).attempt"), positive(p.poll, "faults.\(name).poll")] }
        }
        if let p = f.failPlanSwitch { problems.append(positive(p.occurrence, "faults.failPlanSwitch.occurrence")) }
        // Wearing models and scripted polls: the ranges a bridge's STATUS is held to.
        func within<T: Comparable>(_ value: T?, _ range: ClosedRange<T>, _ path: String) -> String? {
            guard let value, !range.contains(value) else { return nil }
            return "field \(path): \(value) is out of range (\(range.lowerBound) to \(range.upperBound))"
        }
        func gravity(_ g: GravityVector?, _ path: String) -> [String?] {
            guard let g else { return [] }
            return [("x", g.x), ("y", g.y), ("z", g.z)].map { axis, v in
                v.isFinite ? within(v, GravityVector.axisRange, "\(path).\(axis)") : "field \(path).\(axis): not a finite number"
            }
        }
        func model(_ m: WearingModel?, _ path: String) -> [String?] {
            guard let m else { return [] }
            return gravity(m.gravity, path + ".gravity")  // skinTone is checked where it is decoded
        }
        problems += model(wearing.model, "wearing.model")
        for (i, attempt) in wearing.attempts.enumerated() {
            problems += model(attempt.model, "wearing.attempts[\(i)].model")
            for (j, poll) in (attempt.polls ?? []).enumerated() {
                let path = "wearing.attempts[\(i)].polls[\(j)]"
                problems += [within(poll.percent, SpecialModeStatus.percentRange, path + ".percent"),
                             within(poll.quality, SpecialModeStatus.qualityRange, path + ".quality"),
                             within(poll.motionLevel, SpecialModeStatus.motionLevelRange, path + ".motionLevel")]
                problems += gravity(poll.gravity, path + ".gravity")
            }
        }
        problems += subjectProblems(within: within)
        return problems.lazy.compactMap { $0 }.first
    }

    /// The subjects and the NIBP estimate model (docs/scenario.md "subjects"): ids
    /// unique and usable as `--subject-id`, a wearer that is one of them, plausible baselines,
    /// change times RFC 3339, bounds not negative.
    private func subjectProblems(within: (Int?, ClosedRange<Int>, String) -> String?) -> [String?] {
        var problems: [String?] = []
        var seen = Set<String>()
        for (i, subject) in subjects.enumerated() {
            let path = "subjects[\(i)]"
            if let why = SubjectID.problem(subject.id) { problems.append("field \(path).id: \(why)") }
            if !seen.insert(subject.id).inserted { problems.append("field \(path).id: '\(subject.id)' is declared twice") }
            problems += [within(subject.baseline.systolic, 60...250, path + ".baseline.systolic"),
                         within(subject.baseline.diastolic, 30...150, path + ".baseline.diastolic"),
                         within(subject.baseline.pulse, 30...220, path + ".baseline.pulse")]
            if subject.baseline.systolic <= subject.baseline.diastolic {
                problems.append("field \(path).baseline: systolic must be above diastolic")
            }
            if let r = subject.rhythm {
                problems += [within(r.peakHour, 0...23, path + ".rhythm.peakHour"), within(r.systolic, 0...60, path + ".rhythm.systolic"),
                             within(r.diastolic, 0...40, path + ".rhythm.diastolic"), within(r.pulse, 0...60, path + ".rhythm.pulse")]
            }
            for (j, change) in subject.changes.enumerated() {
                let c = "\(path).changes[\(j)]"
                if RFC3339.parseInstant(change.from) == nil { problems.append("field \(c).from: not an RFC 3339 time") }
                if let until = change.until {
                    if let end = RFC3339.parseInstant(until) {
                        if let start = RFC3339.parseInstant(change.from), end <= start { problems.append("field \(c).until: not after from") }
                    } else {
                        problems.append("field \(c).until: not an RFC 3339 time")
                    }
                }
            }
            for (delta, name) in [(subject.cuff?.spread, "cuff.spread")] {
                if let d = delta { problems += [within(d.systolic, 0...50, "\(path).\(name).systolic"), within(d.diastolic, 0...50, "\(path).\(name).diastolic")] }
            }
        }
        if let wearer = nibp.wearer, !seen.contains(wearer) {
            problems.append("field nibp.wearer: no subject '\(wearer)' (subjects: \(subjects.map(\.id).joined(separator: ", ")))")
        }
        problems.append(within(nibp.intervalSeconds, 60...86_400, "nibp.intervalSeconds"))
        if let spot = nibp.spotSeconds, !(spot.isFinite && (0...3600).contains(spot)) {
            problems.append("field nibp.spotSeconds: \(spot) is out of range (0 to 3600)")
        }
        if let noise = nibp.noise {
            problems += [within(noise.systolic, 0...50, "nibp.noise.systolic"), within(noise.diastolic, 0...50, "nibp.noise.diastolic")]
        }
        return problems
    }

    /// For a document that is valid JSON but that the decoder called corrupt at the top level
    /// (Foundation's way to refuse `1.5` or `1e400` for a whole number): the first number that
    /// is not finite, beyond ±2^53, or not whole, as `field PATH: N is out of range`.
    static func firstUnfitNumber(in data: Data) -> String? {
        guard let value = try? JSONValue.parse(data) else { return nil }
        func walk(_ v: JSONValue, _ path: String) -> String? {
            switch v {
            case .double(let d) where !d.isFinite || abs(d) >= 9_007_199_254_740_992 || d != d.rounded():
                return "field \(path.isEmpty ? "(top level)" : path): \(d.isFinite ? "\(d)" : "a number") is out of range"
            case .object(let members):
                for (k, m) in members { if let found = walk(m, path.isEmpty ? k : path + "." + k) { return found } }
            case .array(let items):
                for (i, m) in items.enumerated() { if let found = walk(m, path + "[\(i)]") { return found } }
            default: break
            }
            return nil
        }
        return walk(value, "")
    }
}

extension Scenario {
    /// What Foundation's parser hides in a scenario text: a key given twice in one object (it
    /// keeps one silently) and a number beyond a Double (`1e400`, which it calls invalid JSON),
    /// as `field PATH: given twice` / `field PATH: NUMBER is out of range`. A scan of the raw
    /// bytes (strings with their escapes, nesting); nil when there is neither.
    static func firstHiddenProblem(in data: Data) -> String? {
        let bytes = [UInt8](data)
        var stack: [(keys: Set<String>, path: String, isObject: Bool, index: Int)] = []
        var pendingKey: String?
        var lastString = ""
        var i = 0
        func path(_ key: String) -> String { stack.last.map { $0.path.isEmpty ? key : $0.path + "." + key } ?? key }
        func here() -> String {
            guard let top = stack.last else { return "(top level)" }
            return top.isObject ? path(pendingKey ?? "?") : top.path + "[\(top.index)]"
        }
        while i < bytes.count {
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "\""):
                var j = i + 1, text: [UInt8] = []
                while j < bytes.count, bytes[j] != UInt8(ascii: "\"") {
                    if bytes[j] == UInt8(ascii: "\\") { text.append(bytes[j]); j += 1 }
                    if j < bytes.count { text.append(bytes[j]) }
                    j += 1
                }
                lastString = String(decoding: text, as: UTF8.self)
                i = j + 1
                continue
            case UInt8(ascii: ":"):
                if stack.last?.isObject == true {
                    guard stack[stack.count - 1].keys.insert(lastString).inserted else { return "field \(path(lastString)): given twice" }
                    pendingKey = lastString
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let p = stack.isEmpty ? "" : here()
                stack.append((keys: [], path: p, isObject: c == UInt8(ascii: "{"), index: 0))
                pendingKey = nil
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: ","):
                if let top = stack.last, !top.isObject { stack[stack.count - 1].index += 1 }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                var j = i
                while j < bytes.count, "+-.eE0123456789".utf8.contains(bytes[j]) { j += 1 }
                let text = String(decoding: bytes[i..<j], as: UTF8.self)
                if let d = Double(text), !d.isFinite { return "field \(here()): \(text) is out of range" }
                i = j
                continue
            default: break
            }
            i += 1
        }
        return nil
    }
}
