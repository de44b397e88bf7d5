/// The audit log's hash chain (issue 35; docs/design.md "State store", "Audit chain"): every change to
/// the audit log — a run begun, a reading fed, a run finished, a repair, a signature, a run copied
/// by `state migrate` — appends one record holding the canonical encoding of the run as it stands
/// after the change, the hash of the record before it and its own hash, keyed with an HMAC key kept
/// outside the store. Records are only appended, one at a time per store (a write transaction on
/// SQLite, an advisory lock on PostgreSQL), so a chain holds every change in order.
///
/// The encoding is computed here, in Swift, from values and stored as text, so it is the same on
/// both engines (neither reformats text columns).
public struct AuditChainRecord: Equatable, Sendable {
    /// 1, 2, … in append order.
    public var seq: Int64
    /// `chainStart`, `begin`, `reading`, `finish`, `import`.
    public var kind: String
    /// The run the record is about ('' for `chainStart`).
    public var run: String
    /// The canonical JSON the hash covers (`AuditChain.body`).
    public var body: String
    /// The previous record's hash ('' for the first).
    public var prev: String
    /// SHA-256 of `AuditChain.message(…)`, 64 hex digits.
    public var hash: String
    /// HMAC-SHA-256 of `hash` under the audit key; nil when appended without a key.
    public var mac: String?
    /// The id of the key `mac` was made with (`AuditKey.id`); nil without a key.
    public var keyID: String?

    /// Creates a record.
    public init(seq: Int64, kind: String, run: String, body: String, prev: String, hash: String, mac: String?, keyID: String?) {
        self.seq = seq
        self.kind = kind
        self.run = run
        self.body = body
        self.prev = prev
        self.hash = hash
        self.mac = mac
        self.keyID = keyID
    }
}

/// The HMAC key the chain is keyed with: its bytes (the key file's content) and its id.
public struct AuditKey: Equatable, Sendable {
    public var bytes: [UInt8]

    /// Creates a key from the key file's bytes.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The key's id as the store records it: the first 16 hex digits of SHA-256 over the key
    /// (it names the key without revealing it).
    public var id: String { String(SHA256.hex(bytes).prefix(16)) }
}

/// The audit key is not the one the store's chain is keyed with (exit 74).
public struct AuditKeyMismatch: Error, Equatable, Sendable {
    /// The store's key id, and the offered key's (nil: no key offered).
    public var storeKeyID: String
    public var offeredKeyID: String?
    public var location: String

    /// Creates the error.
    public init(storeKeyID: String, offeredKeyID: String?, location: String) {
        self.storeKeyID = storeKeyID
        self.offeredKeyID = offeredKeyID
        self.location = location
    }
}

/// One change to the audit log, applied and chained in one transaction (`StateStore.auditAppend`).
public enum AuditChange: Sendable {
    case begin(AuditRun)
    case reading(run: String, AuditReading)
    case finish(run: String, endedAt: String, resultJSON: String)
    /// A whole run copied from another store (`state migrate`); kept when its id is held.
    case importRun(AuditRun)

    var kind: String {
        switch self {
        case .begin: "begin"
        case .reading: "reading"
        case .finish: "finish"
        case .importRun: "import"
        }
    }

    var run: String {
        switch self {
        case .begin(let run), .importRun(let run): run.run
        case .reading(let run, _), .finish(let run, _, _): run
        }
    }
}

/// The chain's rules: encoding, sealing and verification (issue 35).
public enum AuditChain {
    /// The `seq` of a run's rows changed by hand is reported through the record that last chained them.
    static let domain = "corsano-audit-v1"

    /// The canonical encoding of `run` with its readings: a JSON object with fixed member order;
    /// config, result and readings as their stored text (so no engine reformats them).
    public static func canonical(_ run: AuditRun) -> JSONValue {
        let readings = run.readings.sorted { ($0.attempt, $0.index) < ($1.attempt, $1.index) }.map { reading -> JSONValue in
            .object([("attempt", .int(reading.attempt)), ("index", .int(reading.index)), ("accepted", .bool(reading.accepted)),
                     ("manual", .bool(reading.manual)), ("mapReported", reading.mapReported.map(JSONValue.bool) ?? .null),
                     ("reading", .string(reading.readingJSON))] + (reading.recordJSON.map { [("record", .string($0))] } ?? []))
        }
        return .object([("run", .string(run.run)), ("flow", .string(run.flow)), ("gateway", .string(run.gateway ?? "")),
                        ("serial", .string(run.bracelet.serial)), ("model", .string(run.bracelet.model)),
                        ("firmware", .string(run.bracelet.firmware)), ("startedAt", .string(run.startedAt)),
                        ("endedAt", run.endedAt.map(JSONValue.string) ?? .null), ("config", .string(run.configJSON)),
                        ("result", run.resultJSON.map(JSONValue.string) ?? .null), ("readings", .array(readings))])
    }

    /// SHA-256 of a run's canonical encoding (what a signature and the chain start hold), 64 hex digits.
    public static func runHash(_ run: AuditRun) -> String { SHA256.hex(Array(canonical(run).serialized.utf8)) }

    /// The body of a record about `run` after a change of `kind`.
    static func body(kind: String, run: AuditRun) -> String {
        JSONValue.object([("kind", .string(kind)), ("state", canonical(run))]).serialized
    }

    /// The body of the record that starts a chain: the store's runs as they were when the chain
    /// began (an existing store's migration), each by its hash.
    static func startBody(runs: [AuditRun]) -> String {
        JSONValue.object([("kind", .string("chainStart")), ("note", .string("audit chain begins; the runs below were recorded before it")),
                          ("runs", .array(runs.map { .object([("run", .string($0.run)), ("hash", .string(runHash($0)))]) }))]).serialized
    }

    /// The bytes a record's hash covers: domain, seq, kind, run, previous hash and body, one a line.
    static func message(seq: Int64, kind: String, run: String, prev: String, body: String) -> [UInt8] {
        Array("\(domain)\n\(seq)\n\(kind)\n\(run)\n\(prev)\n\(body)".utf8)
    }

    /// Seals the record after `previous` (nil: the first) with `key`.
    static func seal(after previous: AuditChainRecord?, kind: String, run: String, body: String, key: AuditKey?) -> AuditChainRecord {
        let seq = (previous?.seq ?? 0) + 1
        let prev = previous?.hash ?? ""
        let hash = SHA256.hex(message(seq: seq, kind: kind, run: run, prev: prev, body: body))
        return AuditChainRecord(seq: seq, kind: kind, run: run, body: body, prev: prev, hash: hash,
                                mac: key.map { HMACSHA256.hex(key: $0.bytes, Array(hash.utf8)) }, keyID: key?.id)
    }

    /// The chain head as printed and compared by `--expect`: the last hash's first 16 hex digits.
    public static func shortHead(_ hash: String) -> String { String(hash.prefix(16)) }

    /// The outcome of `verify`.
    public struct Verification: Equatable, Sendable {
        /// How many chain records there are, and the last one's hash ('' when none).
        public var records: Int
        public var head: String
        /// Whether the HMAC was checked (a key was given).
        public var hmacChecked: Bool
        /// The first record that does not match (its seq and run; 0 for a run no record holds), and why.
        public var failure: (seq: Int64, run: String, reason: String)?

        public var verified: Bool { failure == nil }

        public static func == (a: Verification, b: Verification) -> Bool {
            a.records == b.records && a.head == b.head && a.hmacChecked == b.hmacChecked
                && a.failure?.seq == b.failure?.seq && a.failure?.run == b.failure?.run && a.failure?.reason == b.failure?.reason
        }
    }

    /// Walks `records` and checks them against the audit rows `runs` (every run, with readings):
    /// each record's seq follows the one before, its `prev` is that record's hash, its hash is
    /// the hash of its content, its HMAC matches under `key` (when given), and every run's rows
    /// are what the last record about it holds; every signature's run hash is its run's. The first
    /// failure by seq is reported. `expect` (a hex prefix of at least 12 digits) must prefix the head.
    public static func verify(records: [AuditChainRecord], runs: [AuditRun], key: AuditKey?, expect: String? = nil) -> Verification {
        var failures: [(seq: Int64, run: String, reason: String)] = []
        var previous: AuditChainRecord?
        // The last record about each run: its seq, the hash of what it holds, and its kind (nil:
        // the chain start, which holds the run's hash itself).
        var lastState: [String: (seq: Int64, hash: String, kind: String?)] = [:]
        for record in records {
            let fail = { (reason: String) in failures.append((record.seq, record.run, reason)) }
            if record.seq != (previous?.seq ?? 0) + 1 {
                fail("its sequence number \(record.seq) does not follow \(previous?.seq ?? 0) (a record was removed or inserted)")
            } else if record.prev != (previous?.hash ?? "") {
                fail("it does not hold the previous record's hash")
            } else if SHA256.hex(message(seq: record.seq, kind: record.kind, run: record.run, prev: record.prev, body: record.body)) != record.hash {
                fail("its content does not match its hash (edited)")
            } else if let key {
                if let keyID = record.keyID, keyID != key.id {
                    fail("it was keyed with key \(keyID), not \(key.id)")
                } else if let mac = record.mac, mac != HMACSHA256.hex(key: key.bytes, Array(record.hash.utf8)) {
                    fail("its HMAC does not match (the chain was recomputed without the audit key)")
                } else if record.mac == nil, records.contains(where: { $0.seq < record.seq && $0.mac != nil }) {
                    fail("it has no HMAC although the chain was keyed before it")
                }
            }
            if let body = try? JSONValue.parse(Array(record.body.utf8)) {
                if record.kind == "chainStart", case .array(let items)? = body["runs"] {
                    for item in items {
                        if let run = item["run"]?.stringValue, let hash = item["hash"]?.stringValue { lastState[run] = (record.seq, hash, nil) }
                    }
                } else if body["state"] != nil {
                    // Compared as the text the hash covers, never re-serialized from a parse.
                    lastState[record.run] = (record.seq, SHA256.hex(Array(record.body.utf8)), record.kind)
                }
            } else {
                fail("its body is not JSON")
            }
            previous = record
        }
        var seen = Set<String>()
        for run in runs {
            seen.insert(run.run)
            guard let expected = lastState[run.run] else {
                failures.append((0, run.run, "run \(run.run) is in the audit log but in no chain record (added by hand)"))
                continue
            }
            let actual = expected.kind.map { SHA256.hex(Array(body(kind: $0, run: run).utf8)) } ?? runHash(run)
            if expected.hash != actual {
                failures.append((expected.seq, run.run, "run \(run.run)'s rows no longer match what this record holds (edited)"))
            }
            if let signature = run.signature, let signed = runs.first(where: { $0.run == signature.signedRun }),
               runHash(signed) != signature.runHash {
                failures.append((expected.seq, run.run, "the signed run \(signature.signedRun) changed after it was signed"))
            }
        }
        for (run, expected) in lastState where !seen.contains(run) {
            failures.append((expected.seq, run, "run \(run) is chained but missing from the audit log (deleted)"))
        }
        let head = previous?.hash ?? ""
        if failures.isEmpty, let expect, !head.hasPrefix(expect.lowercased()) {
            failures.append((previous?.seq ?? 0, previous?.run ?? "",
                             "the chain head \(shortHead(head)) is not the expected \(expect) (the log was rewritten or rolled back)"))
        }
        let first = failures.min { ($0.seq == 0 ? Int64.max : $0.seq) < ($1.seq == 0 ? Int64.max : $1.seq) }
        return Verification(records: records.count, head: head, hmacChecked: key != nil, failure: first)
    }
}

extension StateStore {
    /// The key id the store's chain is keyed with; nil when it has no keyed record yet.
    /// - Throws: `StoreError`.
    public func auditKeyID() throws -> String? { try auditChainHead()?.keyID }

    /// Applies `change` and appends its chain record in one transaction that holds the chain's
    /// lock (so appends from several processes and gateways are serialized), starting the chain
    /// first when the store has none (`chainStart`, recording the runs already there). Returns
    /// whether the change was applied (`begin`, `importRun`: false when the run id was held).
    /// - Throws: `AuditKeyMismatch` when the store's chain is keyed with another key, or `key` is
    ///   nil and it is keyed; `StoreError`.
    @discardableResult
    public func auditAppend(_ change: AuditChange, key: AuditKey?) throws -> Bool {
        try auditChainTransaction {
            var head = try auditChainHead()
            if let storeKeyID = head?.keyID, storeKeyID != key?.id {
                throw AuditKeyMismatch(storeKeyID: storeKeyID, offeredKeyID: key?.id, location: location)
            }
            if head == nil {
                let start = AuditChain.seal(after: nil, kind: "chainStart", run: "", body: AuditChain.startBody(runs: try auditRuns(AuditFilter())),
                                            key: key)
                try auditChainInsert(start)
                head = start
            }
            let applied: Bool
            switch change {
            case .begin(let run):
                // A held id is kept (and not chained again); the caller learns it was held.
                applied = try auditRuns(AuditFilter(run: run.run)).isEmpty
                if applied { try auditBegin(run) }
            case .reading(let run, let reading): try auditRecord(run: run, reading); applied = true
            case .finish(let run, let endedAt, let resultJSON): try auditFinish(run: run, endedAt: endedAt, resultJSON: resultJSON); applied = true
            case .importRun(let run):
                // Not `auditImport`: that opens its own transaction, and this one already holds the lock.
                applied = try auditRuns(AuditFilter(run: run.run)).isEmpty
                if applied {
                    try auditBegin(run)
                    for reading in run.readings { try auditRecord(run: run.run, reading) }
                }
            }
            guard applied, let state = try auditRuns(AuditFilter(run: change.run)).first else { return applied }
            try auditChainInsert(AuditChain.seal(after: head, kind: change.kind, run: change.run,
                                                 body: AuditChain.body(kind: change.kind, run: state), key: key))
            return applied
        }
    }

    /// Checks the chain against the audit rows (`AuditChain.verify`). - Throws: `StoreError`.
    public func auditVerify(key: AuditKey?, expect: String? = nil) throws -> AuditChain.Verification {
        AuditChain.verify(records: try auditChain(), runs: try auditRuns(AuditFilter()), key: key, expect: expect)
    }
}
