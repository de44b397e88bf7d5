/// A multi-set NIBP calibration of one bracelet as the state store keeps it: its
/// protocol, the sets recorded so far, and whether it is still open. One bracelet has at most one
/// open calibration; each `bp-init` invocation runs its next due set, on any gateway of the store.
/// Source: docs/design.md "Multi-set calibration".
public struct MultiSetCalibration: Equatable, Sendable {
    /// Where a calibration stands.
    public enum Status: String, Equatable, Sendable {
        /// Sets remain.
        case open
        /// The last set ran and the firmware accepted the calibration.
        case completed
        /// The last set ran and the firmware refused it (`failedAfterRetries`).
        case failed
        /// The next set was more than `maxGapSeconds` late.
        case expired
        /// `bp-init --abandon` closed it.
        case abandoned
    }

    /// The calibration's id (the run id of the invocation that opened it).
    public var id: String
    /// The bracelet's serial.
    public var serial: String
    public var parameters: MultiSetProtocol
    public var status: Status
    /// When set 1 started, on the run's clock.
    public var startedAt: Instant
    /// The cuff of the first set that named one (MAC or serial); nil while none did.
    public var cuff: String?
    /// The sets recorded, in order (set 1 first); a set cut short is never here.
    public var sets: [CalibrationSetRecord]
    /// When and by which run the calibration was closed (any status but `open`).
    public var closedAt: Instant?
    public var closedBy: String?

    /// Creates a calibration.
    public init(id: String, serial: String, parameters: MultiSetProtocol, status: Status = .open, startedAt: Instant,
                cuff: String? = nil, sets: [CalibrationSetRecord] = [], closedAt: Instant? = nil, closedBy: String? = nil) {
        self.id = id
        self.serial = serial
        self.parameters = parameters
        self.status = status
        self.startedAt = startedAt
        self.cuff = cuff
        self.sets = sets
        self.closedAt = closedAt
        self.closedBy = closedBy
    }

    /// The number of the set that runs next (1-based).
    public var nextSet: Int { sets.count + 1 }

    /// True when the next set is the calibration's last: after it the firmware's verdict is asked.
    public var nextIsLast: Bool { nextSet >= parameters.sets }

    /// When the next set is due: one interval after the previous set ended; nil before set 1 (due at once).
    public var nextDueAt: Instant? {
        sets.last.map { $0.endedAt.adding(interval: parameters.intervalSeconds) }
    }

    /// When the calibration expires unless its next set starts: `maxGapSeconds` after it was due.
    public var expiresAt: Instant? {
        nextDueAt.map { $0.adding(interval: parameters.maxGapSeconds) }
    }

    /// Where the calibration stands at `now` (the run's clock).
    public func schedule(at now: Instant) -> SetSchedule {
        guard let due = nextDueAt else { return .due(set: nextSet) }
        if now < due { return .notYet(set: nextSet, dueAt: due) }
        if let expires = expiresAt, now > expires { return .expired(at: expires) }
        return .due(set: nextSet)
    }

    /// The whole calibration as one JSON object (the store's record, the same bytes on both engines).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(id)), ("serial", .string(serial)), ("protocol", parameters.json), ("status", .string(status.rawValue)),
            ("startedAt", .string(RFC3339.format(startedAt))), ("cuff", cuff.map(JSONValue.string) ?? .null),
            ("sets", .array(sets.map(\.json))),
        ]
        if let closedAt { members.append(("closedAt", .string(RFC3339.format(closedAt)))) }
        if let closedBy { members.append(("closedBy", .string(closedBy))) }
        return .object(members)
    }

    /// Reads a stored record back; nil when any member is missing or malformed.
    public init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue, let serial = json["serial"]?.stringValue,
              let parameters = json["protocol"].flatMap(MultiSetProtocol.init(json:)),
              let status = json["status"]?.stringValue.flatMap(Status.init(rawValue:)),
              let started = json["startedAt"]?.stringValue.flatMap(RFC3339.parseInstant),
              let setItems = json["sets"]?.arrayValue else { return nil }
        var sets: [CalibrationSetRecord] = []
        for item in setItems {
            guard let set = CalibrationSetRecord(json: item) else { return nil }
            sets.append(set)
        }
        self.init(id: id, serial: serial, parameters: parameters, status: status, startedAt: started,
                  cuff: json["cuff"]?.stringValue, sets: sets,
                  closedAt: json["closedAt"]?.stringValue.flatMap(RFC3339.parseInstant), closedBy: json["closedBy"]?.stringValue)
    }
}

/// When a calibration's next set may run (`MultiSetCalibration.schedule(at:)`).
public enum SetSchedule: Equatable, Sendable {
    /// Set `set` may run now.
    case due(set: Int)
    /// Set `set` is not due before `dueAt` (exit 75).
    case notYet(set: Int, dueAt: Instant)
    /// The next set was due but not started before `at`: the calibration has expired.
    case expired(at: Instant)
}

/// One set of a multi-set calibration as recorded: the run that took it, when it ended, its
/// cuff, the firmware's per-reading verdicts, and the means clinicians read (AHA: all readings;
/// ESH: readings 2 and 3). The means are information only: the firmware's verdict decides.
public struct CalibrationSetRecord: Equatable, Sendable {
    public var set: Int
    public var run: String
    /// When the set ended (its plan restored), on the run's clock: the next set's interval starts here.
    public var endedAt: Instant
    /// The cuff its readings named; nil when unknown.
    public var cuff: String?
    /// The readings fed, in order (systolic, diastolic, mmHg), with the firmware's verdicts.
    public var readings: [CalibrationSetReading]

    /// Creates a record.
    public init(set: Int, run: String, endedAt: Instant, cuff: String?, readings: [CalibrationSetReading]) {
        self.set = set
        self.run = run
        self.endedAt = endedAt
        self.cuff = cuff
        self.readings = readings
    }

    /// The mean of every reading (AHA), nil when there is none.
    public var meanAll: BloodPressureMean? { BloodPressureMean(readings) }
    /// The mean of readings 2 and 3 (ESH: the first is discarded), nil with fewer than 3 readings.
    public var meanLast2: BloodPressureMean? {
        readings.count >= 3 ? BloodPressureMean(Array(readings[1...2])) : nil
    }

    /// The set as `finished`'s `sets` items and the history show it: `set`, `run`, `meanAll`, `meanLast2`.
    public var summary: JSONValue {
        .object([("set", .int(set)), ("run", .string(run)), ("meanAll", meanAll?.json ?? .null),
                 ("meanLast2", meanLast2?.json ?? .null)])
    }

    var json: JSONValue {
        .object([("set", .int(set)), ("run", .string(run)), ("endedAt", .string(RFC3339.format(endedAt))),
                 ("cuff", cuff.map(JSONValue.string) ?? .null),
                 ("readings", .array(readings.map { r in
                     .object([("systolic", .int(r.systolic)), ("diastolic", .int(r.diastolic)), ("accepted", .bool(r.accepted))])
                 }))])
    }

    init?(json: JSONValue) {
        guard let set = json["set"]?.intValue, let run = json["run"]?.stringValue,
              let ended = json["endedAt"]?.stringValue.flatMap(RFC3339.parseInstant),
              let items = json["readings"]?.arrayValue else { return nil }
        var readings: [CalibrationSetReading] = []
        for item in items {
            guard let s = item["systolic"]?.intValue, let d = item["diastolic"]?.intValue, let a = item["accepted"]?.boolValue else { return nil }
            readings.append(CalibrationSetReading(systolic: s, diastolic: d, accepted: a))
        }
        self.init(set: set, run: run, endedAt: ended, cuff: json["cuff"]?.stringValue, readings: readings)
    }
}

/// One reading of a recorded set: its pressures (mmHg) and the firmware's verdict on it.
public struct CalibrationSetReading: Equatable, Sendable {
    public var systolic: Int
    public var diastolic: Int
    public var accepted: Bool

    /// Creates a reading.
    public init(systolic: Int, diastolic: Int, accepted: Bool) {
        self.systolic = systolic
        self.diastolic = diastolic
        self.accepted = accepted
    }
}

/// A mean blood pressure, mmHg, to one decimal.
public struct BloodPressureMean: Equatable, Sendable {
    public var systolic: Double
    public var diastolic: Double

    /// The mean of `readings`; nil when empty.
    public init?(_ readings: [CalibrationSetReading]) {
        guard !readings.isEmpty else { return nil }
        let n = Double(readings.count)
        // Summed as Double: no input value traps.
        systolic = Self.tenth(readings.reduce(0.0) { $0 + Double($1.systolic) } / n)
        diastolic = Self.tenth(readings.reduce(0.0) { $0 + Double($1.diastolic) } / n)
    }

    private static func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    /// `{"systolic":…,"diastolic":…}`, integers when whole.
    public var json: JSONValue {
        func number(_ v: Double) -> JSONValue { v == v.rounded() && abs(v) < 1e15 ? .int(Int(v)) : .double(v) }
        return .object([("systolic", number(systolic)), ("diastolic", number(diastolic))])
    }
}
