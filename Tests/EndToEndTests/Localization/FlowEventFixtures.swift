import CorsanoKit

/// Fixed event sequences of both flows, with the fields the flows emit (DESIGN "Events").
enum FlowEventFixtures {
    static let start = Instant(secondsSinceEpoch: 1_795_946_400) // 2026-11-29T10:00:00Z

    static func event(_ flow: String, _ name: String, _ second: Int64, _ fields: [(String, JSONValue)]) -> FlowEvent {
        FlowEvent(event: name, flow: flow, run: "run-1", at: Instant(secondsSinceEpoch: start.secondsSinceEpoch + second),
                  fields: fields)
    }

    static func reading(_ sys: Int, _ dia: Int, _ pulse: Int, at: String, manual: Bool = false) -> JSONValue {
        ["systolic": .int(sys), "diastolic": .int(dia), "pulse": .int(pulse),
         "meanArterialPressure": .int(dia + (sys - dia) / 3), "measuredAt": .string(at), "isManualEntry": .bool(manual)]
    }

    /// A calibration that fails once (a rejected measurement), then succeeds with a typed-in reading.
    static let bpInit: [FlowEvent] = {
        let b = { (name: String, s: Int64, f: [(String, JSONValue)]) in event("bp-init", name, s, f) }
        let r1 = reading(121, 79, 64, at: "2026-11-29T10:01:00Z"), r2 = reading(128, 82, 66, at: "2026-11-29T10:03:00Z")
        let r3 = reading(118, 78, 70, at: "2026-11-29T10:06:00Z", manual: true), r4 = reading(120, 80, 68, at: "2026-11-29T10:08:00Z")
        func fed(_ a: Int, _ i: Int, _ r: JSONValue, _ ok: Bool) -> JSONValue {
            guard case .object(let fields) = r else { return r }
            return .object([("attempt", .int(a)), ("index", .int(i))] + fields + [("braceletAccepted", .bool(ok))])
        }
        return [
            b("started", 0, [("config", ["deviationThresholdMmHg": 10, "maxAttempts": 3, "includePreparation": true,
                                         "maxReadingAge": 900, "backdate": 90, "replayFilter": true])]),
            b("step", 0, [("step", "instructions"), ("preparation", true)]),
            b("step", 30, [("step", "measuring"), ("attempt", 1), ("index", 1)]),
            b("cuffReadingDropped", 31, [("reason", "replayed"), ("reading", reading(135, 88, 71, at: "2025-01-01T09:00:00Z"))]),
            b("measurement", 60, [("attempt", 1), ("index", 1), ("reading", r1), ("braceletAccepted", true)]),
            b("step", 60, [("step", "measurementRecorded"), ("attempt", 1), ("index", 1)]),
            b("step", 60, [("step", "measuring"), ("attempt", 1), ("index", 2)]),
            b("measurement", 180, [("attempt", 1), ("index", 2), ("reading", r2), ("braceletAccepted", false)]),
            b("step", 180, [("step", "measurementRecorded"), ("attempt", 1), ("index", 2)]),
            b("attempt", 181, [("attempt", 1), ("succeeded", false)]),
            b("step", 181, [("step", "retryPrompt"), ("attempt", 1), ("maxAttempts", 3)]),
            b("step", 200, [("step", "measuring"), ("attempt", 2), ("index", 1)]),
            b("cuffReadingDropped", 201, [("reason", "invalid"), ("line", "120/abc 70")]),
            b("measurement", 360, [("attempt", 2), ("index", 1), ("reading", r3), ("braceletAccepted", true)]),
            b("step", 360, [("step", "measurementRecorded"), ("attempt", 2), ("index", 1)]),
            b("step", 360, [("step", "measuring"), ("attempt", 2), ("index", 2)]),
            b("measurement", 480, [("attempt", 2), ("index", 2), ("reading", r4), ("braceletAccepted", true)]),
            b("step", 480, [("step", "measurementRecorded"), ("attempt", 2), ("index", 2)]),
            b("attempt", 481, [("attempt", 2), ("succeeded", true)]),
            b("planRestored", 482, [("previousPlan", "monitoring"), ("why", "flowEnded")]),
            b("step", 482, [("step", "finalSuccess")]),
            b("readings", 482, [("readings", [fed(1, 1, r1, true), fed(1, 2, r2, false), fed(2, 1, r3, true), fed(2, 2, r4, true)])]),
            b("finished", 482, [("result", ["kind": "success", "measurementCount": 2])]),
        ]
    }()

    /// An optimization that fails on signal quality seated, then succeeds supine.
    static let wearingOpt: [FlowEvent] = {
        let w = { (name: String, s: Int64, f: [(String, JSONValue)]) in event("wearing-opt", name, s, f) }
        func progress(_ s: Int64, _ a: Int, _ p: Int, _ q: Int, _ m: Int) -> FlowEvent {
            w("progress", s, [("attempt", .int(a)), ("percent", .int(p)), ("quality", .int(q)), ("motionLevel", .int(m))])
        }
        let profile: JSONValue = ["height": 178, "weight": 74, "wrist": "left", "gender": "male", "unit": "metric",
                                  "birthdate": "1980-04-02", "skinTone": 3, "hairDensity": "low"]
        return [
            w("started", 0, [("config", ["maxAttempts": 3, "includePreparation": true, "position": "seated",
                                         "pollInterval": 5, "finishBound": 300, "missedPollLimit": 3])]),
            w("step", 0, [("step", "preparation")]),
            w("profile", 20, [("profile", "pushed"), ("forced", true), ("why", "strapTightness"),
                              ("serial", "CW287-0042"), ("values", profile)]),
            w("step", 30, [("step", "armedPreparing"), ("attempt", 1), ("position", "seated"),
                           ("instructions", ["sitUpright", "forearmOnDesk", "handFlatOnDesk"])]),
            w("step", 40, [("step", "running"), ("attempt", 1)]),
            progress(45, 1, 20, 31, 0), progress(50, 1, 55, 41, 2), progress(55, 1, 100, 44, 1),
            w("attempt", 55, [("attempt", 1), ("succeeded", false), ("reason", ["kind": "ppgSignalQualityTooLow"])]),
            w("step", 55, [("step", "retryPrompt"), ("attempt", 1), ("reason", ["kind": "ppgSignalQualityTooLow"])]),
            w("step", 70, [("step", "armedPreparing"), ("attempt", 2), ("position", "supine"),
                           ("instructions", ["lieOnBack", "armAlongsideBody"])]),
            w("step", 80, [("step", "running"), ("attempt", 2)]),
            progress(85, 2, 35, 48, 0), progress(275, 2, 100, 72, 0),
            w("attempt", 275, [("attempt", 2), ("succeeded", true)]),
            w("step", 275, [("step", "finalSuccess")]),
            w("finished", 275, [("result", ["kind": "success", "spo2Quality": 72, "position": "supine"])]),
        ]
    }()
}
