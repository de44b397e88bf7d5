import CorsanoKit
import Testing

/// A keyed chain cannot become unkeyed (docs/design.md "Audit chain"): records written before
/// the chain was keyed are counted (`unkeyedPrefix`), an unkeyed append after keyed records is
/// refused, and a kept head is read as `RECORD:HEAD` or `HEAD`.
@Suite struct AuditChainKeyingTests {
    static let bracelet = BraceletIdentity(model: "287-2", firmware: "7.4", serial: "CS-KEYING")
    static let at = Instant(secondsSinceEpoch: 1_800_000_000)
    static let key = AuditKey(bytes: Array("core-test-key-0123456789abcdef".utf8))

    @Test func recordsBeforeKeyingAreCountedAndNoUnkeyedAppendFollowsAKeyedOne() throws {
        let store = try SQLiteStore(path: nil)
        try AuditLog(store: store).begin(run: "r1", flow: .bpInit, bracelet: Self.bracelet, at: Self.at, config: .object([]))
        try AuditLog(store: store, key: Self.key).finish(run: "r1", at: Self.at, result: .object([("kind", .string("success"))]))
        let keyed = try store.auditVerify(key: Self.key)
        #expect(keyed.verified, "\(keyed.failures)")
        #expect(keyed.unkeyedPrefix == 2)  // chainStart and begin, written before the key
        #expect(keyed.keyed)
        // Unkeyed again, or with another key: refused before anything is written.
        #expect(throws: AuditKeyMismatch.self) {
            try AuditLog(store: store).begin(run: "r2", flow: .bpInit, bracelet: Self.bracelet, at: Self.at, config: .object([]))
        }
        #expect(throws: AuditKeyMismatch.self) { try store.auditKeyCheck(AuditKey(bytes: Array("another-key-0123456789abcdef".utf8))) }
        #expect(try store.auditChain().count == 3)
        #expect(try store.auditRuns(AuditFilter(run: "r2")).isEmpty)
    }

    @Test func anUnkeyedChainDoesNotVerifyUnderAKey() throws {
        let store = try SQLiteStore(path: nil)
        try AuditLog(store: store).begin(run: "r1", flow: .bpInit, bracelet: Self.bracelet, at: Self.at, config: .object([]))
        let hashes = try store.auditVerify(key: nil)
        #expect(hashes.verified && !hashes.hmacChecked && !hashes.keyed)
        let keyed = try store.auditVerify(key: Self.key)
        #expect(!keyed.verified)
        #expect(keyed.failure?.seq == 1)
        #expect(keyed.failure?.reason.contains("has no HMAC") == true)
        #expect(!keyed.runVerified("r1"))
    }

    @Test(arguments: [("3:0123456789AB", Int64?.some(3), "0123456789ab"), ("0123456789abcdef", nil, "0123456789abcdef")])
    func aKeptHeadIsReadWithOrWithoutItsRecord(_ text: String, _ record: Int64?, _ prefix: String) throws {
        let head = try #require(AuditChain.ExpectedHead(text))
        #expect(head.record == record)
        #expect(head.prefix == prefix)
    }

    @Test(arguments: ["0123456789a", "0:0123456789ab", "x:0123456789ab", "1:2:0123456789ab", "0123456789zz"])
    func aMalformedHeadIsRefused(_ text: String) {
        #expect(AuditChain.ExpectedHead(text) == nil)
    }
}
