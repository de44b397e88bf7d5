/// The audit log's hash chain (docs/design.md "State store", "Audit chain"): every change to
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

/// The chain's head lacks an HMAC although records before it carry one: the MACs of its tail
/// were stripped (a forgery), so nothing is appended to it (exit 74).
public struct AuditChainStripped: Error, Equatable, Sendable {
    public var location: String
    /// The head's seq and the last record that carries an HMAC.
    public var head: Int64
    public var lastKeyed: Int64

    /// Creates the error.
    public init(location: String, head: Int64, lastKeyed: Int64) {
        self.location = location
        self.head = head
        self.lastKeyed = lastKeyed
    }
}

/// One change to the audit log, applied and chained in one transaction (`StateStore.auditAppend`).
public enum AuditChange: Sendable {
    case begin(AuditRun)
    case reading(run: String, AuditReading)
    case finish(run: String, endedAt: String, resultJSON: String)
    /// A whole run copied from another store (`state migrate`); kept when its id is held.
    case importRun(AuditRun)
    /// The runs before were copied from another store (`state migrate`): its chain's head hash and
    /// record count, so a head kept of that store verifies through this record (`--expect`).
    case migrated(sourceHead: String, sourceRecords: Int)

    var kind: String {
        switch self {
        case .migrated: AuditChain.migratedKind
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
        case .migrated: ""
        }
    }
}

/// The chain's rules: encoding, sealing and verification.
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

    /// A chain head kept elsewhere (`history --verify --expect`): `RECORD:HEX` as certificates and
    /// `--verify` print it (the record number and at least 12 hex digits of its hash), or `HEX` alone.
    /// With the record number a missing head is told apart as rolled back or rewritten.
    public struct ExpectedHead: Equatable, Sendable {
        /// The record number the head was at when it was kept; nil when not given.
        public var record: Int64?
        /// The hash's first hex digits, lowercase.
        public var prefix: String

        /// Parses `RECORD:HEX` or `HEX`; nil when it is neither (fewer than 12 hex digits, a record number below 1).
        public init?(_ text: String) {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, let hex = parts.last, hex.count >= 12, hex.count <= 64, hex.allSatisfy(\.isHexDigit) else { return nil }
            if parts.count == 2 {
                guard let record = Int64(parts[0]), record >= 1 else { return nil }
                self.record = record
            }
            prefix = hex.lowercased()
        }
    }

    /// The head as `--expect` takes it and a certificate prints it: `RECORD:16 hex`.
    public static func keptHead(record: Int, hash: String) -> String { "\(record):\(shortHead(hash))" }

    /// One thing that does not verify: the record (0 for a run no record holds), the run it is about
    /// ('' for the chain itself) and why.
    public struct Failure: Equatable, Sendable {
        public var seq: Int64
        public var run: String
        public var reason: String
        /// True for a fault of the records themselves (order, hash, HMAC): nothing after it can be trusted.
        public var chainLevel: Bool
    }

    /// The outcome of `verify`.
    public struct Verification: Equatable, Sendable {
        /// How many chain records there are, and the last one's hash ('' when none).
        public var records: Int
        public var head: String
        /// Whether the HMAC was checked (a key was given).
        public var hmacChecked: Bool
        /// How many records come before the first one carrying an HMAC (written before the chain was
        /// keyed; every record when none carries one). 0 on a chain keyed from its start.
        public var unkeyedPrefix: Int
        /// Whether any record carries an HMAC or a key id (the chain is keyed: checking it needs the key).
        public var keyed: Bool
        /// Every failure found, the first by seq first.
        public var failures: [Failure]
        /// With `expect`: the record the expected head is (or the `migrated` record that holds it, for a
        /// head of the store this one was copied from) and how many records came after it.
        public var expected: (record: Int64, after: Int, migrated: Bool)?

        /// The first record that does not match (its seq and run; 0 for a run no record holds), and why.
        public var failure: (seq: Int64, run: String, reason: String)? { failures.first.map { ($0.seq, $0.run, $0.reason) } }

        public var verified: Bool { failures.isEmpty }

        /// Whether the records of `run` (a flow run, a signature) verify: the chain holds and nothing is wrong with that run.
        public func runVerified(_ run: String) -> Bool {
            !failures.contains { $0.chainLevel || $0.run == run }
        }

        /// Why `run` does not verify (the first failure about it or about the chain); nil when it does.
        public func whyNotVerified(_ run: String) -> String? {
            failures.first { $0.chainLevel || $0.run == run }.map { "record \($0.seq): \($0.reason)" }
        }

        public static func == (a: Verification, b: Verification) -> Bool {
            a.records == b.records && a.head == b.head && a.hmacChecked == b.hmacChecked && a.unkeyedPrefix == b.unkeyedPrefix
                && a.keyed == b.keyed && a.failures == b.failures && a.expected?.record == b.expected?.record
                && a.expected?.after == b.expected?.after && a.expected?.migrated == b.expected?.migrated
        }
    }

    /// Walks `records` and checks them against the audit rows `runs` (every run, with readings):
    /// each record's seq follows the one before, its `prev` is that record's hash, its hash is
    /// the hash of its content, and every run's rows are what the last record about it holds;
    /// every signature's run hash is its run's. With `key` the chain must be keyed under it: the
    /// head carries a valid HMAC and so does every record from the first one that carries one (a
    /// chain whose MACs were stripped — all of them, a tail or from a middle record on — fails at
    /// the first record lacking one; a rewritten prefix breaks the MACs over the later hashes).
    /// All failures are reported, the first by seq first. `expect` must be a record on the chain
    /// (the chain extends it), or the source head a `migrated` record holds; else it was rolled back
    /// (the chain is shorter than its record number) or rewritten (another record at that place).
    public static func verify(records: [AuditChainRecord], runs: [AuditRun], key: AuditKey?, expect: ExpectedHead? = nil) -> Verification {
        var failures: [Failure] = []
        var previous: AuditChainRecord?
        let firstKeyed = records.firstIndex { $0.mac != nil }
        // The last record about each run: its seq, the hash of what it holds, and its kind (nil:
        // the chain start, which holds the run's hash itself).
        var lastState: [String: (seq: Int64, hash: String, kind: String?)] = [:]
        for (index, record) in records.enumerated() {
            let fail = { (reason: String) in failures.append(Failure(seq: record.seq, run: record.run, reason: reason, chainLevel: true)) }
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
                } else if record.mac == nil, let firstKeyed, index > firstKeyed {
                    fail("it has no HMAC although the chain was keyed before it (record \(records[firstKeyed].seq)): its MACs were stripped")
                } else if record.mac == nil, firstKeyed == nil {
                    fail("it has no HMAC, and neither has any record up to the head: the chain is not keyed under this key "
                         + "(its MACs were stripped, or it was written without a key)")
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
        let byID = Dictionary(runs.map { ($0.run, $0) }, uniquingKeysWith: { first, _ in first })
        for run in runs {
            seen.insert(run.run)
            guard let expected = lastState[run.run] else {
                failures.append(Failure(seq: 0, run: run.run, reason: "run \(run.run) is in the audit log but in no chain record (added by hand)",
                                        chainLevel: false))
                continue
            }
            let actual = expected.kind.map { SHA256.hex(Array(body(kind: $0, run: run).utf8)) } ?? runHash(run)
            if expected.hash != actual {
                failures.append(Failure(seq: expected.seq, run: run.run, reason: "run \(run.run)'s rows no longer match what this record holds (edited)",
                                        chainLevel: false))
            }
            if let signature = run.signature, let signed = byID[signature.signedRun], runHash(signed) != signature.runHash {
                failures.append(Failure(seq: expected.seq, run: run.run, reason: "the signed run \(signature.signedRun) changed after it was signed",
                                        chainLevel: false))
            }
        }
        for (run, expected) in lastState where !seen.contains(run) {
            failures.append(Failure(seq: expected.seq, run: run, reason: "run \(run) is chained but missing from the audit log (deleted)",
                                    chainLevel: false))
        }
        var found: (record: Int64, after: Int, migrated: Bool)?
        if failures.isEmpty, let expect {
            if let at = records.firstIndex(where: { $0.hash.hasPrefix(expect.prefix) && (expect.record ?? $0.seq) == $0.seq }) {
                found = (records[at].seq, records.count - 1 - at, false)
            } else if let at = records.firstIndex(where: { record in
                record.kind == migratedKind && migratedSource(record).map { $0.head.hasPrefix(expect.prefix) && (expect.record ?? $0.records) == $0.records } == true
            }) {
                found = (records[at].seq, records.count - 1 - at, true)
            } else {
                let last = previous?.seq ?? 0
                let shown = expect.record.map { "\($0):\(expect.prefix)" } ?? expect.prefix
                let reason: String
                if let at = expect.record, at > last {
                    reason = "the expected head \(shown) is not on the chain: rolled back (the chain ends at record \(last), before record \(at))"
                } else if let at = expect.record {
                    let there = records.first { $0.seq == at }.map { shortHead($0.hash) } ?? "?"
                    reason = "the expected head \(shown) is not on the chain: rewritten (record \(at) is now \(there))"
                } else {
                    reason = "the expected head \(shown) is not on the chain: rewritten or rolled back "
                        + "(give it with its record number, RECORD:HEAD, to tell which)"
                }
                failures.append(Failure(seq: expect.record.map { min($0, last) } ?? last, run: "", reason: reason, chainLevel: true))
            }
        }
        failures.sort { ($0.seq == 0 ? Int64.max : $0.seq) < ($1.seq == 0 ? Int64.max : $1.seq) }
        return Verification(records: records.count, head: previous?.hash ?? "", hmacChecked: key != nil,
                            unkeyedPrefix: firstKeyed ?? records.count, keyed: records.contains { $0.mac != nil || $0.keyID != nil },
                            failures: failures, expected: found)
    }

    /// The kind of the record `state migrate` appends to the target: the source chain's head and length.
    static let migratedKind = "migrated"

    /// The body of a `migrated` record: the source chain's head hash and record count.
    static func migratedBody(head: String, records: Int) -> String {
        JSONValue.object([("kind", .string(migratedKind)), ("note", .string("the runs before this record were copied from another store")),
                          ("sourceHead", .string(head)), ("sourceRecords", .int(records))]).serialized
    }

    /// The source head and length a `migrated` record holds.
    static func migratedSource(_ record: AuditChainRecord) -> (head: String, records: Int64)? {
        guard let body = try? JSONValue.parse(Array(record.body.utf8)), let head = body["sourceHead"]?.stringValue,
              let count = body["sourceRecords"]?.intValue else { return nil }
        return (head, Int64(count))
    }
}

extension StateStore {
    /// The key id the store's chain is keyed with; nil when it has no keyed record yet.
    /// - Throws: `StoreError`.
    public func auditKeyID() throws -> String? {
        guard let head = try auditChainHead() else { return nil }
        if let keyID = head.keyID { return keyID }
        return try auditChain().last { $0.keyID != nil }?.keyID
    }

    /// Refuses to append to this store's chain with `key` (nil: unkeyed) when that would pass a
    /// forgery on or mix keys (docs/design.md "Audit chain"): the chain is keyed with another key,
    /// or with a key and none is given; or its head lacks an HMAC after keyed records (the MACs of a
    /// tail were stripped: appending would seal the strip). Commands call it before they touch a
    /// bracelet or write anything, and every append calls it again inside its transaction.
    /// - Throws: `AuditKeyMismatch`, `AuditChainStripped`, `StoreError`.
    public func auditKeyCheck(_ key: AuditKey?) throws {
        guard let head = try auditChainHead() else { return }
        if let storeKeyID = head.keyID {
            if storeKeyID != key?.id { throw AuditKeyMismatch(storeKeyID: storeKeyID, offeredKeyID: key?.id, location: location) }
            return
        }
        // An unkeyed head: fine on a chain never keyed (and then only unkeyed, or keyed from here on).
        if let keyed = try auditChain().last(where: { $0.mac != nil || $0.keyID != nil }) {
            throw AuditChainStripped(location: location, head: head.seq, lastKeyed: keyed.seq)
        }
    }

    /// Applies `change` and appends its chain record in one transaction that holds the chain's
    /// lock (so appends from several processes and gateways are serialized), starting the chain
    /// first when the store has none (`chainStart`, recording the runs already there). Returns
    /// whether the change was applied (`begin`, `importRun`: false when the run id was held;
    /// `migrated`: always). `precondition` runs first inside the same transaction, under the
    /// chain's lock, so what it checks cannot change before the append (a signature not given twice).
    /// - Throws: `AuditKeyMismatch` when the store's chain is keyed with another key, or `key` is
    ///   nil and it is keyed; `AuditChainStripped`; `StoreError`.
    @discardableResult
    public func auditAppend(_ change: AuditChange, key: AuditKey?, precondition: () throws -> Void = {}) throws -> Bool {
        try auditChainTransaction {
            try auditKeyCheck(key)
            try precondition()
            var head = try auditChainHead()
            if head == nil {
                let start = AuditChain.seal(after: nil, kind: "chainStart", run: "", body: AuditChain.startBody(runs: try auditRuns(AuditFilter())),
                                            key: key)
                try auditChainInsert(start)
                head = start
            }
            if case .migrated(let sourceHead, let sourceRecords) = change {
                try auditChainInsert(AuditChain.seal(after: head, kind: AuditChain.migratedKind, run: "",
                                                     body: AuditChain.migratedBody(head: sourceHead, records: sourceRecords), key: key))
                return true
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
            case .migrated: applied = false
            }
            guard applied, let state = try auditRuns(AuditFilter(run: change.run)).first else { return applied }
            try auditChainInsert(AuditChain.seal(after: head, kind: change.kind, run: change.run,
                                                 body: AuditChain.body(kind: change.kind, run: state), key: key))
            return applied
        }
    }

    /// Checks the chain against the audit rows (`AuditChain.verify`). - Throws: `StoreError`.
    public func auditVerify(key: AuditKey?, expect: AuditChain.ExpectedHead? = nil) throws -> AuditChain.Verification {
        AuditChain.verify(records: try auditChain(), runs: try auditRuns(AuditFilter()), key: key, expect: expect)
    }
}
